//! [`LineTransport`]: newline-delimited JSON-RPC on a byte stream (stdio, a socket, a pipe),
//! in front of rmcp's service loop. rmcp's own stream transport ignores a line that is not
//! JSON and drops an oversized one without a word; this one answers both with JSON-RPC errors
//! and keeps reading, so a client that sent garbage learns why nothing happened.
//!
//! Reading: tokio-util's [`LinesCodec`] with a length cap, so a peer that never sends a
//! newline cannot grow the buffer past the cap. Writing: one task owns the writer and takes
//! whole lines from a bounded channel, so rmcp's responses and our error replies never
//! interleave mid-line, and a peer that stops reading stops us reading (backpressure) instead
//! of queueing replies without bound.
//!
//! The tasks of 2025-11-25 sessions pass through here as JSON: their requests are routed
//! before rmcp reads them, and the `initialize` answer gains the `tasks` capability (see
//! `tasks::handshake_era`).

use std::io;
use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, LinesCodec, LinesCodecError};

use super::listings::LiveTools;
use super::tasks::handshake_era;

/// The longest message [`McpServer::serve_stdio`](super::McpServer::serve_stdio) and
/// [`McpServer::serve_stream`](super::McpServer::serve_stream) accept unless
/// [`McpServer::with_max_message_bytes`](super::McpServer::with_max_message_bytes) says
/// otherwise: 16 MiB, rmcp's own limit for one line or one SSE event.
pub(crate) const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Lines waiting for the writer task; beyond this, senders wait for it.
const WRITE_QUEUE: usize = 32;

/// How much the read buffer grows by per read.
const READ_CHUNK: usize = 64 * 1024;

/// One line for the writer task, and where to report whether it was written.
struct Outgoing {
    line: Vec<u8>,
    written: Option<oneshot::Sender<io::Result<()>>>,
}

/// What one incoming message (a line, or an HTTP POST body) turned out to be.
pub(super) enum Incoming {
    Message(Box<ClientJsonRpcMessage>),
    /// An error reply for the peer (a whole line, newline included).
    Reply(Vec<u8>),
    /// Nothing to do: an empty line, or a notification we cannot read (notifications are
    /// never answered).
    Skip,
}

/// A server-side rmcp [`Transport`] over a reader and a writer of newline-delimited JSON.
pub(crate) struct LineTransport<R> {
    reader: R,
    buffer: BytesMut,
    codec: LinesCodec,
    max_bytes: usize,
    /// `None` once closed.
    writes: Option<mpsc::Sender<Outgoing>>,
    /// An error reply not yet handed to the writer. Kept here rather than in a local so that
    /// `receive`, which rmcp polls inside a `select!` and may drop at any await, loses none.
    pending_reply: Option<Vec<u8>>,
    eof: bool,
    /// The served tools, when 2025-11-25 sessions may take tasks here: their `initialize`
    /// answer then gains the `tasks` capability while a tool may run as a task.
    tools: Option<Arc<LiveTools>>,
}

