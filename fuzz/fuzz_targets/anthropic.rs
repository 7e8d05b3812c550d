//! Anthropic Messages readers under arbitrary input (layout in `common`). No input may panic,
//! and:
//! - a completed streamed call always has JSON-object arguments;
//! - an accepted turn, written back with `assistant_message` and read again, is the same turn
//!   (native blocks included), also when rebuilt from text and calls alone;
//! - a whole response replayed as a stream, its text, thinking, signatures and inputs cut at
//!   fuzz-chosen points (or an input given whole in `content_block_start`), gives the same
//!   turn as reading it whole;
//! - a turn survives a serde round trip.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{check_serde, object, same_turn, Cuts, Mode, J, S};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_core::provider::{Anthropic, AnthropicStream, Assembler, AssistantTurn, ChatApi};

#[derive(Arbitrary, Debug)]
enum Block {
    Text {
        text: S,
        citations: Vec<J>,
    },
    ToolUse {
        id: S,
        name: S,
        input: Vec<(String, J)>,
        caller: Option<S>,
    },
    ServerToolUse {
        id: S,
        name: S,
        input: Vec<(String, J)>,
    },
    WebSearchResult {
        tool_use_id: S,
        content: J,
    },
    Thinking {
        thinking: S,
        signature: S,
    },
    Redacted {
        data: S,
    },
    Other {
        kind: S,
        fields: Vec<(String, J)>,
    },
}

