//! Hostile peers. Our server fed lines that are not JSON, truncated JSON, binary garbage,
//! oversized messages, wrong types, unknown methods or JSON that is not JSON-RPC answers each
//! with its documented JSON-RPC error and keeps serving; our client
//! facing a server that dies mid-call, answers garbage, answers the wrong shape or never
//! answers returns SERVICE_UNAVAILABLE / NETWORK_ERROR / TIMEOUT responses, in-process and
//! over a child process, without panicking or hanging.

#![cfg(feature = "mcp")]

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tool_core::mcp::McpClient;
use tool_core::mcp::McpServer;
use tool_core::{ToolCall, ToolErrorCode, ToolRegistry, ToolResponse};
use tool_tests::mcp::harness::bounded;
use tool_tests::mcp::hostile::{self, Misbehaviour};
use tool_tests::mcp::ours;

/// A raw JSON-RPC line peer of our server.
struct Raw {
    lines: Lines<BufReader<Box<dyn AsyncRead + Send + Unpin>>>,
    writer: Box<dyn AsyncWrite + Send + Unpin>,
    /// The server process, when it is one (killed on drop).
    _child: Option<tokio::process::Child>,
}

impl Raw {
    /// Starts our server in this process (messages up to 64 KiB) and completes the handshake.
    async fn start() -> Raw {
        let (near, far) = tokio::io::duplex(1 << 20);
        let (far_read, far_write) = tokio::io::split(far);
        let server =
            McpServer::new(ours::registry(Default::default())).with_max_message_bytes(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = server.serve_stream(far_read, far_write).await {
                let _ = running.waiting().await;
            }
        });
        let (read, writer) = tokio::io::split(near);
        Raw::handshake(Box::new(read), Box::new(writer), None).await
    }

    /// Starts our server as a child process on stdio (`serve_stdio`, default limit) and
    /// completes the handshake.
    async fn child() -> Raw {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_peer"))
            .arg("ours")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        Raw::handshake(Box::new(stdout), Box::new(stdin), Some(child)).await
    }

    async fn handshake(
        read: Box<dyn AsyncRead + Send + Unpin>,
        writer: Box<dyn AsyncWrite + Send + Unpin>,
        child: Option<tokio::process::Child>,
    ) -> Raw {
        let mut raw = Raw {
            lines: BufReader::new(read).lines(),
            writer,
            _child: child,
        };
        raw.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            }})
            .to_string(),
        )
        .await;
        let init = raw.reply().await;
        assert_eq!(init["id"], 0, "{init}");
        assert!(
            init["result"]["capabilities"]["tools"].is_object(),
            "{init}"
        );
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    async fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes()).await;
    }

    async fn send_bytes(&mut self, line: &[u8]) {
        self.writer.write_all(line).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// The next reply is an error with `code` and id `null` whose message starts with
    /// `starts`.
    async fn expect_error(&mut self, code: i64, starts: &str) -> Value {
        let error = self.reply().await;
        assert_eq!(error["jsonrpc"], "2.0", "{error}");
        assert_eq!(error.get("id"), Some(&Value::Null), "{error}");
        assert_eq!(error["error"]["code"], code, "{error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(starts), "{message}");
        error
    }

    /// A valid `tools/call` still succeeds: the server survived.
    async fn still_calls(&mut self, id: u64) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "add", "arguments": {"a": 2, "b": 3},
            }})
            .to_string(),
        )
        .await;
        let reply = self.reply().await;
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        assert_eq!(reply["result"]["content"][0]["text"], "5", "{reply}");
    }

    async fn reply(&mut self) -> Value {
        let line = self
            .lines
            .next_line()
            .await
            .unwrap()
            .expect("server closed");
        serde_json::from_str(&line).unwrap()
    }

    /// `tools/list` still works: the server survived.
    async fn still_serving(&mut self, id: u64) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string())
            .await;
        let list = self.reply().await;
        assert_eq!(list["id"], id, "{list}");
        assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 4);
    }
}

