//! The Interactions API column: a scripted turn as an `Interaction` (whole) and as its SSE
//! events, in the shapes of the official google-genai SDK's interactions response types
//! (`Interaction`, `InteractionCreatedEvent`, `StepStart`, `StepDelta` with `TextDelta`,
//! `ThoughtSummaryDelta`, `ThoughtSignatureDelta` and `ArgumentsDelta`, `StepStop`,
//! `InteractionCompletedEvent`, `Usage`); `tests/python/sdk_requests.py` checks them against
//! those types (`interactions_response`, `interactions_event`).

use serde_json::{json, Value};

use super::apis::{pieces, Turn, THOUGHT_SIGNATURE};

/// The model the column runs.
pub const MODEL: &str = "gemini-3-flash-preview";

/// The interaction's id: one per scripted turn, from its first call (or its text), so the
/// turns of a run have different ids.
pub fn interaction_id(turn: &Turn) -> String {
    match turn.calls.first() {
        Some(call) => format!("v1_conformance_{}", call.id),
        None => format!("v1_conformance_text{}", turn.text.len()),
    }
}

/// The model's steps of `turn`: the thought (with its signature), the text, the calls.
pub fn steps(turn: &Turn) -> Vec<Value> {
    let mut steps = Vec::new();
    if let Some(r) = &turn.reasoning {
        steps.push(json!({"type": "thought", "signature": THOUGHT_SIGNATURE,
            "summary": [{"type": "text", "text": r}]}));
    }
    if !turn.text.is_empty() {
        steps.push(json!({"type": "model_output",
            "content": [{"type": "text", "text": turn.text}]}));
    }
    for call in &turn.calls {
        steps.push(
            json!({"type": "function_call", "id": call.id, "name": call.name,
            "arguments": call.args}),
        );
    }
    steps
}

pub fn usage(turn: &Turn) -> Value {
    let (input, output) = turn.usage;
    json!({"total_input_tokens": input, "total_cached_tokens": 0,
        "total_output_tokens": output, "total_thought_tokens": 0,
        "total_tokens": input + output})
}

fn status(turn: &Turn) -> &'static str {
    if turn.calls.is_empty() {
        "completed"
    } else {
        "requires_action"
    }
}

/// The whole `Interaction`: the echoed input step first, as unary responses have it, then
/// the model's steps.
pub fn whole(turn: &Turn) -> Value {
    let mut all = vec![json!({"type": "user_input",
        "content": [{"type": "text", "text": "(the request's input, echoed)"}]})];
    all.extend(steps(turn));
    json!({"id": interaction_id(turn), "model": MODEL,
        "status": status(turn), "created": "2026-12-07T20:00:00Z",
        "updated": "2026-12-07T20:00:01Z", "steps": all, "usage": usage(turn)})
}

/// The SSE events: `interaction.created`, per step `step.start`, its `step.delta`s and
/// `step.stop`, then `interaction.completed`. The first call arrives whole in its
/// `step.start`, later ones in `arguments_delta` pieces: the API sends either.
pub fn events(turn: &Turn) -> Vec<Value> {
    let id = interaction_id(turn);
    let mut events = vec![json!({"event_type": "interaction.created",
        "interaction": {"id": id, "object": "interaction", "model": MODEL,
            "status": "in_progress"}})];
    let mut calls = 0;
    for (index, step) in steps(turn).iter().enumerate() {
        let delta =
            |delta: Value| json!({"event_type": "step.delta", "index": index, "delta": delta});
        match step["type"].as_str() {
            Some("thought") => {
                events.push(json!({"event_type": "step.start", "index": index,
                    "step": {"type": "thought"}}));
                let text = step["summary"][0]["text"].as_str().unwrap_or_default();
                for piece in pieces(text, 12) {
                    events.push(delta(json!({"type": "thought_summary",
                        "content": {"type": "text", "text": piece}})));
                }
                events.push(delta(json!({"type": "thought_signature",
                    "signature": step["signature"]})));
            }
            Some("model_output") => {
                events.push(json!({"event_type": "step.start", "index": index,
                    "step": {"type": "model_output", "content": []}}));
                let text = step["content"][0]["text"].as_str().unwrap_or_default();
                for piece in pieces(text, 9) {
                    events.push(delta(json!({"type": "text", "text": piece})));
                }
            }
            _ if calls == 0 => {
                calls += 1;
                events.push(json!({"event_type": "step.start", "index": index, "step": step}));
            }
            _ => {
                calls += 1;
                let mut start = step.clone();
                start["arguments"] = json!({});
                events.push(json!({"event_type": "step.start", "index": index, "step": start}));
                for piece in pieces(&step["arguments"].to_string(), 6) {
                    events.push(delta(
                        json!({"type": "arguments_delta", "arguments": piece}),
                    ));
                }
            }
        }
        events.push(json!({"event_type": "step.stop", "index": index}));
    }
    events.push(json!({"event_type": "interaction.completed",
        "interaction": {"id": id, "object": "interaction", "model": MODEL,
            "status": status(turn), "usage": usage(turn)}}));
    events
}

/// The events as SSE, each named by its `event_type`.
pub fn sse(turn: &Turn) -> Vec<String> {
    events(turn)
        .iter()
        .map(|event| {
            let name = event["event_type"].as_str().unwrap_or_default();
            format!("event: {name}\ndata: {event}\n\n")
        })
        .collect()
}
