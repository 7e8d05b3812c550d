//! Gemini round trips from the parallel `functionCall` parts and a streamed sequence:
//! synthesized stable ids, `thoughtSignature`s kept, `functionResponse` parts back in order.

use serde_json::{json, Value};
use tool_core::provider::{Assembler, ChatApi, Gemini, GeminiStream, ToolChoice};
use tool_core::{block_on, tool, tools, ToolRegistry};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 15 degrees")
}

fn registry() -> ToolRegistry {
    tools![get_weather]
}

/// Seed 002: "查北京和东京的天气" answered with two `functionCall` parts at once.
fn seed_002_response() -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "北京"}}, "thoughtSignature": "c2lnLTE="},
        {"functionCall": {"name": "get_weather", "args": {"city": "东京"}}}
    ]}, "finishReason": "STOP", "index": 0}]})
}

#[test]
fn seed_parallel_function_calls_get_stable_ids_and_answers_in_order() {
    let turn = Gemini::read_response(&seed_002_response()).unwrap();
    assert_eq!(
        turn.stop_reason.as_deref(),
        Some("STOP"),
        "Gemini says STOP even with calls"
    );
    let ids: Vec<&str> = turn.calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        ["gemini_call_0_get_weather", "gemini_call_1_get_weather"]
    );
    assert_eq!(
        Gemini::read_response(&seed_002_response()).unwrap(),
        turn,
        "same response, same ids"
    );
    assert_eq!(
        turn.thought_signatures,
        [Some("c2lnLTE=".to_string()), None]
    );

    let results = block_on(registry().call_all(&turn.calls));
    let content = Gemini::results_entry(&turn.calls, &results).remove(0);
    assert_eq!(
        content,
        json!({"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather", "response": {"output": "北京: 15 degrees"}}},
            {"functionResponse": {"name": "get_weather", "response": {"output": "东京: 15 degrees"}}}
        ]})
    );

    let model = Gemini::history_entry(&turn);
    assert_eq!(
        model["parts"],
        seed_002_response()["candidates"][0]["content"]["parts"],
        "history is rebuilt byte-equal, signatures included"
    );
}

#[test]
fn provider_ids_are_kept_and_sent_back() {
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
        {"functionCall": {"id": "fc-77", "name": "get_weather", "args": {"city": "Oslo"}}}]}}]});
    let turn = Gemini::read_response(&response).unwrap();
    assert_eq!(turn.calls[0].id, "fc-77");
    let results = block_on(registry().call_all(&turn.calls));
    assert_eq!(
        Gemini::results_entry(&turn.calls, &results).remove(0)["parts"][0]["functionResponse"]
            ["id"],
        "fc-77"
    );
}

#[test]
fn errors_go_under_error_not_output() {
    let response = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"town": "Oslo"}}}]}}]});
    let turn = Gemini::read_response(&response).unwrap();
    let results = block_on(registry().call_all(&turn.calls));
    let body = &Gemini::results_entry(&turn.calls, &results).remove(0)["parts"][0]
        ["functionResponse"]["response"];
    assert!(body.get("output").is_none());
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Error [INVALID_PARAM]"),
        "{body}"
    );
}

#[test]
fn streamed_parts_assemble_text_and_calls_until_finish_reason() {
    let chunks = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "thinking", "thought": true}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me check "}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "both cities."}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "北京"}}, "thoughtSignature": "s1"}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "东京"}}}]}, "finishReason": "STOP"}],
            "usageMetadata": {"totalTokenCount": 10}}),
    ];
    let mut stream = GeminiStream::new();
    for c in &chunks[..4] {
        stream.push(c).unwrap();
    }
    let mut cut = GeminiStream::new();
    for c in &chunks[..4] {
        cut.push(c).unwrap();
    }
    assert!(
        cut.finish().is_err(),
        "no finishReason yet: nothing is dispatched"
    );
    stream.push(&chunks[4]).unwrap();
    let turn = stream.finish().unwrap();
    assert_eq!(turn.text, "Let me check both cities.");
    assert_eq!(turn.calls[1].id, "gemini_call_1_get_weather");
    assert_eq!(turn.thought_signatures, [Some("s1".to_string()), None]);
}

#[test]
fn tool_config_spellings() {
    assert_eq!(
        Gemini::tool_choice(&ToolChoice::Auto, true),
        json!({"function_calling_config": {"mode": "AUTO"}})
    );
    assert_eq!(
        Gemini::tool_choice(&ToolChoice::Required, true),
        json!({"function_calling_config": {"mode": "ANY"}})
    );
    assert_eq!(
        Gemini::tool_choice(&ToolChoice::None, true),
        json!({"function_calling_config": {"mode": "NONE"}})
    );
}