impl Block {
    fn value(&self) -> Value {
        match self {
            Block::Text { text, citations } => {
                let mut b = json!({"type": "text", "text": text.get()});
                if !citations.is_empty() {
                    b["citations"] = Value::Array(citations.iter().map(J::value).collect());
                }
                b
            }
            Block::ToolUse {
                id,
                name,
                input,
                caller,
            } => {
                let mut b = json!({"type": "tool_use", "id": id.get(), "name": name.get(), "input": object(input)});
                if let Some(caller) = caller {
                    b["caller"] =
                        json!({"type": "code_execution_20250825", "tool_id": caller.get()});
                }
                b
            }
            Block::ServerToolUse { id, name, input } => {
                json!({"type": "server_tool_use", "id": id.get(), "name": name.get(), "input": object(input)})
            }
            Block::WebSearchResult {
                tool_use_id,
                content,
            } => {
                json!({"type": "web_search_tool_result", "tool_use_id": tool_use_id.get(), "content": content.value()})
            }
            Block::Thinking {
                thinking,
                signature,
            } => {
                json!({"type": "thinking", "thinking": thinking.get(), "signature": signature.get()})
            }
            Block::Redacted { data } => json!({"type": "redacted_thinking", "data": data.get()}),
            Block::Other { kind, fields } => {
                let mut b = object(fields);
                b["type"] = Value::String(kind.get());
                b
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Shaped {
    blocks: Vec<Block>,
    stop_reason: Option<S>,
    cuts: Vec<u8>,
}

fuzz_target!(|data: &[u8]| {
    match common::mode(data) {
        Some(Mode::Whole(cuts, response)) => whole(&response, cuts),
        Some(Mode::Stream(events)) => {
            stream(&events);
        }
        Some(Mode::Shaped(mut u)) => {
            let Ok(shaped) = Shaped::arbitrary(&mut u) else {
                return;
            };
            let mut response = json!({"id": "msg_1", "type": "message", "role": "assistant",
                "content": shaped.blocks.iter().map(Block::value).collect::<Vec<_>>()});
            if let Some(reason) = &shaped.stop_reason {
                response["stop_reason"] = Value::String(reason.get());
            }
            if let Some(response) = common::as_received(&response) {
                whole(&response, Cuts::new(shaped.cuts));
            }
        }
        None => {}
    }
});

fn whole(response: &Value, cuts: Cuts) {
    let Ok(turn) = Anthropic::read_response(response) else {
        return;
    };
    check_written_back(&turn);
    let events = replay(response, cuts);
    let streamed = stream(&events).expect("a whole response replayed as a stream is accepted");
    assert_eq!(streamed, turn, "streamed turn differs from the whole one");
}

fn stream(events: &[Value]) -> Option<AssistantTurn> {
    let mut stream = AnthropicStream::new();
    let mut taken = Vec::new();
    for event in events {
        stream.push(event).ok()?;
        for call in stream.take_completed() {
            assert!(
                serde_json::from_str::<Value>(&call.arguments).is_ok_and(|v| v.is_object()),
                "a completed call has JSON-object arguments"
            );
            taken.push(call);
        }
    }
    let turn = stream.finish().ok()?;
    assert_eq!(
        taken.len(),
        turn.calls.len(),
        "every call is handed out once"
    );
    check_written_back(&turn);
    Some(turn)
}

/// Written back and read again: the same turn; rebuilt from text and calls: the same text
/// and calls.
fn check_written_back(turn: &AssistantTurn) {
    check_serde(turn);
    let message = Anthropic::history_entry(turn);
    let mut again = json!({"content": message["content"]});
    if let Some(reason) = &turn.stop_reason {
        again["stop_reason"] = json!(reason);
    }
    let back = Anthropic::read_response(&again).expect("a written-back turn reads again");
    assert_eq!(&back, turn, "written back and read again changed the turn");

    let bare = turn.clone().with_native(Vec::new());
    let message = Anthropic::history_entry(&bare);
    let back = Anthropic::read_response(&json!({"content": message["content"]}))
        .expect("a rebuilt turn reads again");
    assert!(same_turn(&back, turn), "rebuilt history changed the turn");
}

/// The events Anthropic would stream for `response`: each block starts with its growing
/// fields empty and gets them back as deltas cut at the fuzz-chosen points.
fn replay(response: &Value, mut cuts: Cuts) -> Vec<Value> {
    let mut message = response.clone();
    message["content"] = json!([]);
    let mut events = vec![json!({"type": "message_start", "message": message})];
    let blocks = response["content"].as_array().cloned().unwrap_or_default();
    for (index, block) in blocks.iter().enumerate() {
        let mut start = block.clone();
        let mut deltas = Vec::new();
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            start["text"] = json!("");
            for piece in cuts.split(text) {
                deltas.push(json!({"type": "text_delta", "text": piece}));
            }
        }
        if let Some(citations) = block.get("citations").and_then(Value::as_array) {
            start["citations"] = json!([]);
            for citation in citations {
                deltas.push(json!({"type": "citations_delta", "citation": citation}));
            }
        }
        if let Some(input) = block.get("input").filter(|i| i.is_object()) {
            // Either the documented way (`{}`, then fragments) or the input given whole.
            if cuts.flip() {
                start["input"] = json!({});
                for piece in cuts.split(&input.to_string()) {
                    deltas.push(json!({"type": "input_json_delta", "partial_json": piece}));
                }
            }
        }
        if let Some(thinking) = block.get("thinking").and_then(Value::as_str) {
            start["thinking"] = json!("");
            for piece in cuts.split(thinking) {
                deltas.push(json!({"type": "thinking_delta", "thinking": piece}));
            }
        }
        if let Some(signature) = block.get("signature").and_then(Value::as_str) {
            start["signature"] = json!("");
            deltas.push(json!({"type": "signature_delta", "signature": signature}));
        }
        events.push(json!({"type": "content_block_start", "index": index, "content_block": start}));
        for delta in deltas {
            events.push(json!({"type": "content_block_delta", "index": index, "delta": delta}));
            if cuts.flip() {
                events.push(json!({"type": "ping"}));
            }
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    if let Some(reason) = response.get("stop_reason").filter(|r| !r.is_null()) {
        events.push(json!({"type": "message_delta", "delta": {"stop_reason": reason}}));
    }
    events.push(json!({"type": "message_stop"}));
    events
}