#[tokio::test]
async fn server_answers_a_line_that_is_not_json_with_parse_error_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send("}{ not json").await;
        let error = raw
            .expect_error(-32700, "Parse error: the message is not JSON")
            .await;
        let message = error["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("one JSON-RPC message per line"),
            "{message}"
        );
        raw.still_calls(1).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_truncated_json_with_parse_error_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add""#)
            .await;
        // Cut off JSON has no readable id: JSON-RPC answers with null.
        raw.expect_error(-32700, "Parse error: the message is not JSON")
            .await;
        raw.still_calls(4).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_binary_garbage_with_parse_error_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::start().await;
        // Not UTF-8 at all …
        raw.send_bytes(&[0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x7b])
            .await;
        raw.expect_error(-32700, "Parse error: the message is not UTF-8")
            .await;
        // … and UTF-8 control characters, which are text but not JSON.
        raw.send("\u{0}\u{1}binary\u{7f}").await;
        raw.expect_error(-32700, "Parse error: the message is not JSON")
            .await;
        raw.still_calls(2).await;
    })
    .await
}

#[tokio::test]
async fn server_skips_empty_lines_and_unreadable_notifications_without_a_reply() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send("").await;
        raw.send("\r").await;
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":"wrong"}"#)
            .await;
        raw.send(r#"{"jsonrpc":"2.0","method":"$/lsp/thing"}"#)
            .await;
        // The next reply is the call's: nothing above was answered.
        raw.still_calls(3).await;
    })
    .await
}

#[tokio::test]
async fn server_on_stdio_answers_garbage_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::child().await;
        raw.send("}{ not json").await;
        raw.expect_error(-32700, "Parse error: the message is not JSON")
            .await;
        raw.send_bytes(&[0xff, 0x00, 0xfe]).await;
        raw.expect_error(-32700, "Parse error: the message is not UTF-8")
            .await;
        raw.send(r#"{"hello":"world"}"#).await;
        raw.expect_error(-32600, "Invalid Request").await;
        raw.still_calls(1).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_json_that_is_not_json_rpc_with_invalid_request() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send(r#"{"hello":"world"}"#).await;
        raw.expect_error(
            -32600,
            "Invalid Request: the message is JSON but not a JSON-RPC",
        )
        .await;
        // A readable id is answered with, as JSON-RPC asks.
        raw.send(r#"{"id":12,"result":"nonsense","method":[]}"#)
            .await;
        let error = raw.reply().await;
        assert_eq!(
            (error["id"].clone(), error["error"]["code"].clone()),
            (json!(12), json!(-32600)),
            "{error}"
        );
        raw.still_serving(2).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_wrong_types_with_invalid_params_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":7}}"#)
            .await;
        let error = raw.reply().await;
        assert_eq!(error["id"], 5, "{error}");
        assert!(error["error"]["code"].is_i64(), "{error}");
        raw.still_serving(6).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_unknown_methods_with_method_not_found() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send(r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method","params":{}}"#)
            .await;
        let error = raw.reply().await;
        assert_eq!(
            (error["id"].clone(), error["error"]["code"].clone()),
            (json!(7), json!(-32601)),
            "{error}"
        );
        raw.still_serving(8).await;
    })
    .await
}

#[tokio::test]
async fn server_answers_oversized_messages_with_invalid_request_and_keeps_serving() {
    bounded(async {
        let mut raw = Raw::start().await;
        // 10 MiB against the server's 64 KiB limit: answered as soon as the limit is passed,
        // the rest skipped as it arrives (never buffered), the request never run.
        let huge = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 1, "b": 2, "pad": "x".repeat(10 << 20)},
        }});
        raw.send(&huge.to_string()).await;
        let error = raw
            .expect_error(-32600, "Invalid Request: the message is longer than")
            .await;
        assert_eq!(
            error["error"]["data"]["maxMessageBytes"],
            64 * 1024,
            "{error}"
        );
        raw.still_calls(10).await;
        // A line just under the limit is still read.
        let padded = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 1, "b": 2}, "_meta": {"pad": "x".repeat(60 * 1024)},
        }});
        raw.send(&padded.to_string()).await;
        let reply = raw.reply().await;
        assert_eq!(reply["id"], 11, "{reply}");
        assert_eq!(reply["result"]["content"][0]["text"], "3", "{reply}");
    })
    .await
}

