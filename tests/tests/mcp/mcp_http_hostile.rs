//! Garbage POSTed to our streamable HTTP server on loopback: a body that is not JSON, JSON
//! that is not JSON-RPC, an oversized body. Each gets an HTTP 4xx with a JSON-RPC error body,
//! and rmcp's own client then still lists and calls tools.

#![cfg(feature = "mcp-http")]

use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use tool_core::mcp::{HttpServing, McpServer};
use tool_tests::mcp::harness::bounded;
use tool_tests::mcp::ours;

/// Our server with a 64 KiB message limit.
async fn serve() -> HttpServing {
    McpServer::new(ours::registry(Default::default()))
        .with_max_message_bytes(64 * 1024)
        .serve_http("127.0.0.1:0")
        .await
        .unwrap()
}

/// POSTs `body` as an MCP client would (the headers rmcp asks for) and returns the status
/// and the body read as JSON.
async fn post(url: &str, body: impl Into<reqwest::Body>) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "status {status}"
    );
    let body = response.bytes().await.unwrap();
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&body)));
    (status, value)
}

fn assert_error(reply: &Value, id: Value, code: i64, starts: &str) {
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    assert_eq!(reply.get("id"), Some(&id), "{reply}");
    assert_eq!(reply["error"]["code"], code, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.starts_with(starts), "{message}");
}

/// rmcp's own client still lists and calls: the server kept serving.
async fn still_serving(url: String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    let client = ().serve(transport).await.unwrap();
    assert_eq!(client.peer().list_all_tools().await.unwrap().len(), 4);
    let mut params = CallToolRequestParams::new("add");
    params.arguments = Some(JsonObject::from_iter([
        ("a".to_owned(), json!(20)),
        ("b".to_owned(), json!(22)),
    ]));
    let sum = client.peer().call_tool(params).await.unwrap();
    assert_eq!(sum.content[0].as_text().unwrap().text, "42");
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_400_with_parse_error() {
    bounded(async {
        let serving = serve().await;
        let (status, reply) = post(&serving.url(), "}{ not json").await;
        assert_eq!(status, 400);
        assert_error(
            &reply,
            Value::Null,
            -32700,
            "Parse error: the message is not JSON",
        );
        let (status, reply) = post(&serving.url(), vec![0xff, 0xfe, 0x00, 0x80]).await;
        assert_eq!(status, 400);
        assert_error(&reply, Value::Null, -32700, "Parse error");
        let (status, reply) = post(&serving.url(), r#"{"jsonrpc":"2.0","id":1,"#).await;
        assert_eq!(status, 400);
        assert_error(&reply, Value::Null, -32700, "Parse error");
        still_serving(serving.url()).await;
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn json_that_is_not_json_rpc_is_400_with_invalid_request() {
    bounded(async {
        let serving = serve().await;
        let (status, reply) = post(&serving.url(), r#"{"hello":"world"}"#).await;
        assert_eq!(status, 400);
        assert_error(
            &reply,
            Value::Null,
            -32600,
            "Invalid Request: the message is JSON",
        );
        let (status, reply) = post(&serving.url(), r#"{"id":"x1","method":7}"#).await;
        assert_eq!(status, 400);
        assert_error(&reply, json!("x1"), -32600, "Invalid Request");
        still_serving(serving.url()).await;
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn an_oversized_body_is_413_with_invalid_request() {
    bounded(async {
        let serving = serve().await;
        let huge = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 1, "b": 2, "pad": "x".repeat(10 << 20)},
        }});
        let (status, reply) = post(&serving.url(), huge.to_string()).await;
        assert_eq!(status, 413);
        assert_error(
            &reply,
            Value::Null,
            -32600,
            "Invalid Request: the message is longer",
        );
        assert_eq!(reply["error"]["data"]["maxMessageBytes"], 64 * 1024);
        still_serving(serving.url()).await;
        serving.shutdown().await;
    })
    .await
}

/// POSTs `body` with `accept` as the Accept header and `host` as the Host header; the status
/// and the body read as JSON.
async fn post_with(url: &str, accept: &str, host: &str, body: &'static str) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .post(url)
        .header("accept", accept)
        .header("host", host)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.bytes().await.unwrap();
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&body)));
    (status, value)
}

/// Messages that name their method and tool where JSON-RPC puts them but are not valid MCP
/// requests get the same JSON-RPC error as any other invalid message, with their id, whatever
/// the request's other headers (the body is judged first, as before rmcp sees it).
#[tokio::test]
async fn a_message_that_only_looks_like_a_call_is_400_with_invalid_request() {
    bounded(async {
        let serving = serve().await;
        let call = r#"{"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"add"}}"#;
        let (status, reply) = post(&serving.url(), call).await;
        assert_eq!(status, 400);
        assert_error(
            &reply,
            json!(3),
            -32600,
            "Invalid Request: the message is JSON",
        );
        let list = r#"{"jsonrpc":"2.0","id":"l4","method":"tools/list","params":{"_meta":5}}"#;
        let (status, reply) = post(&serving.url(), list).await;
        assert_eq!(status, 400);
        assert_error(&reply, json!("l4"), -32600, "Invalid Request");
        // rmcp would refuse these headers (406, 403) before reading the body: the body's
        // error still comes first.
        let host = serving.url()["http://".len()..]
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let (status, reply) = post_with(&serving.url(), "text/plain", &host, call).await;
        assert_eq!(status, 400);
        assert_error(&reply, json!(3), -32600, "Invalid Request");
        let accept = "application/json, text/event-stream";
        let (status, reply) = post_with(&serving.url(), accept, "evil.example", list).await;
        assert_eq!(status, 400);
        assert_error(&reply, json!("l4"), -32600, "Invalid Request");
        still_serving(serving.url()).await;
        serving.shutdown().await;
    })
    .await
}
