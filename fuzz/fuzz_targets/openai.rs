//! OpenAI Chat Completions readers under arbitrary input (layout in `common`; in stream mode
//! every line is one SSE `data:` payload). No input may panic, and:
//! - an accepted turn, written back with `assistant_message` and read again, is the same turn;
//! - a whole response replayed as `chat.completion.chunk`s (content and arguments cut at
//!   fuzz-chosen points, the id and name in a call's first delta) gives the same turn as
//!   reading it whole, whenever the whole one has a `finish_reason` and every call an id and
//!   a name (a stream without them is refused by design);
//! - a turn survives a serde round trip.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{check_serde, object, Cuts, Mode, J, S};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_core::provider::{Assembler, AssistantTurn, ChatApi, OpenAiChat, OpenAiChatStream};

#[derive(Arbitrary, Debug)]
enum Content {
    Null,
    Text(S),
    Parts(Vec<S>),
}

#[derive(Arbitrary, Debug)]
struct Call {
    id: S,
    name: S,
    arguments: S,
    as_object: Option<Vec<(String, J)>>,
}

#[derive(Arbitrary, Debug)]
struct Shaped {
    content: Content,
    calls: Vec<Call>,
    finish_reason: Option<S>,
    cuts: Vec<u8>,
}

fuzz_target!(|data: &[u8]| {
    match common::mode(data) {
        Some(Mode::Whole(cuts, response)) => whole(&response, cuts),
        Some(Mode::Stream(chunks)) => {
            stream(chunks.iter().map(Value::to_string));
        }
        Some(Mode::Shaped(mut u)) => {
            let Ok(shaped) = Shaped::arbitrary(&mut u) else {
                return;
            };
            let mut message = json!({"role": "assistant"});
            message["content"] = match &shaped.content {
                Content::Null => Value::Null,
                Content::Text(t) => json!(t.get()),
                Content::Parts(parts) => parts
                    .iter()
                    .map(|p| json!({"type": "text", "text": p.get()}))
                    .collect(),
            };
            if !shaped.calls.is_empty() {
                message["tool_calls"] = shaped
                    .calls
                    .iter()
                    .map(|c| {
                        let arguments = match &c.as_object {
                            Some(fields) => object(fields),
                            None => json!(c.arguments.get()),
                        };
                        json!({"id": c.id.get(), "type": "function", "function": {"name": c.name.get(), "arguments": arguments}})
                    })
                    .collect();
            }
            let mut choice = json!({"index": 0, "message": message});
            if let Some(reason) = &shaped.finish_reason {
                choice["finish_reason"] = json!(reason.get());
            }
            if let Some(response) = common::as_received(&json!({"choices": [choice]})) {
                whole(&response, Cuts::new(shaped.cuts));
            }
        }
        None => {}
    }
});

fn whole(response: &Value, cuts: Cuts) {
    let Ok(turn) = OpenAiChat::read_response(response) else {
        return;
    };
    check_written_back(&turn);
    let streamable = turn.stop_reason.is_some()
        && turn
            .calls
            .iter()
            .all(|c| !c.id.is_empty() && !c.name.is_empty());
    if streamable {
        let chunks = replay(&turn, cuts);
        let streamed =
            stream(chunks.into_iter()).expect("a whole response replayed as a stream is accepted");
        assert_eq!(streamed, turn, "streamed turn differs from the whole one");
    }
}

fn stream(lines: impl Iterator<Item = String>) -> Option<AssistantTurn> {
    let mut stream = OpenAiChatStream::new();
    for line in lines {
        stream.push_data(&line).ok()?;
    }
    let turn = stream.finish().ok()?;
    check_written_back(&turn);
    Some(turn)
}

fn check_written_back(turn: &AssistantTurn) {
    check_serde(turn);
    let message = OpenAiChat::history_entry(turn);
    let again = json!({"choices": [{"message": message, "finish_reason": turn.stop_reason}]});
    let back = OpenAiChat::read_response(&again).expect("a written-back turn reads again");
    assert_eq!(&back, turn, "written back and read again changed the turn");
}

/// The SSE `data:` payloads the API would stream for `turn`, then `[DONE]`.
fn replay(turn: &AssistantTurn, mut cuts: Cuts) -> Vec<String> {
    let chunk = |delta: Value| json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]});
    let mut out = vec![chunk(json!({"role": "assistant", "content": ""}))];
    for piece in cuts.split(&turn.text) {
        out.push(chunk(json!({"content": piece})));
    }
    for (index, call) in turn.calls.iter().enumerate() {
        for (k, piece) in cuts.split(&call.arguments).into_iter().enumerate() {
            let delta = if k == 0 {
                json!({"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": piece}})
            } else {
                json!({"index": index, "function": {"arguments": piece}})
            };
            out.push(chunk(json!({"tool_calls": [delta]})));
        }
    }
    let mut last = chunk(json!({}));
    last["choices"][0]["finish_reason"] = json!(turn.stop_reason);
    out.push(last);
    let mut lines: Vec<String> = out.iter().map(Value::to_string).collect();
    lines.push("[DONE]".into());
    lines
}
