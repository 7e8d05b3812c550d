//! Live tool lists: the application adds and removes tools while an `McpServer` serves
//! (through its `ServerHandle`); rmcp's client and ours hear `notifications/tools/list_changed`
//! and see the new list, our runner calls a tool the server added after the client connected,
//! and a call already running finishes on the tool set it started with.

#![cfg(feature = "mcp")]

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ErrorCode};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;
use tokio::sync::{mpsc, Notify};
use tool_core::mcp::{McpClient, McpServer, ServerHandle};
use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::runner::Runner;
use tool_core::{tool, tools, RegistryError, ToolCall, ToolRegistry};
use tool_tests::mcp::harness::bounded;

/// Adds two integers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiplies two integers.
#[tool(read_only)]
fn mul(a: i64, b: i64) -> i64 {
    a * b
}

/// Opened by the test to let a running `wait` call finish.
static GATE: Notify = Notify::const_new();

/// Waits until the test opens the gate.
#[tool]
async fn wait() -> &'static str {
    GATE.notified().await;
    "done waiting"
}

/// Counts the `tools/list_changed` notifications it hears.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

fn serve_in_memory(server: McpServer) -> tokio::io::DuplexStream {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    near
}

async fn rmcp_client(
    server: McpServer,
) -> (
    RunningService<RoleClient, Watcher>,
    mpsc::UnboundedReceiver<()>,
) {
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Watcher(tx).serve(serve_in_memory(server)).await.unwrap();
    (client, rx)
}

async fn heard(rx: &mut mpsc::UnboundedReceiver<()>) {
    tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .expect("notifications/tools/list_changed within 5 s")
        .expect("the client is still connected");
}

async fn names(client: &RunningService<RoleClient, Watcher>) -> Vec<String> {
    let tools = client.peer().list_all_tools().await.unwrap();
    tools.iter().map(|t| t.name.to_string()).collect()
}

fn call(name: &str, arguments: serde_json::Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let serde_json::Value::Object(map) = arguments {
        params.arguments = Some(map);
    }
    params
}

#[tokio::test]
async fn tools_capability_advertises_list_changed() {
    bounded(async {
        let (client, _) = rmcp_client(McpServer::new(tools![add])).await;
        let caps = serde_json::to_value(&client.peer().peer_info().unwrap().capabilities).unwrap();
        assert_eq!(caps["tools"], json!({"listChanged": true}));
    })
    .await;
}

#[tokio::test]
async fn rmcp_client_hears_tools_added_and_removed_while_serving() {
    bounded(async {
        let server = McpServer::new(tools![add]);
        let handle = server.handle();
        let (client, mut rx) = rmcp_client(server).await;
        assert_eq!(names(&client).await, ["add"]);

        handle.add_tool(mul {}).await.unwrap();
        heard(&mut rx).await;
        assert_eq!(names(&client).await, ["add", "mul"]);
        let product = client
            .peer()
            .call_tool(call("mul", json!({"a": 6, "b": 7})))
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&product.content).unwrap()[0]["text"],
            "42"
        );

        assert!(handle.remove_tool("add").await);
        heard(&mut rx).await;
        assert_eq!(names(&client).await, ["mul"]);
        let gone = client
            .peer()
            .call_tool(call("add", json!({"a": 1, "b": 2})))
            .await
            .unwrap_err();
        match gone {
            ServiceError::McpError(e) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert!(e.message.contains("'mul'"), "{}", e.message);
            }
            other => panic!("expected a JSON-RPC error, got {other:?}"),
        }

        // Changes that change nothing are not announced, and a failed one changes nothing.
        assert!(!handle.remove_tool("add").await);
        assert_eq!(
            handle.add_tool(mul {}).await,
            Err(RegistryError::DuplicateName("mul".into()))
        );
        let before = handle.tools();
        handle.update_tools(|_| ()).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(
            rx.try_recv().is_err(),
            "a change that changed nothing was announced"
        );
        assert_eq!(
            handle.tools().names().collect::<Vec<_>>(),
            before.names().collect::<Vec<_>>()
        );
    })
    .await;
}

#[tokio::test]
async fn every_connected_client_is_told() {
    bounded(async {
        let server = McpServer::new(tools![add]);
        let handle = server.handle();
        let (first, mut first_rx) = rmcp_client(server.clone()).await;
        let (second, mut second_rx) = rmcp_client(server).await;
        // A round trip each: the server has seen both `notifications/initialized`.
        assert_eq!(names(&first).await, ["add"]);
        assert_eq!(names(&second).await, ["add"]);
        handle.add_tool(mul {}).await.unwrap();
        heard(&mut first_rx).await;
        heard(&mut second_rx).await;
        assert_eq!(names(&first).await, ["add", "mul"]);
        assert_eq!(names(&second).await, ["add", "mul"]);
    })
    .await;
}

