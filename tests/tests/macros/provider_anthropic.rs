//! Anthropic round trips from the shapes of Anthropic's tool-use guide and a streamed sequence: `tool_use` blocks to
//! `ToolCall`s, and back to one `user` message whose `tool_result` blocks come first.

use serde_json::{json, Value};
use tool_core::provider::anthropic::ResultContent;
use tool_core::provider::{anthropic, Anthropic, AnthropicStream, Assembler, ChatApi, ToolChoice};
use tool_core::{block_on, tool, tools, ToolCall, ToolErrorCode, ToolRegistry, ToolResponse};

/// Current weather.
#[tool(read_only)]
fn get_weather(
    /// City and state.
    location: String,
    /// Temperature unit.
    unit: Option<String>,
) -> Result<String, tool_core::ToolError> {
    if location.is_empty() {
        return Err(tool_core::ToolError::new(
            ToolErrorCode::InvalidParam,
            "location is empty",
        ));
    }
    Ok(format!("15 degrees {}", unit.unwrap_or_default()))
}

fn registry() -> ToolRegistry {
    tools![get_weather]
}

/// Seed 001: the example response with text and one `tool_use` block.
fn seed_001_response() -> Value {
    json!({
        "id": "msg_01Aq9w938a90dw8q", "model": "claude-opus-4-7", "stop_reason": "tool_use", "role": "assistant",
        "content": [
            {"type": "text", "text": "I'll check the current weather in San Francisco for you."},
            {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
             "input": {"location": "San Francisco, CA", "unit": "celsius"}}
        ]
    })
}

#[test]
fn seed_tool_use_round_trips_to_a_tool_result() {
    let turn = Anthropic::read_response(&seed_001_response()).unwrap();
    assert_eq!(turn.stop_reason.as_deref(), Some("tool_use"));
    assert_eq!(
        turn.text,
        "I'll check the current weather in San Francisco for you."
    );
    assert_eq!(turn.calls[0].id, "toolu_01A09q90qw90lq917835lq9");
    assert_eq!(
        turn.calls[0].arguments,
        r#"{"location":"San Francisco, CA","unit":"celsius"}"#
    );

    let results = block_on(registry().call_all(&turn.calls));
    let message = Anthropic::results_entry(&turn.calls, &results).remove(0);
    assert_eq!(
        message,
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "15 degrees celsius"}
        ]})
    );

    let assistant = Anthropic::history_entry(&turn);
    assert_eq!(assistant["content"][0]["type"], "text");
    assert_eq!(assistant["content"][1], seed_001_response()["content"][1]);
}

#[test]
fn results_come_first_and_text_after_all_of_them() {
    let calls = [
        ToolCall::new("toolu_1", "get_weather", "{}"),
        ToolCall::new("toolu_2", "get_weather", "{}"),
    ];
    let responses = [ToolResponse::success("a"), ToolResponse::success("b")];
    let message = anthropic::results_message(
        &calls,
        &responses,
        Some("What should I do next?"),
        anthropic::ResultContent::Text,
    );
    let kinds: Vec<&str> = message["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["tool_result", "tool_result", "text"]);
    assert_eq!(message["content"][1]["tool_use_id"], "toolu_2");
}

#[test]
fn error_responses_set_is_error_with_instructive_text() {
    let turn = Anthropic::read_response(&json!({"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "toolu_x", "name": "get_weather", "input": {}},
        {"type": "tool_use", "id": "toolu_y", "name": "get_weather", "input": {"location": ""}},
        {"type": "tool_use", "id": "toolu_z", "name": "get_weather", "input": {"location": "Paris"}}
    ]}))
    .unwrap();
    let results = block_on(registry().call_all(&turn.calls));
    let message = Anthropic::results_entry(&turn.calls, &results).remove(0);
    let blocks = message["content"].as_array().unwrap();
    assert_eq!(blocks[0]["is_error"], true);
    assert!(
        blocks[0]["content"].as_str().unwrap().contains("location"),
        "{}",
        blocks[0]
    );
    assert_eq!(blocks[1]["is_error"], true);
    assert_eq!(
        blocks[1]["content"],
        "Error [INVALID_PARAM]: location is empty"
    );
    assert!(blocks[2].get("is_error").is_none());
}

