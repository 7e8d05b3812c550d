//! A loopback HTTP server that streams each response in two parts: the first at once, the
//! rest only once a tool has run (or a time limit passed). wiremock sends a body at once, so
//! "the tool ran while the model was still streaming" needs this server to be observed
//! rather than inferred from timing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tool_core::{CallFuture, Tool, ToolContext, ToolResponse};

/// `get_weather(city)` whose run is visible from outside: it records the city and wakes the
/// server holding the rest of the stream (`ran`). Paris and Tokyo have their own weather.
#[derive(Clone, Default)]
pub struct SignallingWeather {
    pub cities: Arc<Mutex<Vec<String>>>,
    pub ran: Arc<Notify>,
}

impl SignallingWeather {
    /// The cities of the calls that ran, in order.
    pub fn cities(&self) -> Vec<String> {
        self.cities.lock().unwrap().clone()
    }
}

impl Tool for SignallingWeather {
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
        let city = serde_json::from_str::<Value>(arguments)
            .ok()
            .and_then(|v| v["city"].as_str().map(str::to_owned))
            .unwrap_or_default();
        let reply = match city.as_str() {
            "Paris" => "15 C, light rain",
            "Tokyo" => "22 C, sunny",
            _ => "15 C",
        };
        self.cities.lock().unwrap().push(city);
        self.ran.notify_one();
        CallFuture::ready(ToolResponse::success(reply))
    }
}

/// One response: `first` at once, then `rest` once the tool ran (or the hold ended).
pub struct Held {
    pub first: String,
    pub rest: String,
}

/// What the server saw.
#[derive(Default)]
pub struct HeldSeen {
    /// The request bodies, in order.
    pub bodies: Mutex<Vec<Value>>,
    /// Whether the tool's run released the held part of the first response.
    pub released_by_tool: AtomicBool,
}

impl HeldSeen {
    pub fn released_by_tool(&self) -> bool {
        self.released_by_tool.load(Ordering::SeqCst)
    }

    pub fn bodies(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }
}

/// Serves `responses` as chunked SSE, one connection each (`connection: close`), holding
/// each response's `rest` until `ran` is notified or `hold` has passed; returns the base URL.
pub async fn stalling_server(
    responses: Vec<Held>,
    ran: Arc<Notify>,
    seen: Arc<HeldSeen>,
    hold: Duration,
) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        for (i, held) in responses.into_iter().enumerate() {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let Some(body) = read_request(&mut socket).await else {
                return;
            };
            seen.bodies.lock().unwrap().push(body);
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\
                        transfer-encoding: chunked\r\nconnection: close\r\n\r\n";
            // Write errors are the client having given up: the tests' assertions say why.
            let _ = socket.write_all(head.as_bytes()).await;
            if !held.first.is_empty() {
                let _ = socket.write_all(chunk(&held.first).as_bytes()).await;
            }
            let _ = socket.flush().await;
            if !held.rest.is_empty() {
                let released = tokio::time::timeout(hold, ran.notified()).await.is_ok();
                if i == 0 {
                    seen.released_by_tool.store(released, Ordering::SeqCst);
                }
                let _ = socket.write_all(chunk(&held.rest).as_bytes()).await;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
            let _ = socket.shutdown().await;
        }
    });
    format!("http://{address}")
}

fn chunk(text: &str) -> String {
    format!("{:x}\r\n{text}\r\n", text.len())
}

/// Reads one request (head and `content-length` bytes of body); its body as JSON.
async fn read_request(socket: &mut TcpStream) -> Option<Value> {
    let mut request = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = socket.read(&mut buffer).await.ok()?;
        if n == 0 {
            return None;
        }
        request.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&request).into_owned();
        let Some(head_end) = text.find("\r\n\r\n") else {
            continue;
        };
        let length = text[..head_end]
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
            })
            .unwrap_or(0);
        if request.len() >= head_end + 4 + length {
            return serde_json::from_slice(&request[head_end + 4..]).ok();
        }
    }
}