#[tokio::test]
async fn a_running_call_finishes_on_the_set_it_started_with() {
    bounded(async {
        let server = McpServer::new(tools![wait, add]);
        let handle = server.handle();
        let (client, mut rx) = rmcp_client(server).await;
        let peer = client.peer().clone();
        let running = tokio::spawn(async move { peer.call_tool(call("wait", json!({}))).await });
        // Let the call start before its tool is removed.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(handle.remove_tool("wait").await);
        heard(&mut rx).await;
        GATE.notify_one();
        let result = running.await.unwrap().unwrap();
        assert_eq!(
            serde_json::to_value(&result.content).unwrap()[0]["text"],
            "done waiting"
        );
        assert_eq!(names(&client).await, ["add"]);
    })
    .await;
}

#[tokio::test]
async fn registry_settings_carry_over_a_change() {
    bounded(async {
        let registry = tools![add].with_required_scopes("add", ["math"]);
        let handle: ServerHandle = McpServer::new(registry).handle();
        handle.add_tool(mul {}).await.unwrap();
        let now = handle.tools();
        assert_eq!(now.required_scopes("add"), ["math"]);
        assert!(now.required_scopes("mul").is_empty());
    })
    .await;
}

#[tokio::test]
async fn our_client_relists_and_our_runner_calls_a_tool_added_later() {
    bounded(async {
        let server = McpServer::new(tools![add]);
        let handle = server.handle();
        let client = McpClient::connect(serve_in_memory(server)).await.unwrap();
        let mut changes = client.list_changes();
        assert_eq!(client.tools(None).len(), 1);

        handle.add_tool(mul {}).await.unwrap();
        tokio::time::timeout(Duration::from_secs(5), changes.changed())
            .await
            .expect("our client re-lists within 5 s")
            .unwrap();
        let listed: Vec<_> = client
            .tools(Some("calc_"))
            .into_iter()
            .map(|t| t.remote_name().to_owned())
            .collect();
        assert_eq!(listed, ["add", "mul"]);

        // The application rebuilds its registry on the change and runs with it.
        let mut registry = ToolRegistry::new();
        client.register_into(&mut registry, Some("calc_")).unwrap();
        let model = ScriptedModel::new([
            ModelTurn::with_calls(
                "Multiplying.",
                vec![ToolCall::new("c1", "calc_mul", r#"{"a":6,"b":7}"#)],
            ),
            ModelTurn::text("It is 42."),
        ]);
        let runner = Runner::new(model, registry);
        let result = runner.run("What is 6 times 7?").await.unwrap();
        assert_eq!(result.text(), Some("It is 42."));
        let Message::Tool { results } = &result.messages()[2] else {
            panic!("expected tool results, got {:?}", result.messages());
        };
        assert_eq!(results[0].response.model_text(), "42");

        // A removal reaches our client too.
        assert!(handle.remove_tool("add").await);
        tokio::time::timeout(Duration::from_secs(5), changes.changed())
            .await
            .expect("our client re-lists within 5 s")
            .unwrap();
        let listed: Vec<_> = client
            .tools(None)
            .into_iter()
            .map(|t| t.remote_name().to_owned())
            .collect();
        assert_eq!(listed, ["mul"]);
    })
    .await;
}

#[cfg(feature = "mcp-http")]
#[tokio::test]
async fn sessions_over_streamable_http_are_told_too() {
    bounded(async {
        let server = McpServer::new(tools![add]);
        let handle = server.handle();
        let serving = server.serve_http("127.0.0.1:0").await.unwrap();
        let first = McpClient::connect_http(&serving.url()).await.unwrap();
        let second = McpClient::connect_http(&serving.url()).await.unwrap();
        let (mut first_changes, mut second_changes) = (first.list_changes(), second.list_changes());
        handle.add_tool(mul {}).await.unwrap();
        for changes in [&mut first_changes, &mut second_changes] {
            tokio::time::timeout(Duration::from_secs(5), changes.changed())
                .await
                .expect("each session re-lists within 5 s")
                .unwrap();
        }
        assert_eq!(first.tools(None).len(), 2);
        assert_eq!(second.tools(None).len(), 2);
        let mut registry = ToolRegistry::new();
        second.register_into(&mut registry, None).unwrap();
        let reply = registry
            .call(&ToolCall::new("1", "mul", r#"{"a":3,"b":4}"#))
            .await;
        assert_eq!(reply.model_text(), "12");
    })
    .await;
}

#[tokio::test]
async fn a_handle_keeps_working_for_a_server_shared_as_an_arc() {
    // A registry the application also keeps (an `Arc`) is served and changed without copying
    // the application's own.
    let shared = Arc::new(tools![add]);
    let handle = McpServer::new(shared.clone()).handle();
    handle.add_tool(mul {}).await.unwrap();
    assert_eq!(shared.len(), 1);
    assert_eq!(handle.tools().len(), 2);
}