#[test]
fn block_content_style_wraps_text_in_blocks() {
    let block = anthropic::tool_result(
        &ToolCall::new("t", "f", "{}"),
        &ToolResponse::success("15 degrees"),
        ResultContent::Blocks,
    );
    assert_eq!(
        block["content"],
        json!([{"type": "text", "text": "15 degrees"}])
    );
}

#[test]
fn tool_choice_spellings_including_any_and_parallel_switch() {
    assert_eq!(
        Anthropic::tool_choice(&ToolChoice::Auto, true),
        json!({"type": "auto"})
    );
    assert_eq!(
        Anthropic::tool_choice(&ToolChoice::Required, true),
        json!({"type": "any"})
    );
    assert_eq!(
        Anthropic::tool_choice(&ToolChoice::None, false),
        json!({"type": "none"})
    );
    assert_eq!(
        Anthropic::tool_choice(&ToolChoice::tool("get_weather"), false),
        json!({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true})
    );
}

fn streamed_events() -> Vec<Value> {
    vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "role": "assistant", "content": [], "stop_reason": null}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "both."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"location\": \"Par"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "is\"}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"location\": \"Oslo\"}"}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 40}}),
        json!({"type": "message_stop"}),
    ]
}

#[test]
fn streamed_tool_use_blocks_complete_only_at_block_stop() {
    let events = streamed_events();
    let mut stream = AnthropicStream::new();
    let mut early = Vec::new();
    for (i, event) in events.iter().enumerate() {
        stream.push(event).unwrap();
        let done = stream.take_completed();
        if i < 9 {
            assert!(
                done.is_empty(),
                "nothing completes before the first block stops (event {i})"
            );
        }
        early.extend(done);
    }
    assert_eq!(
        early.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["toolu_a", "toolu_b"]
    );
    let turn = stream.finish().unwrap();
    assert_eq!(turn.text, "Checking both.");
    assert_eq!(turn.stop_reason.as_deref(), Some("tool_use"));
    // The fragments' JSON, written as a whole response's `input` is: the same call streamed
    // or read whole has the same argument text.
    assert_eq!(turn.calls[0].arguments, "{\"location\":\"Paris\"}");
    let results = block_on(registry().call_all(&turn.calls));
    let message = Anthropic::results_entry(&turn.calls, &results).remove(0);
    assert_eq!(message["content"][1]["tool_use_id"], "toolu_b");
}

#[test]
fn a_stream_cut_inside_a_tool_use_block_dispatches_nothing() {
    let events = streamed_events();
    let mut stream = AnthropicStream::new();
    for event in &events[..8] {
        stream.push(event).unwrap();
    }
    assert!(stream.take_completed().is_empty());
    assert!(stream
        .finish()
        .unwrap_err()
        .message()
        .contains("still open"));
}

/// Found by fuzzing: when a streamed `input_json_delta` was lost, the truncated input was
/// handed out as a completed call. Anthropic's input is always an object, so the stream must
/// report the gap instead of releasing a partial call.
#[test]
fn stream_with_lost_input_fragments_never_releases_a_call() {
    let mut stream = AnthropicStream::new();
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": "}}),
        // The fragment `"Paris"}` never arrives.
    ];
    for event in &events {
        stream.push(event).unwrap();
    }
    let stop = stream.push(&json!({"type": "content_block_stop", "index": 0}));
    let error = stop.unwrap_err();
    assert!(
        error.to_string().contains("not a complete JSON object"),
        "{error}"
    );
    assert!(stream.take_completed().is_empty());
}
