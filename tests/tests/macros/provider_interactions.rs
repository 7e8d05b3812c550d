//! The Interactions API's reader and assembler: the model's steps of a whole `Interaction`
//! (the echoed input left out), the same turn from its SSE events whether a call comes whole
//! in `step.start` or in `arguments_delta` pieces, `function_result` steps in call order,
//! `tool_choice`, and malformed or cut streams as errors with their path. Shapes from the
//! official google-genai SDK's interactions types (`Interaction`, `StepStart`, `StepDelta`,
//! `StepStop`, `InteractionCompletedEvent`).

use serde_json::{json, Value};
use tool_core::provider::{
    AllowedMode, Api, Assembler, ChatApi, GeminiInteractions, GeminiInteractionsStream, ToolChoice,
};
use tool_core::{block_on, tool, tools, ToolErrorCode, ToolResponse};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 15 degrees")
}

/// The model's steps of a turn that thought, said a sentence and called twice.
fn model_steps() -> Vec<Value> {
    vec![
        json!({"type": "thought", "signature": "c2lnLTE=",
            "summary": [{"type": "text", "text": "Two cities."}]}),
        json!({"type": "model_output", "content": [{"type": "text", "text": "Checking."}]}),
        json!({"type": "function_call", "id": "call_1", "name": "get_weather",
            "arguments": {"city": "Paris"}}),
        json!({"type": "function_call", "id": "call_2", "name": "get_weather",
            "arguments": {"city": "Tokyo"}}),
    ]
}

fn whole() -> Value {
    let mut steps = vec![json!({"type": "user_input",
        "content": [{"type": "text", "text": "Weather in Paris and Tokyo?"}]})];
    steps.extend(model_steps());
    json!({"id": "v1_int_1", "status": "requires_action", "steps": steps,
        "usage": {"total_input_tokens": 10, "total_output_tokens": 5}})
}

