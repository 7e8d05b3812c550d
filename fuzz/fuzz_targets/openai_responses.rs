//! OpenAI Responses readers under arbitrary input (layout in `common`). No input may panic,
//! and:
//! - an accepted turn, written back with `assistant_items` and read again, is the same turn
//!   (native items included), also when rebuilt from text and calls alone;
//! - a whole response replayed as a stream (items added, text and arguments cut into deltas
//!   at fuzz-chosen points, items done, `response.completed`) gives the same turn as reading
//!   it whole;
//! - a turn survives a serde round trip.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{check_serde, object, same_turn, Cuts, Mode, J, S};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_core::provider::{Assembler, AssistantTurn, ChatApi, OpenAiResponses, OpenAiResponsesStream};

#[derive(Arbitrary, Debug)]
enum Item {
    Message {
        id: S,
        texts: Vec<S>,
    },
    FunctionCall {
        id: Option<S>,
        call_id: S,
        name: S,
        arguments: S,
        status: bool,
    },
    Reasoning {
        id: S,
        summary: Vec<S>,
        encrypted: Option<S>,
    },
    Other {
        kind: S,
        fields: Vec<(String, J)>,
    },
}

impl Item {
    fn value(&self) -> Value {
        match self {
            Item::Message { id, texts } => {
                json!({"type": "message", "id": id.get(), "status": "completed", "role": "assistant",
                "content": texts.iter().map(|t| json!({"type": "output_text", "text": t.get(), "annotations": []})).collect::<Vec<_>>()})
            }
            Item::FunctionCall {
                id,
                call_id,
                name,
                arguments,
                status,
            } => {
                let mut item = json!({"type": "function_call"});
                if let Some(id) = id {
                    item["id"] = json!(id.get());
                }
                item["call_id"] = json!(call_id.get());
                item["name"] = json!(name.get());
                item["arguments"] = json!(arguments.get());
                if *status {
                    item["status"] = json!("completed");
                }
                item
            }
            Item::Reasoning {
                id,
                summary,
                encrypted,
            } => {
                let mut item = json!({"type": "reasoning", "id": id.get(),
                    "summary": summary.iter().map(|s| json!({"type": "summary_text", "text": s.get()})).collect::<Vec<_>>()});
                if let Some(encrypted) = encrypted {
                    item["encrypted_content"] = json!(encrypted.get());
                }
                item
            }
            Item::Other { kind, fields } => {
                let mut item = object(fields);
                item["type"] = Value::String(kind.get());
                item
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Shaped {
    items: Vec<Item>,
    status: Option<S>,
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
            let mut response = json!({"id": "resp_1", "object": "response",
                "output": shaped.items.iter().map(Item::value).collect::<Vec<_>>()});
            if let Some(status) = &shaped.status {
                response["status"] = json!(status.get());
            }
            if let Some(response) = common::as_received(&response) {
                whole(&response, Cuts::new(shaped.cuts));
            }
        }
        None => {}
    }
});

fn whole(response: &Value, cuts: Cuts) {
    let Ok(turn) = OpenAiResponses::read_response(response) else {
        return;
    };
    check_written_back(&turn);
    let events = replay(response, cuts);
    let streamed = stream(&events).expect("a whole response replayed as a stream is accepted");
    assert_eq!(streamed, turn, "streamed turn differs from the whole one");
}

fn stream(events: &[Value]) -> Option<AssistantTurn> {
    let mut stream = OpenAiResponsesStream::new();
    for event in events {
        stream.push(event).ok()?;
    }
    let turn = stream.finish().ok()?;
    check_written_back(&turn);
    Some(turn)
}

fn check_written_back(turn: &AssistantTurn) {
    check_serde(turn);
    let items = OpenAiResponses::history_entry(turn);
    let mut again = json!({"output": items});
    if let Some(status) = &turn.stop_reason {
        again["status"] = json!(status);
    }
    // A streamed turn without message items keeps its delta text, which its items cannot
    // carry; everything else must come back.
    if turn.native.is_empty() || !turn.text.is_empty() && !has_message(&turn.native) {
        return;
    }
    let back = OpenAiResponses::read_response(&again).expect("written-back items read again");
    assert_eq!(&back, turn, "written back and read again changed the turn");

    // Rebuilt from text and calls: the text becomes an input message, which this reader
    // (of output items) does not read, so only the calls are compared.
    let bare = turn.clone().with_native(Vec::new());
    let items: Vec<Value> = OpenAiResponses::history_entry(&bare)
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|i| i.get("type").is_some())
        .collect();
    let back = OpenAiResponses::read_response(&json!({"output": items}))
        .expect("rebuilt items read again");
    let calls_only = |t: &AssistantTurn| AssistantTurn::new(String::new(), t.calls.clone());
    assert!(
        same_turn(&calls_only(&back), &calls_only(turn)),
        "rebuilt history changed the calls"
    );
    assert_eq!(
        back.item_ids, turn.item_ids,
        "rebuilt history changed the item ids"
    );
}

fn has_message(items: &[Value]) -> bool {
    items
        .iter()
        .any(|i| i.get("type").and_then(Value::as_str) == Some("message"))
}

/// The events the Responses API would stream for `response`.
fn replay(response: &Value, mut cuts: Cuts) -> Vec<Value> {
    let mut events =
        vec![json!({"type": "response.created", "response": {"status": "in_progress"}})];
    let items = response["output"].as_array().cloned().unwrap_or_default();
    for (index, item) in items.iter().enumerate() {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let mut added = item.clone();
        let mut deltas = Vec::new();
        if kind == "function_call" {
            added["arguments"] = json!("");
            added["status"] = json!("in_progress");
            let arguments = item["arguments"].as_str().unwrap_or("");
            for piece in cuts.split(arguments) {
                deltas.push(json!({"type": "response.function_call_arguments.delta", "output_index": index, "delta": piece}));
            }
        }
        if kind == "message" {
            added["content"] = json!([]);
            for (part, content) in item["content"].as_array().into_iter().flatten().enumerate() {
                if let Some(text) = content.get("text").and_then(Value::as_str) {
                    if content.get("type").and_then(Value::as_str) == Some("output_text") {
                        for piece in cuts.split(text) {
                            deltas.push(
                                json!({"type": "response.output_text.delta", "output_index": index,
                                "content_index": part, "delta": piece}),
                            );
                        }
                    }
                }
            }
        }
        events.push(
            json!({"type": "response.output_item.added", "output_index": index, "item": added}),
        );
        events.extend(deltas);
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        );
    }
    let mut done = json!({});
    if let Some(status) = response.get("status").and_then(Value::as_str) {
        done["status"] = json!(status);
    }
    events.push(json!({"type": "response.completed", "response": done}));
    events
}