impl<R: AsyncRead + Send + Unpin> LineTransport<R> {
    /// Reads messages from `reader` (each at most `max_bytes` long) and writes to `writer`
    /// from a task of its own. Must be called inside a tokio runtime.
    pub(crate) fn new<W>(reader: R, writer: W, max_bytes: usize) -> Self
    where
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let (writes, queue) = mpsc::channel(WRITE_QUEUE);
        tokio::spawn(write_lines(writer, queue));
        LineTransport {
            reader,
            buffer: BytesMut::new(),
            codec: LinesCodec::new_with_max_length(max_bytes),
            max_bytes,
            writes: Some(writes),
            pending_reply: None,
            eof: false,
            tools: None,
        }
    }

    /// Serves the tasks of 2025-11-25 sessions for `tools` (see `tasks::handshake_era`).
    pub(crate) fn with_tools(mut self, tools: Arc<LiveTools>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// The next line's verdict, or `None` when more input is needed.
    fn next_line(&mut self) -> Option<Incoming> {
        match self.codec.decode(&mut self.buffer) {
            Ok(Some(line)) => Some(match handshake_era::route_bytes(line.as_bytes()) {
                Some(routed) => classify(&routed),
                None => classify(line.as_bytes()),
            }),
            Ok(None) => None,
            // The codec skips the rest of the line by itself.
            Err(LinesCodecError::MaxLineLengthExceeded) => {
                Some(Incoming::Reply(oversized(self.max_bytes)))
            }
            // The only I/O error the codec itself raises: a line that is not UTF-8.
            Err(LinesCodecError::Io(_)) => Some(Incoming::Reply(error_line(
                Value::Null,
                ErrorData::parse_error(
                    "Parse error: the message is not UTF-8 text; send one JSON-RPC message \
                     per line, encoded as UTF-8",
                    None,
                ),
            ))),
        }
    }
}

/// Parses one message as a client message; anything else becomes an error reply or is
/// skipped.
pub(super) fn classify(line: &[u8]) -> Incoming {
    // RFC 8259 lets a parser ignore a byte order mark; rmcp's own transport does too.
    let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Skip;
    }
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Incoming::Message(Box::new(message)),
        Err(error) => error,
    };
    if error.is_syntax() || error.is_eof() {
        return Incoming::Reply(error_line(
            Value::Null,
            ErrorData::parse_error(
                format!(
                    "Parse error: the message is not JSON ({error}); send one JSON-RPC message \
                     per line"
                ),
                None,
            ),
        ));
    }
    // JSON, but not a message rmcp knows. A notification (a method and no id) is never
    // answered, whatever is wrong with it; rmcp skips unknown notifications the same way.
    let value = serde_json::from_slice::<Value>(line).unwrap_or(Value::Null);
    let id = value.get("id");
    if id.is_none() && value.get("method").is_some_and(Value::is_string) {
        return Incoming::Skip;
    }
    // JSON-RPC: answer with the request's id when it can be read, else null.
    let id = id
        .filter(|id| id.is_string() || id.is_i64())
        .cloned()
        .unwrap_or(Value::Null);
    Incoming::Reply(error_line(
        id,
        ErrorData::invalid_request(
            format!(
                "Invalid Request: the message is JSON but not a JSON-RPC 2.0 request, \
                 notification or response ({error})"
            ),
            None,
        ),
    ))
}

/// The reply to a message longer than `max_bytes`.
pub(super) fn oversized(max_bytes: usize) -> Vec<u8> {
    error_line(
        Value::Null,
        ErrorData::invalid_request(
            format!(
                "Invalid Request: the message is longer than the server's limit of {max_bytes} \
                 bytes and was discarded unread; send smaller messages"
            ),
            Some(json!({ "maxMessageBytes": max_bytes })),
        ),
    )
}

/// A JSON-RPC error response as one line. Written by hand rather than with rmcp's
/// `JsonRpcError`, which leaves out an unknown id; JSON-RPC 2.0 asks for `"id": null`.
pub(super) fn error_line(id: Value, error: ErrorData) -> Vec<u8> {
    let mut line = serde_json::to_vec(&json!({ "jsonrpc": "2.0", "id": id, "error": error }))
        .unwrap_or_else(|_| {
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}"#
                .to_vec()
        });
    line.push(b'\n');
    line
}

/// The writer task: writes each queued line whole and flushes it; ends when every sender is
/// gone (the transport was closed or dropped) or the writer fails.
async fn write_lines<W: AsyncWrite + Unpin>(mut writer: W, mut queue: mpsc::Receiver<Outgoing>) {
    while let Some(outgoing) = queue.recv().await {
        let result = async {
            writer.write_all(&outgoing.line).await?;
            writer.flush().await
        }
        .await;
        let failed = result.is_err();
        if let Some(written) = outgoing.written {
            let _ = written.send(result);
        }
        if failed {
            return;
        }
    }
    let _ = writer.shutdown().await;
}

