//! Gemini readers under arbitrary input (layout in `common`). No input may panic, and:
//! - an accepted turn, written back with `model_content` and read again, is the same turn
//!   (parts, order and signatures included; an id Gemini gave, even one starting with
//!   `gemini_call_`, stays); rebuilt from text and calls alone it keeps text and calls;
//! - `function_responses_for` carries an id exactly for the calls Gemini gave one;
//! - a whole response replayed as a stream (text parts cut into chunk-sized pieces at
//!   fuzz-chosen points, parts spread over chunks, the signature on the last piece) gives the
//!   same turn as reading it whole;
//! - a turn survives a serde round trip.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::{check_serde, object, same_turn, Cuts, Mode, J, S};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_core::provider::{gemini, Assembler, AssistantTurn, ChatApi, Gemini, GeminiStream};
use tool_core::ToolResponse;

#[derive(Arbitrary, Debug)]
enum Part {
    Text {
        text: S,
        thought: bool,
        signature: Option<S>,
    },
    Call {
        id: Option<S>,
        name: S,
        args: Vec<(String, J)>,
        signature: Option<S>,
    },
    Other {
        fields: Vec<(String, J)>,
    },
}

impl Part {
    fn value(&self) -> Value {
        let (mut part, signature) = match self {
            Part::Text {
                text,
                thought,
                signature,
            } => {
                let mut part = json!({"text": text.get()});
                if *thought {
                    part["thought"] = json!(true);
                }
                (part, signature)
            }
            Part::Call {
                id,
                name,
                args,
                signature,
            } => {
                let mut call = json!({});
                if let Some(id) = id {
                    call["id"] = json!(id.get());
                }
                call["name"] = json!(name.get());
                call["args"] = object(args);
                (json!({"functionCall": call}), signature)
            }
            Part::Other { fields } => (object(fields), &None),
        };
        if let Some(signature) = signature {
            part["thoughtSignature"] = json!(signature.get());
        }
        part
    }
}

#[derive(Arbitrary, Debug)]
struct Shaped {
    parts: Vec<Part>,
    cuts: Vec<u8>,
}

fuzz_target!(|data: &[u8]| {
    match common::mode(data) {
        Some(Mode::Whole(cuts, response)) => whole(&response, cuts),
        Some(Mode::Stream(chunks)) => {
            stream(&chunks);
        }
        Some(Mode::Shaped(mut u)) => {
            let Ok(shaped) = Shaped::arbitrary(&mut u) else {
                return;
            };
            let parts: Vec<Value> = shaped.parts.iter().map(Part::value).collect();
            let response = json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]});
            if let Some(response) = common::as_received(&response) {
                whole(&response, Cuts::new(shaped.cuts));
            }
        }
        None => {}
    }
});

fn whole(response: &Value, cuts: Cuts) {
    let Ok(turn) = Gemini::read_response(response) else {
        return;
    };
    check_written_back(&turn);
    let chunks = replay(response, cuts);
    let streamed = stream(&chunks).expect("a whole response replayed as a stream is accepted");
    assert_eq!(streamed, turn, "streamed turn differs from the whole one");
}

fn stream(chunks: &[Value]) -> Option<AssistantTurn> {
    let mut stream = GeminiStream::new();
    for chunk in chunks {
        stream.push(chunk).ok()?;
    }
    let turn = stream.finish().ok()?;
    check_written_back(&turn);
    Some(turn)
}

fn call_ids(parts: &[Value]) -> Vec<Option<Value>> {
    parts
        .iter()
        .filter_map(|p| p.get("functionCall").filter(|c| !c.is_null()))
        .map(|c| c.get("id").filter(|i| !i.is_null()).cloned())
        .collect()
}

fn check_written_back(turn: &AssistantTurn) {
    check_serde(turn);
    let content = Gemini::history_entry(turn);
    let again = json!({"candidates": [{"content": content, "finishReason": turn.stop_reason}]});
    let back = Gemini::read_response(&again).expect("a written-back turn reads again");
    assert_eq!(&back, turn, "written back and read again changed the turn");

    let responses = vec![ToolResponse::success("ok"); turn.calls.len()];
    let answered = gemini::results_entry_for(turn, &responses);
    let sent: Vec<Option<Value>> = answered["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p["functionResponse"].get("id").cloned())
        .collect();
    assert_eq!(
        sent,
        call_ids(&turn.native),
        "function responses carry exactly Gemini's ids"
    );

    // Rebuilt from text and calls, an id Gemini gave that looks made up here cannot be told
    // apart (the documented limit of a turn without native parts).
    let looks_synthetic = call_ids(&turn.native).iter().flatten().any(|id| {
        id.as_str()
            .is_some_and(|id| id.starts_with("gemini_call_"))
    });
    if !looks_synthetic {
        let bare = turn.clone().with_native(Vec::new());
        let again = json!({"candidates": [{"content": Gemini::history_entry(&bare), "finishReason": "STOP"}]});
        let back = Gemini::read_response(&again).expect("a rebuilt turn reads again");
        assert!(same_turn(&back, turn), "rebuilt history changed the turn");
    }
}

/// A text part the stream joins onto a previous one.
fn plain_text(part: &Value) -> bool {
    part.as_object().is_some_and(|map| {
        map.get("text").is_some_and(Value::is_string)
            && map
                .keys()
                .all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
    })
}

fn joinable(prev: &Value, next: &Value) -> bool {
    plain_text(prev)
        && plain_text(next)
        && prev.get("thought") == next.get("thought")
        && prev.get("thoughtSignature").is_none()
}

/// The chunks Gemini would stream for `response`: plain text parts cut into pieces, each
/// piece but the last ending its chunk (so the stream joins them) and only the last keeping
/// the signature; between parts, a chunk ends at fuzz-chosen places where the stream would
/// not join the parts.
fn replay(response: &Value, mut cuts: Cuts) -> Vec<Value> {
    let candidate = &response["candidates"][0];
    let parts = candidate["content"]["parts"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut chunks: Vec<Vec<Value>> = vec![Vec::new()];
    for (i, part) in parts.iter().enumerate() {
        if plain_text(part) {
            let pieces = cuts.split(part["text"].as_str().unwrap_or(""));
            let last = pieces.len() - 1;
            for (k, piece) in pieces.into_iter().enumerate() {
                let mut p = part.clone();
                p["text"] = json!(piece);
                if k < last {
                    if let Some(map) = p.as_object_mut() {
                        map.shift_remove("thoughtSignature");
                    }
                }
                chunks.last_mut().map(|c| c.push(p));
                if k < last {
                    chunks.push(Vec::new());
                }
            }
        } else {
            chunks.last_mut().map(|c| c.push(part.clone()));
        }
        let next = parts.get(i + 1);
        if next.is_some_and(|next| !joinable(part, next)) && cuts.flip() {
            chunks.push(Vec::new());
        }
    }
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, parts)| {
            let mut chunk = json!({"candidates": [{"content": {"role": "model", "parts": parts}}]});
            if i + 1 == count {
                chunk["candidates"][0]["finishReason"] = candidate["finishReason"].clone();
            }
            chunk
        })
        .collect()
}
