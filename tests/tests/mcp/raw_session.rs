//! A JSON-RPC session in raw messages, over stdio (`serve_stream`) or streamable HTTP: for
//! what neither rmcp's client nor the Python SDK's sends (the 2025-11-25 revision's tasks).

#![cfg(feature = "mcp-http")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex as AsyncMutex};
use tool_core::mcp::McpServer;

/// A JSON-RPC session in raw messages: every response by id, every notification kept.
pub(crate) enum Session {
    Stdio {
        writer: AsyncMutex<tokio::io::DuplexStream>,
        replies: AsyncMutex<mpsc::UnboundedReceiver<Value>>,
        notes: Arc<Mutex<Vec<Value>>>,
        next: std::sync::atomic::AtomicU64,
    },
    Http {
        url: String,
        client: reqwest::Client,
        session: String,
        notes: Arc<Mutex<Vec<Value>>>,
        next: std::sync::atomic::AtomicU64,
    },
}

/// The JSON-RPC messages on the `data:` lines of an SSE body (or the body, if JSON).
pub(crate) fn messages(text: &str) -> Vec<Value> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).into_iter().collect();
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .collect()
}

const INITIALIZE: &str = "initialize";

fn initialize_params() -> Value {
    json!({"protocolVersion": "2025-11-25", "capabilities": {},
           "clientInfo": {"name": "handshake-tasks", "version": "1"}})
}

impl Session {
    /// Over stdio: the server on one end of a pipe pair, `initialize` answered in `.1`.
    pub(crate) async fn stdio(server: McpServer) -> (Session, Value) {
        let (client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_in) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server.serve_stream(server_in, server_out).await {
                let _ = running.waiting().await;
            }
        });
        let (tx, rx) = mpsc::unbounded_channel();
        let notes = Arc::new(Mutex::new(Vec::new()));
        let kept = notes.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(client_in).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line).unwrap();
                if message.get("id").is_some() {
                    let _ = tx.send(message);
                } else {
                    kept.lock().unwrap().push(message);
                }
            }
        });
        let session = Session::Stdio {
            writer: AsyncMutex::new(client_out),
            replies: AsyncMutex::new(rx),
            notes,
            next: 0.into(),
        };
        let init = session.request(INITIALIZE, initialize_params()).await;
        session.notify("notifications/initialized", json!({})).await;
        (session, init)
    }

    /// Over streamable HTTP at `url`, with the session's GET stream collecting
    /// notifications; `initialize` answered in `.1`.
    pub(crate) async fn http(url: &str) -> (Session, Value) {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::new();
        let reply = client
            .post(url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(
                json!({"jsonrpc": "2.0", "id": 0, "method": INITIALIZE, "params": initialize_params()})
                    .to_string(),
            )
            .send()
            .await
            .unwrap();
        let session = reply.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let init = messages(&reply.text().await.unwrap()).remove(0);
        let notes = Arc::new(Mutex::new(Vec::new()));
        let session = Session::Http {
            url: url.to_owned(),
            client,
            session,
            notes,
            next: 1.into(),
        };
        session.notify("notifications/initialized", json!({})).await;
        if let Session::Http {
            url,
            client,
            session: id,
            notes,
            ..
        } = &session
        {
            let mut stream = client
                .get(url)
                .header("Accept", "text/event-stream")
                .header("mcp-session-id", id)
                .header("mcp-protocol-version", "2025-11-25")
                .send()
                .await
                .unwrap();
            let kept = notes.clone();
            tokio::spawn(async move {
                let mut buffer = String::new();
                while let Ok(Some(chunk)) = stream.chunk().await {
                    buffer.push_str(&String::from_utf8_lossy(&chunk));
                    while let Some(end) = buffer.find("\n\n") {
                        let event: String = buffer.drain(..end + 2).collect();
                        kept.lock().unwrap().extend(messages(&event));
                    }
                }
            });
            // The stream is open before anything is asked.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        (session, init)
    }

    fn next_id(&self) -> u64 {
        let next = match self {
            Session::Stdio { next, .. } | Session::Http { next, .. } => next,
        };
        next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 100
    }

    async fn notify(&self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        match self {
            Session::Stdio { writer, .. } => write_line(writer, &message).await,
            Session::Http { .. } => {
                self.post(message).await;
            }
        }
    }

    async fn post(&self, message: Value) -> Vec<Value> {
        let Session::Http {
            url,
            client,
            session,
            ..
        } = self
        else {
            unreachable!()
        };
        let reply = client
            .post(url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(message.to_string())
            .send()
            .await
            .unwrap();
        messages(&reply.text().await.unwrap())
    }

    /// The whole response message (`result` or `error`) to one request.
    pub(crate) async fn request(&self, method: &str, params: Value) -> Value {
        let id = if method == INITIALIZE {
            0
        } else {
            self.next_id()
        };
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        match self {
            Session::Stdio {
                writer, replies, ..
            } => {
                write_line(writer, &message).await;
                let mut replies = replies.lock().await;
                loop {
                    let reply = replies.recv().await.expect("the server hung up");
                    if reply["id"] == id {
                        return reply;
                    }
                }
            }
            Session::Http { notes, .. } => {
                let mut reply = None;
                for message in self.post(message).await {
                    if message.get("id").is_some() {
                        reply = Some(message);
                    } else {
                        notes.lock().unwrap().push(message);
                    }
                }
                reply.expect("no response in the reply")
            }
        }
    }

    /// The result of a request that must succeed.
    pub(crate) async fn ok(&self, method: &str, params: Value) -> Value {
        let reply = self.request(method, params).await;
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        reply["result"].clone()
    }

    /// The error code of a request that must fail.
    pub(crate) async fn error_code(&self, method: &str, params: Value) -> i64 {
        let reply = self.request(method, params).await;
        reply["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{method}: expected an error, got {reply}"))
    }

    /// The progress notifications received for `token` so far.
    pub(crate) fn progress(&self, token: &str) -> Vec<Value> {
        self.notified("notifications/progress")
            .into_iter()
            .filter(|n| n["params"]["progressToken"] == token)
            .collect()
    }

    /// The `notifications/message` (log messages) received so far.
    pub(crate) fn logs(&self) -> Vec<Value> {
        self.notified("notifications/message")
    }

    /// The notifications of `method` received so far.
    fn notified(&self, method: &str) -> Vec<Value> {
        let notes = match self {
            Session::Stdio { notes, .. } | Session::Http { notes, .. } => notes,
        };
        notes
            .lock()
            .unwrap()
            .iter()
            .filter(|n| n["method"] == method)
            .cloned()
            .collect()
    }
}

/// A `tools/call` of `long_count` as a task, with a progress token.
pub(crate) fn task_call(n: u64, ms_per_step: u64, token: &str) -> Value {
    json!({"name": "long_count", "arguments": {"n": n, "ms_per_step": ms_per_step},
           "task": {"ttl": 20_000}, "_meta": {"progressToken": token}})
}

/// One message as a line on the server's input.
async fn write_line(writer: &AsyncMutex<tokio::io::DuplexStream>, message: &Value) {
    let mut line = message.to_string();
    line.push('\n');
    writer
        .lock()
        .await
        .write_all(line.as_bytes())
        .await
        .unwrap();
}
