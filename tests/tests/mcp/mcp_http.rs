//! MCP over streamable HTTP on loopback, both ways: rmcp's own client against our
//! `McpServer::serve_http`, our `McpClient::connect_http` against an rmcp `#[tool_router]`
//! server mounted in axum, and our client when the server goes away.

#![cfg(feature = "mcp-http")]

use std::sync::Arc;
use std::time::Duration;

use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::{McpClient, McpServer, DEFAULT_HTTP_PATH};
use tool_core::{ToolCall, ToolErrorCode, ToolRegistry};
use tool_tests::mcp::harness::{bounded, calls_answer_text_structured_content_and_errors};
use tool_tests::mcp::{ours, theirs::RmcpServer, CancelProbe};

/// rmcp's own streamable HTTP client, on a reqwest client with the ring provider.
async fn rmcp_client(url: String) -> RunningService<RoleClient, ()> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    ().serve(transport).await.unwrap()
}

#[tokio::test]
async fn rmcp_client_lists_and_calls_our_server_over_http() {
    bounded(async {
        let serving = McpServer::new(ours::registry(Default::default()))
            .with_server_info("ours-http", "1.2.3")
            .serve_http("127.0.0.1:0")
            .await
            .unwrap();
        assert!(serving.local_addr().ip().is_loopback());
        assert_eq!(
            serving.url(),
            format!("http://{}{DEFAULT_HTTP_PATH}", serving.local_addr())
        );
        let client = rmcp_client(serving.url()).await;
        let info = client.peer().peer_info().unwrap();
        assert_eq!(info.server_info.as_ref().unwrap().name, "ours-http");

        let tools = client.peer().list_all_tools().await.unwrap();
        let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
        assert_eq!(names, ["add", "forecast", "fail", "slow"]);
        assert_eq!(tools[0].input_schema["required"], json!(["a", "b"]));
        assert_eq!(
            tools[1].output_schema.as_ref().unwrap()["required"],
            json!(["city", "temp_c"])
        );

        calls_answer_text_structured_content_and_errors(&client).await;

        let _ = client.cancel().await;
        serving.shutdown().await;
    })
    .await
}

/// An rmcp `#[tool_router]` server mounted in axum at `/mcp` on a free loopback port.
async fn rmcp_server_over_http() -> (String, tokio::task::JoinHandle<()>) {
    let service = StreamableHttpService::new(
        || Ok(RmcpServer::new(Arc::new(CancelProbe::default()))),
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

#[tokio::test]
async fn our_client_uses_an_rmcp_server_over_http() {
    bounded(async {
        let (url, server) = rmcp_server_over_http().await;
        let client = McpClient::connect_http(&url).await.unwrap();
        assert_eq!(client.server_name(), "rmcp-fixture");

        let mut registry = ToolRegistry::new();
        assert_eq!(client.register_into(&mut registry, Some("r_")).unwrap(), 4);
        assert_eq!(
            registry.names().collect::<Vec<_>>(),
            ["r_add", "r_fail", "r_forecast", "r_slow"]
        );

        let sum = registry
            .call(&ToolCall::new("1", "r_add", r#"{"a":2,"b":40}"#))
            .await;
        assert_eq!(sum.model_text(), "42");

        let forecast = registry
            .call(&ToolCall::new("2", "r_forecast", r#"{"city":"Oslo"}"#))
            .await;
        assert!(!forecast.is_error(), "{forecast:?}");
        assert_eq!(
            serde_json::from_str::<Value>(forecast.data.as_ref().unwrap().get()).unwrap(),
            json!({"city": "Oslo", "temp_c": 21.5})
        );

        let failed = registry
            .call(&ToolCall::new("3", "r_fail", r#"{"reason":"disk full"}"#))
            .await;
        assert_eq!(failed.error_code(), Some(ToolErrorCode::ExecutionError));
        assert_eq!(failed.error_message(), Some("disk full"));

        client.close().await;
        server.abort();
    })
    .await
}

#[tokio::test]
async fn tool_core_on_both_ends_over_http_keeps_error_codes() {
    bounded(async {
        let serving = McpServer::new(ours::registry(Default::default()))
            .serve_http("127.0.0.1:0")
            .await
            .unwrap();
        let client = McpClient::connect_http(&serving.url()).await.unwrap();
        let registry = client
            .tools(None)
            .into_iter()
            .fold(ToolRegistry::new(), |r, t| r.with(t));
        let failed = registry
            .call(&ToolCall::new("1", "fail", r#"{"reason":"no such city"}"#))
            .await;
        assert_eq!(failed.error_code(), Some(ToolErrorCode::NotFound));
        assert_eq!(failed.error_message(), Some("no such city"));
        client.close().await;
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn a_server_that_went_away_is_unavailable_not_a_panic_or_a_hang() {
    bounded(async {
        let serving = McpServer::new(ours::registry(Default::default()))
            .serve_http("127.0.0.1:0")
            .await
            .unwrap();
        let client = McpClient::connect_http(&serving.url())
            .await
            .unwrap()
            .with_call_timeout(Duration::from_secs(5));
        let registry = client
            .tools(None)
            .into_iter()
            .fold(ToolRegistry::new(), |r, t| r.with(t));
        assert_eq!(
            registry
                .call(&ToolCall::new("1", "add", r#"{"a":1,"b":2}"#))
                .await
                .model_text(),
            "3"
        );

        serving.shutdown().await;
        for id in ["2", "3"] {
            let reply = registry
                .call(&ToolCall::new(id, "add", r#"{"a":1,"b":2}"#))
                .await;
            assert!(
                matches!(
                    reply.error_code(),
                    Some(ToolErrorCode::ServiceUnavailable | ToolErrorCode::NetworkError)
                ),
                "{reply:?}"
            );
        }
        client.close().await;
    })
    .await
}

#[tokio::test]
async fn connecting_to_nothing_is_a_handshake_error() {
    bounded(async {
        // Bind, note the port, and free it: nothing listens there now.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        drop(listener);
        match McpClient::connect_http(&url).await {
            Err(e) if e.kind() == tool_core::mcp::McpErrorKind::Handshake => {
                assert!(!e.message().is_empty())
            }
            other => panic!("expected a handshake error, got {other:?}"),
        }
    })
    .await
}
