//! Our `McpClient` against a server written with rmcp's `#[tool_router]`, in-process and over
//! a child process on stdio: the remote tools join a registry next to `#[tool]` ones and are
//! listed, called, cancelled and followed (progress) through it.

#![cfg(feature = "mcp")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use serde_json::json;
use tool_core::mcp::{McpClient, McpErrorKind};
use tool_core::provider::mcp;
use tool_core::{
    tool, CallContext, CancelFlag, ProgressReporter, RegistryError, ToolCall, ToolErrorCode,
    ToolRegistry,
};
use tool_tests::mcp::harness::{bounded, until_len, working_steps};
use tool_tests::mcp::{theirs::RmcpServer, CancelProbe};

async fn in_process(probe: Arc<CancelProbe>) -> McpClient {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = RmcpServer::new(probe).serve(far).await {
            let _ = running.waiting().await;
        }
    });
    McpClient::connect(near).await.unwrap()
}

async fn child() -> McpClient {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_peer"));
    command.arg("theirs");
    McpClient::spawn(command).await.unwrap()
}

/// A local tool to sit next to the remote ones.
#[tool]
fn local_echo(
    /// What to say back.
    text: String,
) -> String {
    text
}

fn registry_with(client: &McpClient) -> ToolRegistry {
    let mut registry = ToolRegistry::new().with(local_echo {});
    assert_eq!(client.register_into(&mut registry, Some("r_")).unwrap(), 4);
    registry
}

async fn remote_tools_sit_next_to_local_ones(client: &McpClient) {
    assert_eq!(client.server_name(), "rmcp-fixture");
    let registry = registry_with(client);
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        // rmcp's router lists its tools sorted by name.
        ["local_echo", "r_add", "r_fail", "r_forecast", "r_slow"]
    );
    let add = registry.definition("r_add").unwrap();
    assert_eq!(add.description, "Adds two integers.");
    assert_eq!(add.input_schema["required"], json!(["a", "b"]));
    assert_eq!(add.annotations.read_only, Some(true));
    assert_eq!(add.title, None);
    let forecast = registry.definition("r_forecast").unwrap();
    // The remote tool keeps its title.
    assert_eq!(forecast.title.as_deref(), Some("Weather forecast"));
    assert_eq!(
        forecast.output_schema.as_ref().unwrap()["required"],
        json!(["city", "temp_c"])
    );
    // Dialects treat them like local tools: the MCP dialect lists them with their schemas.
    let listed = mcp::tools(registry.definitions());
    assert_eq!(listed["tools"][3]["name"], "r_forecast");
    assert_eq!(listed["tools"][3]["outputSchema"]["type"], "object");
    assert_eq!(listed["tools"][3]["title"], "Weather forecast");
}

