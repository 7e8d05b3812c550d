//! A loopback OpenAI-Chat-compatible model: scripted by the run's prompt and how many turns
//! its history holds, it records every request (its body, when it came, when its answer was
//! fully sent) so the tests can check the history each request carries and that no answered
//! turn is asked again.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// 200, or an error status (the body is then an OpenAI error object).
    pub status: u16,
    pub text: String,
    /// (id, name, arguments as written)
    pub calls: Vec<(String, String, String)>,
    /// How long the model "thinks" before it answers.
    pub delay: Duration,
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            text: text.into(),
            calls: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    pub fn calls(calls: &[(&str, &str, &str)]) -> Reply {
        Reply {
            status: 200,
            text: String::new(),
            calls: calls
                .iter()
                .map(|(id, name, args)| (id.to_string(), name.to_string(), args.to_string()))
                .collect(),
            delay: Duration::ZERO,
        }
    }

    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            ..Reply::text("")
        }
    }

    pub fn slow(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// What the script sees of a request.
pub struct Seen<'a> {
    /// The first user message.
    pub prompt: &'a str,
    /// Assistant turns in the history: the number of the turn asked for, from 0.
    pub turn: usize,
    /// The tool results in the history, in order (content text).
    pub results: Vec<&'a str>,
}

/// One request as it came.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub prompt: String,
    pub messages: Vec<Value>,
    pub body: Value,
    pub reply: Reply,
    pub started: Instant,
    /// When the answer had been written out whole (`None`: never, e.g. the client went away).
    pub finished: Option<Instant>,
}

type Script = dyn Fn(&Seen<'_>) -> Reply + Send + Sync;

/// The server; dropping it stops it.
pub struct FakeModel {
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    log: Arc<Mutex<Vec<Recorded>>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl FakeModel {
    pub fn start(script: impl Fn(&Seen<'_>) -> Reply + Send + Sync + 'static) -> FakeModel {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime for the fake model");
        let listener = runtime
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .expect("bind the fake model");
        let port = listener.local_addr().expect("address").port();
        let log: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let accept_log = Arc::clone(&log);
        runtime.spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, Arc::clone(&script), Arc::clone(&accept_log)));
            }
        });
        FakeModel {
            base_url: format!("http://127.0.0.1:{port}/v1"),
            log,
            runtime: Some(runtime),
        }
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.log.lock().expect("log").clone()
    }

    /// The requests of the run whose prompt contains `tag`.
    pub fn requests_of(&self, tag: &str) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.prompt.contains(tag))
            .collect()
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Serves the requests of one connection (kept alive by the client).
async fn serve(mut stream: TcpStream, script: Arc<Script>, log: Arc<Mutex<Vec<Recorded>>>) {
    let mut buffer = Vec::new();
    loop {
        let Some((head_end, length)) = read_head(&mut stream, &mut buffer).await else {
            return;
        };
        while buffer.len() < head_end + length {
            let mut chunk = [0u8; 8192];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Value =
            serde_json::from_slice(&buffer[head_end..head_end + length]).unwrap_or(Value::Null);
        buffer.drain(..head_end + length);
        let started = Instant::now();
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let prompt = messages
            .iter()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string();
        let turn = messages.iter().filter(|m| m["role"] == "assistant").count();
        let results: Vec<&str> = messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["content"].as_str().unwrap_or(""))
            .collect();
        let reply = script(&Seen {
            prompt: &prompt,
            turn,
            results,
        });
        let at = {
            let mut log = log.lock().expect("log");
            log.push(Recorded {
                prompt: prompt.clone(),
                messages: messages.clone(),
                body: body.clone(),
                reply: reply.clone(),
                started,
                finished: None,
            });
            log.len() - 1
        };
        tokio::time::sleep(reply.delay).await;
        let streamed = body["stream"] == true;
        let response = render(&reply, streamed);
        if stream.write_all(&response).await.is_err() || stream.flush().await.is_err() {
            return;
        }
        if let Some(entry) = log.lock().expect("log").get_mut(at) {
            entry.finished = Some(Instant::now());
        }
    }
}

/// Reads up to the end of the headers: where the body starts and how long it is.
async fn read_head(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<(usize, usize)> {
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            return Some((end + 4, length));
        }
        let mut chunk = [0u8; 8192];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

/// The HTTP response for `reply`: an error object, a `chat.completion`, or its chunks as SSE
/// (as OpenAI's API sends them).
fn render(reply: &Reply, streamed: bool) -> Vec<u8> {
    if reply.status != 200 {
        let body = json!({"error": {"message": "Invalid request: the scripted model refuses this one", "type": "invalid_request_error", "param": null, "code": null}}).to_string();
        return format!(
            "HTTP/1.1 {} Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            reply.status,
            body.len()
        )
        .into_bytes();
    }
    let finish = if reply.calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    let usage = json!({"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25});
    let (content_type, body) = if streamed {
        let mut events = Vec::new();
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_700_000_000, "model": "test-model",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        events.push(chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        ));
        if !reply.text.is_empty() {
            events.push(chunk(json!({"content": reply.text}), Value::Null));
        }
        for (index, (id, name, arguments)) in reply.calls.iter().enumerate() {
            events.push(chunk(
                json!({"tool_calls": [{"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}),
                Value::Null,
            ));
            events.push(chunk(
                json!({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}),
                Value::Null,
            ));
        }
        events.push(chunk(json!({}), json!(finish)));
        events.push(json!({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_700_000_000, "model": "test-model", "choices": [], "usage": usage}));
        let mut text = String::new();
        for event in events {
            text.push_str(&format!("data: {event}\n\n"));
        }
        text.push_str("data: [DONE]\n\n");
        ("text/event-stream", text)
    } else {
        let calls: Vec<Value> = reply
            .calls
            .iter()
            .map(|(id, name, arguments)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}))
            .collect();
        let mut message = json!({"role": "assistant", "content": if reply.text.is_empty() { Value::Null } else { json!(reply.text) }});
        if !calls.is_empty() {
            message["tool_calls"] = json!(calls);
        }
        let body = json!({"id": "chatcmpl-fake", "object": "chat.completion", "created": 1_700_000_000, "model": "test-model",
                          "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage});
        ("application/json", body.to_string())
    };
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}