#[tokio::test]
async fn server_answers_calls_with_arguments_of_the_wrong_type_as_tool_errors() {
    bounded(async {
        let mut raw = Raw::start().await;
        raw.send(
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":[],"b":{}}}}"#,
        )
        .await;
        let reply = raw.reply().await;
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("Error [INVALID_PARAM]"), "{text}");
    })
    .await
}

/// Our client, with a short time limit, against a hostile server in this process.
async fn hostile_in_process(mode: Misbehaviour) -> McpClient {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(far);
        hostile::serve(mode, read, write).await;
    });
    McpClient::connect_with_timeout(near, Duration::from_millis(500))
        .await
        .unwrap()
}

/// The same, with the hostile server a child process on stdio.
async fn hostile_child(mode: &str) -> McpClient {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_peer"));
    command.arg(mode);
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    McpClient::connect_with_timeout(transport, Duration::from_millis(500))
        .await
        .unwrap()
}

async fn call_echo(client: &McpClient) -> ToolResponse {
    let mut registry = ToolRegistry::new();
    client.register_into(&mut registry, None).unwrap();
    registry
        .call(&ToolCall::new("1", "echo", r#"{"text":"hi"}"#))
        .await
}

fn assert_code(reply: &ToolResponse, code: ToolErrorCode, mentions: &str) {
    assert_eq!(reply.error_code(), Some(code), "{reply:?}");
    let message = reply.error_message().unwrap();
    assert!(message.contains(mentions), "{message}");
    assert!(message.contains("'echo'"), "{message}");
}

#[tokio::test]
async fn server_dying_mid_call_is_service_unavailable_in_process() {
    bounded(async {
        let reply = call_echo(&hostile_in_process(Misbehaviour::Die).await).await;
        assert_code(&reply, ToolErrorCode::ServiceUnavailable, "not reachable");
    })
    .await
}

#[tokio::test]
async fn server_dying_mid_call_is_service_unavailable_over_stdio() {
    bounded(async {
        let reply = call_echo(&hostile_child("die").await).await;
        assert_code(&reply, ToolErrorCode::ServiceUnavailable, "not reachable");
    })
    .await
}

#[tokio::test]
async fn server_answering_garbage_times_out_in_process() {
    bounded(async {
        // rmcp skips a line it cannot parse, so the call ends at the time limit.
        let reply = call_echo(&hostile_in_process(Misbehaviour::Garbage).await).await;
        assert_code(&reply, ToolErrorCode::Timeout, "within 500 ms");
    })
    .await
}

#[tokio::test]
async fn server_answering_garbage_times_out_over_stdio() {
    bounded(async {
        let reply = call_echo(&hostile_child("garbage").await).await;
        assert_code(&reply, ToolErrorCode::Timeout, "within 500 ms");
    })
    .await
}

#[tokio::test]
async fn server_answering_the_wrong_shape_is_a_network_error_in_process() {
    bounded(async {
        let reply = call_echo(&hostile_in_process(Misbehaviour::WrongShape).await).await;
        assert_code(&reply, ToolErrorCode::NetworkError, "not a tool result");
    })
    .await
}

#[tokio::test]
async fn server_answering_the_wrong_shape_is_a_network_error_over_stdio() {
    bounded(async {
        let reply = call_echo(&hostile_child("wrong-shape").await).await;
        assert_code(&reply, ToolErrorCode::NetworkError, "not a tool result");
    })
    .await
}

#[tokio::test]
async fn server_never_answering_times_out_in_process() {
    bounded(async {
        let reply = call_echo(&hostile_in_process(Misbehaviour::Silent).await).await;
        assert_code(&reply, ToolErrorCode::Timeout, "within 500 ms");
    })
    .await
}

#[tokio::test]
async fn server_never_answering_times_out_over_stdio() {
    bounded(async {
        let reply = call_echo(&hostile_child("silent").await).await;
        assert_code(&reply, ToolErrorCode::Timeout, "within 500 ms");
    })
    .await
}

#[tokio::test]
async fn a_peer_that_never_completes_the_handshake_is_an_error_not_a_hang() {
    bounded(async {
        let (near, _far) = tokio::io::duplex(1 << 16);
        let err = McpClient::connect_with_timeout(near, Duration::from_millis(200))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("initialize"), "{err}");
    })
    .await
}
