//! Tools reaching the client through their context, with rmcp's own client on the other end:
//! `log` (filtered by `logging/setLevel`, all sent before the result), `sample`, `elicit`
//! (accept, decline, cancel) and `roots`, each refused clearly when the client did not declare
//! the capability, and what each means outside MCP.

#![cfg(feature = "mcp")]
#![allow(deprecated)] // logging, sampling and roots are handshake-era messages: what we test.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientInfo, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ErrorData, ListRootsResult,
    LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::McpServer;
use tool_core::ToolCall;
use tool_tests::mcp::catalog;

#[derive(Clone, Default)]
struct Client {
    capable: bool,
    logs: Arc<Mutex<Vec<(String, String, Value)>>>,
    sampled: Arc<Mutex<Vec<Value>>>,
    elicited: Arc<Mutex<Vec<Value>>>,
    answer: Arc<Mutex<&'static str>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientInfo {
        let mut info = ClientInfo::default();
        if self.capable {
            info.capabilities = serde_json::from_value::<ClientCapabilities>(
                json!({"sampling": {}, "elicitation": {}, "roots": {}}),
            )
            .unwrap();
        }
        info
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let level = serde_json::to_value(params.level).unwrap();
        self.logs.lock().unwrap().push((
            level.as_str().unwrap().to_owned(),
            params.logger.unwrap_or_default(),
            params.data,
        ));
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let value = serde_json::to_value(&params).unwrap();
        let prompt = value["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        self.sampled.lock().unwrap().push(value);
        Ok(serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": format!("echo: {prompt}")},
            "model": "test-model",
            "stopReason": "endTurn"
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.elicited
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        let answer = *self.answer.lock().unwrap();
        let result = match answer {
            "accept" => json!({"action": "accept", "content": {"unit": "fahrenheit"}}),
            "decline" => json!({"action": "decline"}),
            _ => json!({"action": "cancel"}),
        };
        Ok(serde_json::from_value(result).unwrap())
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(serde_json::from_value(
            json!({"roots": [{"uri": "file:///tmp/project", "name": "project"}]}),
        )
        .unwrap())
    }
}

async fn connect(server: McpServer, client: Client) -> RunningService<RoleClient, Client> {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(near).await.unwrap()
}

async fn call(
    client: &RunningService<RoleClient, Client>,
    name: &str,
    args: Value,
) -> (String, bool) {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = args {
        params.arguments = Some(map);
    }
    let result = tokio::time::timeout(Duration::from_secs(20), client.peer().call_tool(params))
        .await
        .expect("the call ends within 20 s")
        .unwrap();
    let value = serde_json::to_value(&result).unwrap();
    (
        value["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        result.is_error == Some(true),
    )
}

fn capable() -> Client {
    Client {
        capable: true,
        ..Client::default()
    }
}

#[tokio::test]
async fn logging_is_advertised_and_filtered_by_the_clients_level() {
    let client = capable();
    let logs = client.logs.clone();
    let running = connect(catalog::server(), client).await;
    let caps = serde_json::to_value(&running.peer().peer_info().unwrap().capabilities).unwrap();
    assert_eq!(caps["logging"], json!({}));

    // No level set yet: every message, in order, all before the result.
    assert_eq!(
        call(&running, "count_to", json!({"n": 2})).await,
        ("counted to 2".into(), false)
    );
    let seen: Vec<_> = logs.lock().unwrap().drain(..).collect();
    assert_eq!(
        seen,
        [
            ("info".into(), "count_to".into(), json!("step 1")),
            ("info".into(), "count_to".into(), json!("step 2")),
            ("debug".into(), "count_to".into(), json!("done counting")),
        ]
    );

    running
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();
    call(&running, "count_to", json!({"n": 3})).await;
    let seen: Vec<_> = logs
        .lock()
        .unwrap()
        .drain(..)
        .map(|(l, _, d)| (l, d))
        .collect();
    assert_eq!(
        seen,
        [
            ("info".into(), json!("step 1")),
            ("info".into(), json!("step 2")),
            ("info".into(), json!("step 3")),
        ]
    );
    running
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .unwrap();
    call(&running, "count_to", json!({"n": 3})).await;
    assert!(logs.lock().unwrap().is_empty());
}

#[tokio::test]
async fn sampling_asks_the_clients_model_with_preferences() {
    let client = capable();
    let sampled = client.sampled.clone();
    let running = connect(catalog::server(), client).await;
    let (text, is_error) = call(&running, "haiku", json!({"topic": "rain"})).await;
    assert_eq!(text, "echo: A haiku about rain (by test-model)");
    assert!(!is_error);
    let request = sampled.lock().unwrap()[0].clone();
    assert_eq!(request["maxTokens"], 50);
    assert_eq!(
        request["modelPreferences"]["hints"],
        json!([{"name": "claude"}])
    );
    assert_eq!(request["messages"][0]["role"], "user");
}

#[tokio::test]
async fn elicitation_handles_accept_decline_and_cancel() {
    let client = capable();
    let (answer, elicited) = (client.answer.clone(), client.elicited.clone());
    let running = connect(catalog::server(), client).await;
    for (mode, expected) in [
        ("accept", "Fahrenheit"),
        ("decline", "declined"),
        ("cancel", "cancelled"),
    ] {
        *answer.lock().unwrap() = mode;
        assert_eq!(
            call(&running, "ask_unit", json!({})).await,
            (expected.into(), false),
            "{mode}"
        );
    }
    let request = elicited.lock().unwrap()[0].clone();
    assert_eq!(request["message"], "Which unit?");
    let schema = &request["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"]["unit"]["enum"],
        json!(["celsius", "fahrenheit"])
    );
    assert!(schema.get("$defs").is_none(), "{schema}");
}

#[tokio::test]
async fn roots_come_from_the_client() {
    let running = connect(catalog::server(), capable()).await;
    assert_eq!(
        call(&running, "where_am_i", json!({})).await,
        ("file:///tmp/project (project)".into(), false)
    );
}

#[tokio::test]
async fn a_client_without_the_capability_gets_a_clear_error() {
    let running = connect(catalog::server(), Client::default()).await;
    for (tool, args, what) in [
        ("haiku", json!({"topic": "rain"}), "sampling"),
        ("ask_unit", json!({}), "elicitation"),
        ("where_am_i", json!({}), "roots"),
    ] {
        let (text, is_error) = call(&running, tool, args).await;
        assert!(is_error, "{tool}: {text}");
        assert!(
            text.contains(&format!(
                "{what} is not available: the MCP client did not declare the `{what}` capability"
            )),
            "{tool}: {text}"
        );
    }
}

#[test]
fn outside_mcp_logging_works_and_the_rest_says_there_is_no_client() {
    let registry = catalog::registry();
    let reply = registry.call_blocking(&ToolCall::new("1", "count_to", r#"{"n":2}"#));
    assert_eq!(reply.model_text(), "counted to 2");
    let reply = registry.call_blocking(&ToolCall::new("2", "haiku", r#"{"topic":"rain"}"#));
    assert!(reply.is_error());
    assert!(
        reply
            .model_text()
            .contains("sampling is not available: this call has no client to ask"),
        "{}",
        reply.model_text()
    );
}
