//! Faults wiremock cannot produce, from a loopback TCP server that speaks just enough
//! HTTP/1.1 to start a chunked SSE response: the connection dropped mid-body (inside a call),
//! and a server that stalls mid-stream past the idle timeout.

use crate::http_support;

use std::time::{Duration, Instant};

use http_support::{converse, cut_before, fixture, registry, test_endpoint};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tool_core::model::{Anthropic, ModelErrorKind, ModelEvent};

/// Serves one connection: reads the request head and body, sends a chunked SSE response
/// holding `body`, then either drops the connection (no final chunk) or stalls for `stall`.
async fn serve_once(body: String, stall: Option<Duration>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        // Read until the whole request arrived (head plus Content-Length bytes).
        let mut request = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let Ok(n) = socket.read(&mut buffer).await else {
                return;
            };
            if n == 0 {
                return;
            }
            request.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&request);
            if let Some(head_end) = text.find("\r\n\r\n") {
                let length = text[..head_end]
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if request.len() >= head_end + 4 + length {
                    break;
                }
            }
        }
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        let chunk = format!("{:x}\r\n{body}\r\n", body.len());
        let _ = socket.write_all(head.as_bytes()).await;
        let _ = socket.write_all(chunk.as_bytes()).await;
        let _ = socket.flush().await;
        if let Some(stall) = stall {
            tokio::time::sleep(stall).await;
        }
        // Dropping the socket without the terminating zero-length chunk cuts the body.
    });
    format!("http://{address}/v1")
}

fn model(base: String) -> Anthropic {
    Anthropic::new("claude-sonnet-4-20250514").with_endpoint(|e| test_endpoint(e, base))
}

#[tokio::test]
async fn a_connection_dropped_inside_a_call_is_incomplete_and_runs_nothing() {
    let body = cut_before(&fixture("anthropic_turn1.sse"), "\"partial_json\":\"okyo");
    let base = serve_once(body, None).await;
    let (registry, weather) = registry();
    let conversation = converse(&model(base), &registry).await;

    let error = conversation.outcome.unwrap_err();
    assert_eq!(error.kind(), ModelErrorKind::Incomplete, "{error}");
    assert!(error.message().contains("the stream broke off"), "{error}");
    let events = &conversation.turns[0];
    assert_eq!(
        http_support::text_of(events),
        "I'll check the weather in Paris and Tokyo for you."
    );
    // The first call's block closed before the cut, so it was reported ready; the second
    // never was, and the turn as a whole was never finished, so nothing ran.
    assert!(events
        .iter()
        .any(|e| matches!(e, ModelEvent::CallReady { index: 0, .. })));
    assert!(!events
        .iter()
        .any(|e| matches!(e, ModelEvent::CallReady { index: 1, .. })));
    assert_eq!(weather.runs(), 0);
}

#[tokio::test]
async fn a_server_stalling_mid_stream_times_out_without_retry() {
    let body = cut_before(&fixture("anthropic_turn1.sse"), "\"type\":\"tool_use\"");
    let base = serve_once(body, Some(Duration::from_secs(3))).await;
    let (registry, weather) = registry();
    let started = Instant::now();
    let conversation = converse(&model(base), &registry).await;

    let error = conversation.outcome.unwrap_err();
    assert_eq!(error.kind(), ModelErrorKind::Timeout, "{error}");
    assert!(
        error.message().contains("no streamed event within"),
        "{error}"
    );
    assert_eq!(
        http_support::text_of(&conversation.turns[0]),
        "I'll check the weather in Paris and Tokyo for you."
    );
    // The idle limit is 400 ms: the error comes long before the server's 3 s stall ends.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(weather.runs(), 0);
}
