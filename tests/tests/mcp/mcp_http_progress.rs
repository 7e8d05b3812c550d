//! Progress and cancellation over streamable HTTP on loopback, both ways: rmcp's own client
//! against our `McpServer::serve_http` (a progress token yields `notifications/progress` on
//! the call's stream; `notifications/cancelled`, a POST of its own, raises the tool's
//! `CancelFlag`), and our `McpClient::connect_http` against an rmcp `#[tool_router]` server
//! (the server's progress reaches the caller's `ProgressReporter`; the caller's `CancelFlag`
//! cancels the remote call).

#![cfg(feature = "mcp-http")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{ClientRequest, Request};
use rmcp::service::{PeerRequestOptions, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use tool_core::mcp::{HttpServing, McpClient, McpServer};
use tool_core::{CallContext, CancelFlag, ProgressReporter, ToolCall, ToolErrorCode, ToolRegistry};
use tool_tests::mcp::harness::{
    bounded, call, progress_reaches_the_client_in_order, text, until_len, working_steps, Recorder,
};
use tool_tests::mcp::{ours, theirs::RmcpServer, CancelProbe};

/// Our server on a free loopback port, its `slow` tool reporting to `probe`.
async fn our_server(probe: Arc<CancelProbe>) -> HttpServing {
    McpServer::new(ours::registry(probe))
        .serve_http("127.0.0.1:0")
        .await
        .unwrap()
}

/// rmcp's own streamable HTTP client.
async fn rmcp_client(url: String) -> RunningService<RoleClient, Recorder> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    Recorder::default().serve(transport).await.unwrap()
}

#[tokio::test]
async fn rmcp_client_gets_our_progress_over_http() {
    bounded(async {
        let serving = our_server(Default::default()).await;
        let client = rmcp_client(serving.url()).await;
        // rmcp's client sends a progress token with every request.
        progress_reaches_the_client_in_order(&client).await;
        let _ = client.cancel().await;
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn rmcp_clients_cancellation_reaches_our_tool_over_http() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let serving = our_server(probe.clone()).await;
        let client = rmcp_client(serving.url()).await;
        let seen = probe.seen.notified();
        // 500 steps of 20 ms: ten seconds unless the cancellation stops it.
        let request =
            ClientRequest::CallToolRequest(Request::new(call("slow", json!({"steps": 500}))));
        let handle = client
            .peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!probe.was_cancelled());
        handle
            .cancel(Some("the user changed their mind".into()))
            .await
            .unwrap();
        // The tool saw its CancelFlag raised and stopped (it records that before returning).
        tokio::time::timeout(Duration::from_secs(5), seen)
            .await
            .expect("the tool never saw the cancellation");
        assert!(probe.was_cancelled());
        // The session goes on serving.
        let sum = client
            .peer()
            .call_tool(call("add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "3");
        let _ = client.cancel().await;
        serving.shutdown().await;
    })
    .await
}

/// An rmcp `#[tool_router]` server at `/mcp` on a free loopback port; its `slow` tool
/// records cancellations in `probe`.
async fn rmcp_server(probe: Arc<CancelProbe>) -> (String, tokio::task::JoinHandle<()>) {
    let service = StreamableHttpService::new(
        move || Ok(RmcpServer::new(probe.clone())),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().route_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, task)
}

async fn remote_registry(client: &McpClient) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    client.register_into(&mut registry, Some("r_")).unwrap();
    registry
}

#[tokio::test]
async fn rmcp_servers_progress_reaches_our_callers_reporter_over_http() {
    bounded(async {
        let (url, server) = rmcp_server(Default::default()).await;
        let client = McpClient::connect_http(&url).await.unwrap();
        let registry = remote_registry(&client).await;
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
        client.close().await;
        server.abort();
    })
    .await
}

#[tokio::test]
async fn our_callers_cancel_flag_cancels_the_rmcp_tool_over_http() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let (url, server) = rmcp_server(probe.clone()).await;
        let client = McpClient::connect_http(&url).await.unwrap();
        let registry = remote_registry(&client).await;
        let flag = CancelFlag::new();
        let ctx = CallContext::new().with_cancel(flag.clone());
        let raise = async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            flag.cancel();
        };
        let call = ToolCall::new("1", "r_slow", r#"{"steps":500}"#);
        let seen = probe.seen.notified();
        let (reply, ()) = tokio::join!(registry.call_in(&call, &ctx), raise);
        // Documented: a cancelled remote call is an EXECUTION_ERROR saying so, at once.
        assert_eq!(reply.error_code(), Some(ToolErrorCode::ExecutionError));
        assert!(
            reply.error_message().unwrap().contains("cancelled"),
            "{reply:?}"
        );
        // The rmcp tool saw its cancellation token raised by our notifications/cancelled.
        tokio::time::timeout(Duration::from_secs(5), seen)
            .await
            .expect("the rmcp tool never saw the cancellation");
        let sum = registry
            .call(&ToolCall::new("2", "r_add", r#"{"a":1,"b":1}"#))
            .await;
        assert_eq!(sum.model_text(), "2");
        client.close().await;
        server.abort();
    })
    .await
}