/// Whether `message` answers `initialize`.
fn answers_initialize(message: &ServerJsonRpcMessage) -> bool {
    matches!(
        message,
        ServerJsonRpcMessage::Response(response)
            if matches!(response.result, rmcp::model::ServerResult::InitializeResult(_))
    )
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the MCP transport is closed")
}

impl<R: AsyncRead + Send + Unpin> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl std::future::Future<Output = Result<(), io::Error>> + Send + 'static {
        let writes = self.writes.clone();
        // Only an `initialize` answer looks at the tools.
        let amend = answers_initialize(&item)
            && self
                .tools
                .as_ref()
                .is_some_and(|tools| tools.current().offers_tasks);
        async move {
            let writes = writes.ok_or_else(closed)?;
            let mut line = if amend {
                let mut message = serde_json::to_value(&item)?;
                handshake_era::amend_initialize(&mut message);
                serde_json::to_vec(&message)?
            } else {
                serde_json::to_vec(&item)?
            };
            line.push(b'\n');
            let (written, result) = oneshot::channel();
            writes
                .send(Outgoing {
                    line,
                    written: Some(written),
                })
                .await
                .map_err(|_| closed())?;
            result.await.map_err(|_| closed())?
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if self.pending_reply.is_some() {
                let permit = self.writes.as_ref()?.reserve().await.ok()?;
                // No await between the reservation and the hand-over: nothing is lost if
                // rmcp drops this future.
                if let Some(line) = self.pending_reply.take() {
                    permit.send(Outgoing {
                        line,
                        written: None,
                    });
                }
            }
            match self.next_line() {
                Some(Incoming::Message(message)) => return Some(*message),
                Some(Incoming::Reply(line)) => {
                    self.pending_reply = Some(line);
                    continue;
                }
                Some(Incoming::Skip) => continue,
                None => {}
            }
            // A last line without a newline is an unfinished message: nothing to deliver.
            if self.eof {
                return None;
            }
            self.buffer.reserve(READ_CHUNK);
            match self.reader.read_buf(&mut self.buffer).await {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.writes = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &[u8]) -> Value {
        match classify(line) {
            Incoming::Reply(reply) => serde_json::from_slice(&reply).unwrap(),
            Incoming::Message(m) => panic!("parsed as a message: {m:?}"),
            Incoming::Skip => panic!("skipped"),
        }
    }

    #[test]
    fn our_error_replies_read_as_errors_in_rmcp() {
        // `"id": null` as JSON-RPC 2.0 asks; rmcp's client side must still read the reply.
        for line in [&b"nope"[..], br#"{"x":1}"#] {
            let mut reply = match classify(line) {
                Incoming::Reply(reply) => reply,
                _ => panic!("no reply"),
            };
            assert_eq!(reply.pop(), Some(b'\n'));
            let parsed: ServerJsonRpcMessage = serde_json::from_slice(&reply).unwrap();
            assert!(
                matches!(parsed, ServerJsonRpcMessage::Error(ref e) if e.id.is_none()),
                "{parsed:?}"
            );
        }
    }

    #[test]
    fn a_readable_id_is_kept_and_a_strange_one_is_not() {
        assert_eq!(reply(br#"{"id":"a","method":1}"#)["id"], "a");
        assert_eq!(reply(br#"{"id":7,"method":1}"#)["id"], 7);
        assert_eq!(reply(br#"{"id":[7],"method":1}"#)["id"], Value::Null);
        assert_eq!(reply(br#"[1,2]"#)["error"]["code"], -32600);
    }

    #[test]
    fn a_byte_order_mark_and_a_valid_message_parse() {
        let line = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        assert!(matches!(classify(line), Incoming::Message(_)));
        assert!(matches!(classify(b"  \t"), Incoming::Skip));
    }
}