async fn calls_go_through_the_registry(client: &McpClient) {
    let registry = registry_with(client);
    let sum = registry
        .call(&ToolCall::new("1", "r_add", r#"{"a":2,"b":40}"#))
        .await;
    assert_eq!(sum.model_text(), "42");

    let forecast = registry
        .call(&ToolCall::new("2", "r_forecast", r#"{"city":"Oslo"}"#))
        .await;
    assert!(!forecast.is_error());
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(forecast.data.as_ref().unwrap().get()).unwrap(),
        json!({"city": "Oslo", "temp_c": 21.5})
    );

    let failed = registry
        .call(&ToolCall::new("3", "r_fail", r#"{"reason":"disk full"}"#))
        .await;
    assert_eq!(failed.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(failed.error_message(), Some("disk full"));

    // rmcp's router answers arguments it cannot decode with an `isError` result (SEP-1303);
    // the model reads the server's text.
    let bad = registry
        .call(&ToolCall::new("4", "r_add", r#"{"a":"two","b":1}"#))
        .await;
    assert_eq!(bad.error_code(), Some(ToolErrorCode::ExecutionError));
    assert!(
        bad.error_message().unwrap().contains("expected i64"),
        "{bad:?}"
    );

    // Arguments that are not an object never leave the process.
    let not_object = registry.call(&ToolCall::new("5", "r_add", "[1,2]")).await;
    assert_eq!(not_object.error_code(), Some(ToolErrorCode::InvalidFormat));
}

async fn progress_reaches_the_callers_reporter(client: &McpClient) {
    let registry = registry_with(client);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let ctx = CallContext::new().with_progress(ProgressReporter::new(move |p| {
        sink.lock().unwrap().push((p.progress, p.total, p.message))
    }));
    let reply = registry
        .call_in(&ToolCall::new("1", "r_slow", r#"{"steps":3}"#), &ctx)
        .await;
    assert_eq!(reply.model_text(), "3 steps done");
    until_len(&seen, 3).await;
    assert_eq!(*seen.lock().unwrap(), working_steps(3));
}

/// Cancels a long remote call through the caller's flag; returns the call's response.
async fn cancel_a_running_call(client: &McpClient) -> tool_core::ToolResponse {
    let registry = registry_with(client);
    let flag = CancelFlag::new();
    let ctx = CallContext::new().with_cancel(flag.clone());
    let raise = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        flag.cancel();
    };
    let call = ToolCall::new("1", "r_slow", r#"{"steps":500}"#);
    let (reply, ()) = tokio::join!(registry.call_in(&call, &ctx), raise);
    assert_eq!(reply.error_code(), Some(ToolErrorCode::ExecutionError));
    assert!(
        reply.error_message().unwrap().contains("cancelled"),
        "{reply:?}"
    );
    // The connection still serves.
    let sum = registry
        .call(&ToolCall::new("2", "r_add", r#"{"a":1,"b":1}"#))
        .await;
    assert_eq!(sum.model_text(), "2");
    reply
}

#[tokio::test]
async fn our_client_lists_rmcp_tools_in_process() {
    bounded(async {
        remote_tools_sit_next_to_local_ones(&in_process(Default::default()).await).await
    })
    .await
}

#[tokio::test]
async fn our_client_lists_rmcp_tools_over_stdio() {
    bounded(async { remote_tools_sit_next_to_local_ones(&child().await).await }).await
}

#[tokio::test]
async fn our_client_calls_rmcp_tools_in_process() {
    bounded(async { calls_go_through_the_registry(&in_process(Default::default()).await).await })
        .await
}

#[tokio::test]
async fn our_client_calls_rmcp_tools_over_stdio() {
    bounded(async { calls_go_through_the_registry(&child().await).await }).await
}

#[tokio::test]
async fn remote_progress_reaches_the_reporter_in_process() {
    bounded(async {
        progress_reaches_the_callers_reporter(&in_process(Default::default()).await).await
    })
    .await
}

#[tokio::test]
async fn remote_progress_reaches_the_reporter_over_stdio() {
    bounded(async { progress_reaches_the_callers_reporter(&child().await).await }).await
}

#[tokio::test]
async fn cancel_flag_cancels_the_remote_call_in_process() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let client = in_process(probe.clone()).await;
        let seen = probe.seen.notified();
        cancel_a_running_call(&client).await;
        // The rmcp tool saw its cancellation token raised by our notifications/cancelled.
        seen.await;
        assert!(probe.was_cancelled());
    })
    .await
}

#[tokio::test]
async fn cancel_flag_cancels_the_remote_call_over_stdio() {
    bounded(async {
        cancel_a_running_call(&child().await).await;
    })
    .await
}

#[tokio::test]
async fn name_collisions_are_clear_errors_and_register_nothing() {
    bounded(async {
        let client = in_process(Default::default()).await;
        /// A local tool that takes the remote name.
        #[tool(name = "add")]
        fn local_add() -> &'static str {
            "local"
        }
        let mut registry = ToolRegistry::new().with(local_add {});
        let err = client.register_into(&mut registry, None).unwrap_err();
        assert_eq!(err.kind(), McpErrorKind::Register);
        assert_eq!(
            std::error::Error::source(&err).and_then(|e| e.downcast_ref::<RegistryError>()),
            Some(&RegistryError::DuplicateName("add".into()))
        );
        assert!(err.to_string().contains("prefix"), "{err}");
        assert_eq!(registry.len(), 1, "nothing was registered");
        // With a prefix they sit side by side.
        assert_eq!(client.register_into(&mut registry, Some("r_")).unwrap(), 4);
        assert_eq!(registry.len(), 5);
    })
    .await
}

#[tokio::test]
async fn a_closed_client_answers_service_unavailable() {
    bounded(async {
        let client = in_process(Default::default()).await;
        let tools = client.tools(None);
        let registry = tools
            .into_iter()
            .fold(ToolRegistry::new(), |r, t| r.with(t));
        client.close().await;
        let reply = registry
            .call(&ToolCall::new("1", "add", r#"{"a":1,"b":2}"#))
            .await;
        assert_eq!(
            reply.error_code(),
            Some(ToolErrorCode::ServiceUnavailable),
            "{reply:?}"
        );
    })
    .await
}

/// An rmcp server whose `grow` tool adds a tool and says so with `tools/list_changed`.
#[derive(Clone, Default)]
struct Growing {
    extra: Arc<Mutex<bool>>,
}

impl rmcp::ServerHandler for Growing {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let schema = Arc::new(rmcp::model::JsonObject::from_iter([(
            "type".to_owned(),
            json!("object"),
        )]));
        let mut tools = vec![rmcp::model::Tool::new(
            "grow",
            "Adds a tool.",
            schema.clone(),
        )];
        if *self.extra.lock().unwrap() {
            tools.push(rmcp::model::Tool::new("extra", "Appears later.", schema));
        }
        Ok(rmcp::model::ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        _request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        *self.extra.lock().unwrap() = true;
        let _ = context.peer.notify_tool_list_changed().await;
        Ok(
            rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text("grown")])
                .into(),
        )
    }
}

#[tokio::test]
async fn list_changed_refreshes_the_tool_list() {
    bounded(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = Growing::default().serve(far).await {
                let _ = running.waiting().await;
            }
        });
        let client = McpClient::connect(near).await.unwrap();
        let mut changes = client.list_changes();
        let names = |client: &McpClient| {
            client
                .tools(None)
                .iter()
                .map(|t| t.remote_name().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&client), ["grow"]);

        let mut registry = ToolRegistry::new();
        client.register_into(&mut registry, None).unwrap();
        let reply = registry.call(&ToolCall::new("1", "grow", "{}")).await;
        assert_eq!(reply.model_text(), "grown");

        changes.changed().await.unwrap();
        assert_eq!(names(&client), ["grow", "extra"]);
        // A registry rebuilt after the change offers the new tool.
        let mut rebuilt = ToolRegistry::new();
        assert_eq!(client.register_into(&mut rebuilt, None).unwrap(), 2);
        assert_eq!(
            rebuilt
                .call(&ToolCall::new("2", "extra", "{}"))
                .await
                .model_text(),
            "grown"
        );
    })
    .await
}

#[tokio::test]
async fn tool_core_on_both_ends_keeps_error_codes_and_data() {
    bounded(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        let server =
            tool_core::mcp::McpServer::new(tool_tests::mcp::ours::registry(Default::default()));
        tokio::spawn(async move {
            if let Ok(running) = server.serve_on(far).await {
                let _ = running.waiting().await;
            }
        });
        let client = McpClient::connect(near).await.unwrap();
        let mut registry = ToolRegistry::new();
        client.register_into(&mut registry, None).unwrap();

        let failed = registry
            .call(&ToolCall::new("1", "fail", r#"{"reason":"no such city"}"#))
            .await;
        assert_eq!(failed.error_code(), Some(ToolErrorCode::NotFound));
        assert_eq!(failed.error_message(), Some("no such city"));

        let forecast = registry
            .call(&ToolCall::new("2", "forecast", r#"{"city":"Lima"}"#))
            .await;
        // The text block only repeated the structured content: it is not kept twice.
        assert_eq!(forecast.text, "");
        assert_eq!(
            forecast.data.as_ref().unwrap().get(),
            r#"{"city":"Lima","temp_c":21.5}"#
        );
        assert_eq!(forecast.model_text(), r#"{"city":"Lima","temp_c":21.5}"#);
    })
    .await
}
