//! A call starts mid-stream: the server streams a turn of two calls up to the end of the
//! first, then holds the rest of the stream until the first call's tool has run (at most a
//! second). The tool runs while the model is still streaming (after `RunEvent::CallReady`),
//! each call runs once, and the results go back in the model's order.
//!
//! wiremock sends a body at once, so this row's server is a plain HTTP/1.1 listener that
//! writes the stream in two parts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Notify};
use tool_core::runner::{RunEvent, RunOptions, Runner};
use tool_core::{CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse};

use super::apis::{text_mode_reply, TEXT_PIECE};
use super::harness::*;
use super::sse::render_sse;
use super::{Api, Seen, Turn, Verdict};

/// `get_weather`, which says when it has run.
#[derive(Clone, Default)]
struct Signalling {
    ran: Arc<Notify>,
    runs: Arc<AtomicUsize>,
}

impl Tool for Signalling {
    fn name(&self) -> &str {
        "get_weather"
    }
    fn description(&self) -> &str {
        "Current weather for a city."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        self.ran.notify_one();
        let reply = if arguments.contains("Paris") {
            "15 C, light rain"
        } else {
            "22 C, sunny"
        };
        CallFuture::ready(ToolResponse::success(reply))
    }
}

/// The number of events of turn one's stream that complete its first call.
fn first_call_end(api: Api, turn: &Turn, events: &[String]) -> usize {
    if api.is_text_mode() {
        let reply = text_mode_reply(api, turn);
        let close = if api == Api::TextUseTool {
            "</use_tool>"
        } else {
            "</tool_call>"
        };
        let end = reply.find(close).expect("a call") + close.len();
        // The role chunk, then one chunk per piece of the reply.
        return 1 + (end - 1) / TEXT_PIECE + 1;
    }
    let marker = if api == Api::Gemini {
        "Tokyo"
    } else {
        "\"w2\""
    };
    events
        .iter()
        .position(|e| e.contains(marker))
        .expect("the second call is in the stream")
}

/// Reads one request; returns its body.
async fn read_request(socket: &mut TcpStream) -> Value {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = socket.read(&mut buf).await.expect("the request arrives");
        assert!(n > 0, "the connection closed inside the request");
        data.extend_from_slice(&buf[..n]);
        let Some(head_end) = data.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&data[..head_end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        if data.len() >= head_end + 4 + length {
            let body = &data[head_end + 4..head_end + 4 + length];
            return serde_json::from_slice(body).expect("the request body is JSON");
        }
    }
}

/// Serves `turns` as SSE, one connection each; turn one's stream pauses after its first call
/// until the tool has run or a second has passed, and `early` says which.
async fn serve(
    listener: TcpListener,
    api: Api,
    turns: Vec<Turn>,
    ran: Arc<Notify>,
    bodies: Arc<Mutex<Vec<Value>>>,
    early: oneshot::Sender<bool>,
) {
    let mut early = Some(early);
    for (i, turn) in turns.iter().enumerate() {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        let body = read_request(&mut socket).await;
        bodies.lock().unwrap().push(body);
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
        let events = render_sse(api, turn);
        let cut = if i == 0 {
            first_call_end(api, turn, &events)
        } else {
            0
        };
        // Write errors are the client having given up: the test's assertions say why.
        let _ = socket.write_all(head.as_bytes()).await;
        let _ = socket.write_all(events[..cut].concat().as_bytes()).await;
        let _ = socket.flush().await;
        if i == 0 {
            let ran_early = tokio::time::timeout(Duration::from_secs(1), ran.notified())
                .await
                .is_ok();
            if let Some(early) = early.take() {
                let _ = early.send(ran_early);
            }
        }
        let _ = socket.write_all(events[cut..].concat().as_bytes()).await;
        let _ = socket.shutdown().await;
    }
}

pub async fn scenario(api: Api) -> Seen {
    let turns = vec![
        Turn::call("w1", "get_weather", json!({"city": "Paris"}))
            .and_call("w2", "get_weather", json!({"city": "Tokyo"}))
            .with_text("Checking both."),
        Turn::text(FINAL),
    ];
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let root = format!("http://{}", listener.local_addr().unwrap());
    let tool = Signalling::default();
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let (early_tx, early_rx) = oneshot::channel();
    let server = tokio::spawn(serve(
        listener,
        api,
        turns,
        Arc::clone(&tool.ran),
        Arc::clone(&bodies),
        early_tx,
    ));

    let runner = Runner::new(
        api.model(&root, true),
        ToolRegistry::new().with(tool.clone()),
    )
    .with_options(RunOptions::new());
    let (events, run) = streamed(&runner, QUESTION).await;
    let early = tokio::time::timeout(Duration::from_secs(3), early_rx).await;
    server.abort();
    assert_eq!(
        early.ok().and_then(Result::ok),
        Some(true),
        "{api:?}: the first call's tool did not run before the model's stream ended: {events:?}"
    );
    assert!(
        matches!(last(&events), RunEvent::RunFinished { .. }),
        "{api:?}: {:?}",
        last(&events)
    );
    assert_eq!(
        tool.runs.load(Ordering::SeqCst),
        2,
        "{api:?}: each call runs once"
    );
    let first = turn_events(&events, 1);
    let ready = first
        .iter()
        .position(|e| matches!(e, RunEvent::CallReady { index: 0, .. }));
    let finished = first.len() - 1;
    assert!(ready.is_some_and(|r| r < finished), "{api:?}: {first:?}");
    let results: Vec<String> = results(run.messages())
        .into_iter()
        .map(|(_, _, r)| r.model_text().to_string())
        .collect();
    assert_eq!(results, ["15 C, light rain", "22 C, sunny"], "{api:?}");

    let mut seen = Seen::new();
    let route = api.route(true);
    let bodies = std::mem::take(&mut *bodies.lock().unwrap());
    assert_eq!(bodies.len(), 2, "{api:?}");
    seen.sent.extend(bodies.into_iter().map(|b| (route, b)));
    seen.saw(Verdict::Yes)
}
