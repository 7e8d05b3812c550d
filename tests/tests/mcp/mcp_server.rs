//! rmcp's own client against our `McpServer`, in-process (a `tokio::io::duplex` pair) and
//! over a child process on stdio: list, call, error results, structured content, unknown
//! tools, pagination, progress and cancellation.

#![cfg(feature = "mcp")]

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ClientRequest, ErrorCode, PaginatedRequestParams, Request};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::McpServer;
use tool_core::{CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse};
use tool_tests::mcp::harness::{
    bounded, call, calls_answer_text_structured_content_and_errors,
    progress_reaches_the_client_in_order, text, Recorder,
};
use tool_tests::mcp::{ours, CancelProbe};

type Client = RunningService<RoleClient, Recorder>;

async fn in_process(server: McpServer) -> Client {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    Recorder::default().serve(near).await.unwrap()
}

async fn child() -> Client {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_peer"));
    command.arg("ours");
    let transport = TokioChildProcess::new(command).unwrap();
    Recorder::default().serve(transport).await.unwrap()
}

async fn lists_every_tool_with_schemas_and_hints(client: &Client) {
    let tools = client.peer().list_all_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["add", "forecast", "fail", "slow"]);

    let add = &tools[0];
    assert_eq!(add.description.as_deref(), Some("Adds two integers."));
    assert_eq!(add.input_schema["required"], json!(["a", "b"]));
    let hints = add.annotations.as_ref().unwrap();
    assert_eq!(
        (hints.read_only_hint, hints.idempotent_hint),
        (Some(true), Some(true))
    );
    assert!(add.output_schema.is_none(), "an i64 result has no schema");
    // `#[tool(title = "..")]` reaches the client as MCP's `title`; no title, no field.
    assert_eq!(add.title, None);
    assert_eq!(tools[1].title.as_deref(), Some("Weather forecast"));

    let forecast = tools[1].output_schema.as_ref().unwrap();
    assert_eq!(forecast["type"], "object");
    assert_eq!(forecast["required"], json!(["city", "temp_c"]));
    // Context parameters never reach a schema.
    assert_eq!(
        tools[3].input_schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["steps"]
    );
}

/// Starts a long `slow` call and cancels it; returns when the cancellation was sent.
async fn start_and_cancel(client: &Client) {
    let request = ClientRequest::CallToolRequest(Request::new(call("slow", json!({"steps": 500}))));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    handle
        .cancel(Some("the user changed their mind".into()))
        .await
        .unwrap();
}

#[tokio::test]
async fn rmcp_client_lists_our_tools_in_process() {
    bounded(async {
        let client = in_process(McpServer::new(ours::registry(Default::default()))).await;
        lists_every_tool_with_schemas_and_hints(&client).await;
    })
    .await
}

#[tokio::test]
async fn rmcp_client_lists_our_tools_over_stdio() {
    bounded(async {
        let client = child().await;
        lists_every_tool_with_schemas_and_hints(&client).await;
        assert_eq!(
            client
                .peer()
                .peer_info()
                .unwrap()
                .server_info
                .as_ref()
                .unwrap()
                .name,
            "ours"
        );
    })
    .await
}

#[tokio::test]
async fn rmcp_client_calls_our_tools_in_process() {
    bounded(async {
        let client = in_process(McpServer::new(ours::registry(Default::default()))).await;
        calls_answer_text_structured_content_and_errors(&client).await;
    })
    .await
}

#[tokio::test]
async fn rmcp_client_calls_our_tools_over_stdio() {
    bounded(async {
        let client = child().await;
        calls_answer_text_structured_content_and_errors(&client).await;
    })
    .await
}

#[tokio::test]
async fn progress_reports_become_notifications_in_process() {
    bounded(async {
        let client = in_process(McpServer::new(ours::registry(Default::default()))).await;
        progress_reaches_the_client_in_order(&client).await;
    })
    .await
}

#[tokio::test]
async fn progress_reports_become_notifications_over_stdio() {
    bounded(async {
        let client = child().await;
        progress_reaches_the_client_in_order(&client).await;
    })
    .await
}

#[tokio::test]
async fn cancellation_reaches_the_running_tool() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let client = in_process(McpServer::new(ours::registry(probe.clone()))).await;
        let seen = probe.seen.notified();
        start_and_cancel(&client).await;
        seen.await;
        assert!(probe.was_cancelled());
        // The server goes on serving.
        let sum = client
            .peer()
            .call_tool(call("add", json!({"a": 1, "b": 1})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "2");
    })
    .await
}

#[tokio::test]
async fn cancelled_call_over_stdio_leaves_the_server_serving() {
    bounded(async {
        let client = child().await;
        start_and_cancel(&client).await;
        let sum = client
            .peer()
            .call_tool(call("add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "3");
    })
    .await
}

/// A tool named at run time, for registries of many tools.
struct Numbered(String);

impl Tool for Numbered {
    fn name(&self) -> &str {
        &self.0
    }
    fn description(&self) -> &str {
        "Says its own name."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(ToolResponse::success(self.0.clone()))
    }
}

#[tokio::test]
async fn large_registries_list_in_pages() {
    bounded(async {
        let mut registry = ToolRegistry::new();
        for i in 0..50 {
            registry.register(Numbered(format!("tool_{i:02}"))).unwrap();
        }
        let client = in_process(McpServer::new(registry).with_page_size(20)).await;
        let first = client.peer().list_tools(None).await.unwrap();
        assert_eq!(first.tools.len(), 20);
        assert_eq!(first.next_cursor.as_deref(), Some("20"));
        let all = client.peer().list_all_tools().await.unwrap();
        let names: Vec<_> = all.iter().map(|t| t.name.to_string()).collect();
        let expected: Vec<_> = (0..50).map(|i| format!("tool_{i:02}")).collect();
        assert_eq!(names, expected);

        let mut bogus = PaginatedRequestParams::default();
        bogus.cursor = Some("banana".into());
        match client.peer().list_tools(Some(bogus)).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert!(e.message.contains("nextCursor"), "{}", e.message);
            }
            other => panic!("expected a JSON-RPC error, got {other:?}"),
        }
    })
    .await
}