/// The same turn streamed: the first call whole in `step.start`, the second in pieces.
fn events() -> Vec<Value> {
    vec![
        json!({"event_type": "interaction.created", "interaction": {"id": "v1_int_1", "status": "in_progress"}}),
        json!({"event_type": "step.start", "index": 0, "step": {"type": "thought"}}),
        json!({"event_type": "step.delta", "index": 0, "delta": {"type": "thought_summary", "content": {"type": "text", "text": "Two "}}}),
        json!({"event_type": "step.delta", "index": 0, "delta": {"type": "thought_summary", "content": {"type": "text", "text": "cities."}}}),
        json!({"event_type": "step.delta", "index": 0, "delta": {"type": "thought_signature", "signature": "c2lnLTE="}}),
        json!({"event_type": "step.stop", "index": 0}),
        json!({"event_type": "step.start", "index": 1, "step": {"type": "model_output", "content": []}}),
        json!({"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": "Check"}}),
        json!({"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": "ing."}}),
        json!({"event_type": "step.stop", "index": 1}),
        json!({"event_type": "step.start", "index": 2, "step": {"type": "function_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}}),
        json!({"event_type": "step.stop", "index": 2}),
        json!({"event_type": "step.start", "index": 3, "step": {"type": "function_call", "id": "call_2", "name": "get_weather", "arguments": {}}}),
        json!({"event_type": "step.delta", "index": 3, "delta": {"type": "arguments_delta", "arguments": "{\"city\":"}}),
        json!({"event_type": "step.delta", "index": 3, "delta": {"type": "arguments_delta", "arguments": "\"Tokyo\"}"}}),
        json!({"event_type": "step.stop", "index": 3}),
        json!({"event_type": "interaction.completed", "interaction": {"id": "v1_int_1", "status": "requires_action", "usage": {"total_input_tokens": 10}}}),
    ]
}

fn assemble(events: &[Value]) -> Result<tool_core::provider::AssistantTurn, String> {
    let mut stream = GeminiInteractions::stream();
    for event in events {
        stream.push(event).map_err(|e| e.to_string())?;
    }
    stream.finish().map_err(|e| e.to_string())
}

#[test]
fn a_whole_interaction_reads_the_models_steps_only() {
    let turn = GeminiInteractions::read_response(&whole()).unwrap();
    assert_eq!(turn.text, "Checking.");
    let calls: Vec<(&str, &str)> = turn
        .calls
        .iter()
        .map(|c| (c.id.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            ("call_1", r#"{"city":"Paris"}"#),
            ("call_2", r#"{"city":"Tokyo"}"#)
        ]
    );
    assert_eq!(turn.stop_reason.as_deref(), Some("requires_action"));
    assert_eq!(turn.response_id.as_deref(), Some("v1_int_1"));
    assert_eq!(
        turn.native,
        model_steps(),
        "the echoed user_input is not the model's"
    );
    assert_eq!(
        GeminiInteractions::history_entry(&turn),
        Value::Array(model_steps()),
        "sent back as it came, the thought's signature unchanged"
    );
}

#[test]
fn the_streamed_turn_is_the_whole_turn_with_calls_whole_or_in_pieces() {
    let streamed = assemble(&events()).unwrap();
    assert_eq!(
        streamed,
        GeminiInteractions::read_response(&whole()).unwrap()
    );
}

#[test]
fn a_stream_needs_no_done_line_but_its_completion() {
    let mut cut = events();
    cut.pop();
    let err = assemble(&cut).unwrap_err();
    assert!(
        err.contains("interaction.completed") && err.contains("2 call(s)"),
        "{err}"
    );
}

#[test]
fn a_call_cut_inside_its_arguments_is_refused() {
    let mut events = events();
    // Drop the last `arguments_delta` and the call's `step.stop`.
    events.remove(15);
    events.remove(14);
    let err = assemble(&events).unwrap_err();
    assert!(err.contains("steps[3]"), "{err}");

    let mut bad = self::events();
    bad[14]["delta"]["arguments"] = json!("\"Tokyo\"");
    let err = assemble(&bad).unwrap_err();
    assert!(err.contains("steps[3].arguments"), "{err}");
}

#[test]
fn malformed_steps_are_errors_with_their_path() {
    let mut response = whole();
    response["steps"][3]["arguments"] = json!("{\"city\": \"Paris\"}");
    let err = GeminiInteractions::read_response(&response).unwrap_err();
    assert_eq!(err.path(), "steps[3].arguments");
    assert!(
        GeminiInteractions::read_response(&json!({"steps": []})).is_err(),
        "no status"
    );
    let mut stream = GeminiInteractionsStream::new();
    let err = stream
        .push(&json!({"event_type": "step.delta", "index": 7, "delta": {"type": "text", "text": "x"}}))
        .unwrap_err();
    assert!(err.to_string().contains("step 7"), "{err}");
    let err = stream
        .push(&json!({"event_type": "error", "error": {"message": "quota exceeded"}}))
        .unwrap_err();
    assert!(err.to_string().contains("quota exceeded"), "{err}");
}

#[test]
fn results_are_function_result_steps_in_call_order_with_is_error_for_a_failure() {
    let turn = GeminiInteractions::read_response(&whole()).unwrap();
    let mut results = block_on(tools![get_weather].call_all(&turn.calls));
    results[1] = ToolResponse::error(ToolErrorCode::Unknown, "offline");
    let steps = GeminiInteractions::results_entry(&turn.calls, &results);
    assert_eq!(
        steps[0],
        json!({"type": "function_result", "call_id": "call_1",
        "name": "get_weather", "result": "Paris: 15 degrees"})
    );
    assert_eq!(steps[1]["call_id"], "call_2");
    assert_eq!(steps[1]["is_error"], true);
    // A missing result still answers its call.
    let steps = GeminiInteractions::results_entry(&turn.calls, &results[..1]);
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1]["is_error"], true);
}

#[test]
fn tools_and_tool_choice_in_the_apis_words() {
    let registry = tools![get_weather];
    let tools = GeminiInteractions::tools(registry.definitions());
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(
        tools[0]["parameters"],
        *registry.definitions()[0].input_schema
    );
    assert_eq!(*registry.tool_list(Api::GeminiInteractions).value(), tools);
    let choice = |c: &ToolChoice| GeminiInteractions::tool_choice(c, false);
    assert_eq!(choice(&ToolChoice::Auto), "auto");
    assert_eq!(choice(&ToolChoice::None), "none");
    assert_eq!(choice(&ToolChoice::Required), "any");
    assert_eq!(
        choice(&ToolChoice::tool("get_weather")),
        json!({"allowed_tools": {"mode": "any", "tools": ["get_weather"]}})
    );
    assert_eq!(
        choice(&ToolChoice::allowed(["get_weather"], AllowedMode::Auto)),
        json!({"allowed_tools": {"mode": "validated", "tools": ["get_weather"]}})
    );
    let fields = GeminiInteractions::tool_fields(registry.definitions(), &ToolChoice::Auto, false);
    assert_eq!(fields["generation_config"], json!({"tool_choice": "auto"}));
}

#[test]
fn a_turn_built_by_hand_is_written_as_output_and_call_steps() {
    let turn = tool_core::provider::AssistantTurn::new(
        "On it.",
        vec![tool_core::ToolCall::new(
            "c1",
            "get_weather",
            r#"{"city":"Oslo"}"#,
        )],
    );
    assert_eq!(
        GeminiInteractions::history_entry(&turn),
        json!([
            {"type": "model_output", "content": [{"type": "text", "text": "On it."}]},
            {"type": "function_call", "id": "c1", "name": "get_weather", "arguments": {"city": "Oslo"}}
        ])
    );
}
