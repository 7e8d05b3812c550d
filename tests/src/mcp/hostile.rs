//! A hand-written MCP server that completes the handshake and lists one tool, then misbehaves
//! on `tools/call` in a chosen way. No SDK produces these on purpose, so they are written here,
//! line by line, on the wire format.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// How the server answers `tools/call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misbehaviour {
    /// Closes the connection (the child process exits) instead of answering.
    Die,
    /// Writes a line that is not JSON, then nothing.
    Garbage,
    /// Answers with the right id and a result that is not a tool result.
    WrongShape,
    /// Never answers (but keeps the connection open).
    Silent,
}

impl Misbehaviour {
    /// The mode for a command-line word: `die`, `garbage`, `wrong-shape`, `silent`.
    pub fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "die" => Misbehaviour::Die,
            "garbage" => Misbehaviour::Garbage,
            "wrong-shape" => Misbehaviour::WrongShape,
            "silent" => Misbehaviour::Silent,
            _ => return None,
        })
    }
}

/// Serves until the peer leaves or `mode` says to stop. Returns whether it stopped because
/// of `Die` (so a child process can exit with a failure code).
pub async fn serve<R, W>(mode: Misbehaviour, reader: R, mut writer: W) -> bool
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(reader).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message.get("id").cloned();
        let reply = match (message["method"].as_str(), id) {
            (Some("initialize"), Some(id)) => json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile", "version": "0.0.1"},
            }}),
            (Some("tools/list"), Some(id)) => json!({"jsonrpc": "2.0", "id": id, "result": {
                "tools": [{
                    "name": "echo",
                    "description": "Echoes its text.",
                    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
                }],
            }}),
            (Some("tools/call"), Some(id)) => match mode {
                Misbehaviour::Die => return true,
                Misbehaviour::Garbage => {
                    let _ = writer.write_all(b"}{ this is not JSON-RPC\n").await;
                    let _ = writer.flush().await;
                    continue;
                }
                Misbehaviour::WrongShape => {
                    json!({"jsonrpc": "2.0", "id": id, "result": {"content": "not a list", "isError": "maybe"}})
                }
                Misbehaviour::Silent => continue,
            },
            (Some("ping"), Some(id)) => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            _ => continue,
        };
        let mut bytes = reply.to_string().into_bytes();
        bytes.push(b'\n');
        if writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err() {
            return false;
        }
    }
    false
}
