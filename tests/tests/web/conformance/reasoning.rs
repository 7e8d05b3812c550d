//! Reasoning: streamed as `RunEvent::ReasoningDelta` apart from the text, kept on the turn,
//! and sent back in the next request as the API requires (Responses: the reasoning item with
//! its encrypted content; Anthropic: the thinking block with its signature; Gemini: the
//! thought part and the call's thought signature; the Interactions API, stateful: nothing,
//! the request names the interaction that holds the thought, which the turn keeps with its
//! signature for a stateless history; DeepSeek: `reasoning_content`, vLLM:
//! `reasoning` on the assistant message of the tool-call turn; text mode: the reply, `<think>`
//! block included, verbatim). Streamed and whole responses.

use serde_json::{json, Value};
use tool_core::model::Reasoning;
use tool_core::runner::{RunEvent, RunOptions};

use super::apis::{Api, ENCRYPTED, SIGNATURE, THOUGHT_SIGNATURE};
use super::harness::*;
use super::interactions::interaction_id;
use super::{Fake, Seen, Turn, Verdict};
use crate::http_support::registry;

const THOUGHT: &str = "The user wants the weather in Paris. I will call get_weather.";

/// The assistant message of the tool-call turn, as the second request carries it.
fn sent_back(api: Api, body: &Value) -> Value {
    if api == Api::Interactions {
        // Stateful: what the request says about the earlier interaction is the whole body.
        return body.clone();
    }
    let list = match api {
        Api::Responses => &body["input"],
        Api::Gemini => &body["contents"],
        _ => &body["messages"],
    };
    let role = |m: &&Value| match api {
        Api::Gemini => m["role"] == "model",
        Api::Responses => m["type"] == "reasoning" || m["type"] == "function_call",
        _ => m["role"] == "assistant",
    };
    match api {
        // The turn's items, in order.
        Api::Responses => Value::Array(
            list.as_array()
                .map(|items| items.iter().filter(role).cloned().collect())
                .unwrap_or_default(),
        ),
        _ => list
            .as_array()
            .and_then(|items| items.iter().find(role).cloned())
            .unwrap_or(Value::Null),
    }
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let mut verdict = Verdict::Yes;
    for stream in [true, false] {
        let case = format!("{api:?} stream={stream}");
        let turns = [
            Turn::call("w1", "get_weather", json!({"city": "Paris"}))
                .with_text("Let me check.")
                .with_reasoning(THOUGHT),
            Turn::text(FINAL),
        ];
        let fake = Fake::start(api, stream, &turns).await;
        let (registry, weather) = registry();
        let runner = runner(
            &fake,
            registry,
            RunOptions::new().reasoning(Reasoning::budget(2048)),
        );
        let (events, run) = streamed(&runner, QUESTION).await;
        assert!(
            matches!(last(&events), RunEvent::RunFinished { .. }),
            "{case}: {:?}",
            last(&events)
        );
        assert_eq!(weather.runs(), 1, "{case}");
        let first = turn_events(&events, 1);
        let bodies = seen.add(&fake).await;
        assert_eq!(bodies.len(), 2, "{case}");
        let back = sent_back(api, &bodies[1]);
        let turn = assistant_turns(run.messages())[0].clone();

        if api == Api::Chat {
            // OpenAI's Chat Completions has no reasoning field: nothing is invented.
            assert_eq!(reasoning_of(first), "", "{case}");
            assert_eq!(turn.reasoning, "", "{case}");
            assert!(!text(&back).contains("reasoning"), "{case}: {back}");
            verdict = Verdict::No("OpenAI's Chat Completions returns no reasoning");
            continue;
        }

        // Reasoning is reasoning, never text, and comes before the text and the calls.
        assert_eq!(reasoning_of(first).trim(), THOUGHT, "{case}: {first:?}");
        assert_eq!(turn.reasoning.trim(), THOUGHT, "{case}");
        assert!(
            !text_of(first).contains("get_weather."),
            "{case}: {first:?}"
        );
        assert!(
            text_of(first).contains("Let me check."),
            "{case}: {first:?}"
        );
        let last_reasoning = first
            .iter()
            .rposition(|e| matches!(e, RunEvent::ReasoningDelta { .. }));
        let first_other = first.iter().position(|e| {
            matches!(
                e,
                RunEvent::TextDelta { .. }
                    | RunEvent::CallStarted { .. }
                    | RunEvent::CallReady { .. }
            )
        });
        assert!(last_reasoning < first_other, "{case}: {first:?}");

        // Sent back as the API wants it.
        match api {
            Api::ChatVllm => assert_eq!(back["reasoning"], THOUGHT, "{case}: {back}"),
            Api::ChatDeepSeek => {
                assert_eq!(back["reasoning_content"], THOUGHT, "{case}: {back}")
            }
            Api::Responses => assert_eq!(
                back[0],
                json!({"id": "rs_conformance", "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": THOUGHT}],
                    "encrypted_content": ENCRYPTED}),
                "{case}: {back}"
            ),
            Api::Anthropic => assert_eq!(
                back["content"][0],
                json!({"type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE}),
                "{case}: {back}"
            ),
            Api::Interactions => {
                assert_eq!(
                    back["previous_interaction_id"],
                    interaction_id(&turns[0]),
                    "{case}: {back}"
                );
                let kinds: Vec<&str> = back["input"]
                    .as_array()
                    .map(|steps| steps.iter().filter_map(|s| s["type"].as_str()).collect())
                    .unwrap_or_default();
                assert_eq!(kinds, ["function_result"], "{case}: {back}");
                let native = turn.native.as_ref().map(|n| n.content[0].clone());
                assert_eq!(
                    native,
                    Some(json!({"type": "thought", "signature": THOUGHT_SIGNATURE,
                        "summary": [{"type": "text", "text": THOUGHT}]})),
                    "{case}"
                );
            }
            Api::Gemini => {
                let parts = back["parts"].as_array().cloned().unwrap_or_default();
                assert_eq!(
                    parts.first(),
                    Some(&json!({"text": THOUGHT, "thought": true})),
                    "{case}: {back}"
                );
                let call = parts.iter().find(|p| p.get("functionCall").is_some());
                assert_eq!(
                    call.map(|c| c["thoughtSignature"].clone()),
                    Some(json!(THOUGHT_SIGNATURE)),
                    "{case}: {back}"
                );
            }
            _ => {
                // Text mode: the reply as the model wrote it.
                let reply = super::whole::text_mode_reply(api, &turns[0]);
                assert_eq!(back["content"], reply.as_str(), "{case}: {back}");
            }
        }
    }
    seen.saw(verdict)
}
