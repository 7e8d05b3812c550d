//! The streamable HTTP server as a deployment sees it, on loopback with a real HTTP client:
//! `Origin` and `Host` checks, the concurrency limit and per-call timeout, the health
//! endpoint, graceful shutdown, and the latency of one call (Nagle off).

#![cfg(feature = "mcp-http")]

use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::{HttpConfig, HttpServing, McpServer, SERVER_BUSY};
use tool_tests::mcp::harness::bounded;
use tool_tests::mcp::ours;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl-like","version":"1"}}}"#;

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a reqwest client")
}

/// POSTs an `initialize` with the extra headers and returns the status.
async fn initialize_status(url: &str, headers: &[(&str, &str)]) -> u16 {
    let mut request = http()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(INITIALIZE);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request
        .send()
        .await
        .expect("the server answers")
        .status()
        .as_u16()
}

async fn rmcp_client(url: String) -> RunningService<RoleClient, ()> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::with_client(
        http(),
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    ().serve(transport).await.expect("the handshake succeeds")
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

/// The demo tools served over HTTP on a free loopback port with `config`.
async fn serve_demo(config: HttpConfig) -> HttpServing {
    McpServer::new(ours::registry(Default::default()))
        .serve_http_with("127.0.0.1:0", config)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_foreign_browser_origin_is_refused_and_loopback_origins_pass() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new()).await;
        let url = serving.url();
        // A page on another site, reaching the server through the user's browser (DNS
        // rebinding): refused before any session exists.
        assert_eq!(
            initialize_status(&url, &[("origin", "http://evil.example")]).await,
            403
        );
        assert_eq!(
            initialize_status(&url, &[("origin", "https://127.0.0.1.evil.example")]).await,
            403
        );
        // A page served from this machine, and a client that is not a browser (no Origin).
        assert_eq!(
            initialize_status(&url, &[("origin", "http://localhost:6274")]).await,
            200
        );
        assert_eq!(initialize_status(&url, &[]).await, 200);
        serving.shutdown().await;

        // Configured origins replace the loopback ones.
        let serving =
            serve_demo(HttpConfig::new().allowed_origins(["https://app.example.com"])).await;
        let url = serving.url();
        assert_eq!(
            initialize_status(&url, &[("origin", "https://app.example.com")]).await,
            200
        );
        assert_eq!(
            initialize_status(&url, &[("origin", "http://localhost:6274")]).await,
            403
        );
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn a_foreign_host_is_refused_unless_allowed() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new()).await;
        let url = serving.url();
        assert_eq!(
            initialize_status(&url, &[("host", "mcp.example.com")]).await,
            403
        );
        assert_eq!(initialize_status(&url, &[]).await, 200);
        serving.shutdown().await;

        let serving =
            serve_demo(HttpConfig::new().allowed_hosts(["mcp.example.com", "127.0.0.1"])).await;
        let url = serving.url();
        assert_eq!(
            initialize_status(&url, &[("host", "mcp.example.com")]).await,
            200
        );
        assert_eq!(
            initialize_status(&url, &[("host", "other.example.com")]).await,
            403
        );
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn over_the_concurrency_limit_a_call_is_told_the_server_is_busy() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new().max_concurrent_calls(1)).await;
        let first = rmcp_client(serving.url()).await;
        let second = rmcp_client(serving.url()).await;
        let running = tokio::spawn({
            let peer = first.peer().clone();
            async move { peer.call_tool(call("slow", json!({ "steps": 15 }))).await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let refused = second
            .peer()
            .call_tool(call("add", json!({ "a": 1, "b": 2 })))
            .await
            .expect_err("the second call is refused while the first runs");
        let text = refused.to_string();
        assert!(text.contains("server busy"), "{text}");
        assert!(text.contains(&SERVER_BUSY.to_string()), "{text}");
        let done = running.await.unwrap().expect("the first call finishes");
        assert_eq!(text_of(&done), "15 steps done");
        // The slot is free again.
        let sum = second
            .peer()
            .call_tool(call("add", json!({ "a": 1, "b": 2 })))
            .await
            .unwrap();
        assert_eq!(text_of(&sum), "3");
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn a_call_over_the_time_limit_gets_a_timeout_result() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new().call_timeout(Duration::from_millis(100))).await;
        let client = rmcp_client(serving.url()).await;
        let started = Instant::now();
        let result = client
            .peer()
            .call_tool(call("slow", json!({ "steps": 100 })))
            .await
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(result.is_error, Some(true));
        let text = text_of(&result);
        assert!(
            text.contains("within the server's limit of 100 ms"),
            "{text}"
        );
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn health_answers_and_turns_to_draining_on_shutdown() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new().shutdown_grace(Duration::from_secs(5))).await;
        let health = format!("http://{}/health", serving.local_addr());
        let reply = http().get(&health).send().await.unwrap();
        assert_eq!(reply.status().as_u16(), 200);
        assert_eq!(reply.text().await.unwrap(), r#"{"status":"ok"}"#);

        // A call in flight when the shutdown starts still gets its reply.
        let client = rmcp_client(serving.url()).await;
        let running = tokio::spawn({
            let peer = client.peer().clone();
            async move { peer.call_tool(call("slow", json!({ "steps": 10 }))).await }
        });
        tokio::time::sleep(Duration::from_millis(60)).await;
        let signal = serving.shutdown_signal();
        signal.shutdown();
        let done = running.await.unwrap().expect("the call in flight replies");
        assert_eq!(text_of(&done), "10 steps done");
        serving.join().await.expect("a clean shutdown");
        // Nothing listens any more.
        assert!(http().get(&health).send().await.is_err());
    })
    .await
}

#[tokio::test]
async fn shutdown_reports_calls_cut_off_by_the_grace_period() {
    bounded(async {
        let serving =
            serve_demo(HttpConfig::new().shutdown_grace(Duration::from_millis(100))).await;
        let client = rmcp_client(serving.url()).await;
        let _running = tokio::spawn({
            let peer = client.peer().clone();
            async move { peer.call_tool(call("slow", json!({ "steps": 500 }))).await }
        });
        tokio::time::sleep(Duration::from_millis(60)).await;
        serving.shutdown_signal().shutdown();
        let error = serving.join().await.expect_err("one call was cut off");
        assert!(error.to_string().contains("still running"), "{error}");
    })
    .await
}

#[tokio::test]
async fn one_call_on_an_idle_server_takes_well_under_nagles_delay() {
    bounded(async {
        let serving = serve_demo(HttpConfig::new()).await;
        let client = rmcp_client(serving.url()).await;
        let mut took = Vec::new();
        for i in 0..30 {
            let started = Instant::now();
            let sum = client
                .peer()
                .call_tool(call("add", json!({ "a": i, "b": 1 })))
                .await
                .unwrap();
            took.push(started.elapsed());
            assert_eq!(text_of(&sum), (i + 1).to_string());
        }
        took.sort();
        let median = took[took.len() / 2];
        // With Nagle's algorithm on, every call waited ~40 ms for the delayed ACK.
        assert!(median < Duration::from_millis(20), "median {median:?}");
        serving.shutdown().await;
    })
    .await
}
