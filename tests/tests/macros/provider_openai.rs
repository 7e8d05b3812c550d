//! OpenAI round trips: Chat Completions (the guide's two parallel `web_search` calls, whole and
//! streamed) and Responses `function_call` items, to `ToolCall`s and back to result messages.

use serde_json::{json, Value};
use tool_core::provider::{
    Assembler, ChatApi, OpenAiChat, OpenAiChatStream, OpenAiResponses, ToolChoice,
};
use tool_core::{block_on, tool, tools, ToolRegistry};

/// Searches the web.
#[tool(read_only)]
fn web_search(
    /// What to search for.
    query: String,
) -> String {
    format!("results for {query}")
}

fn registry() -> ToolRegistry {
    tools![web_search]
}

/// Seed 003 section 5.3: one response with two independent calls.
fn seed_003_response() -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "",
            "tool_calls": [
                {"index": 0, "id": "call_0_efe167bd-74fc-428a-8a04-a3d1a8b2366f", "type": "function",
                 "function": {"name": "web_search", "arguments": "{\"query\":\"宝马X1 价格 2023\"}"}},
                {"index": 1, "id": "call_1_faf32767-9218-46a2-a4a6-3a153969928d", "type": "function",
                 "function": {"name": "web_search", "arguments": "{\"query\":\"小米Su7 价格 2023\"}"}}
            ]}}]
    })
}

#[test]
fn seed_parallel_calls_round_trip_to_one_tool_message_each_in_order() {
    let registry = registry();
    let turn = OpenAiChat::read_response(&seed_003_response()).unwrap();
    assert_eq!(turn.stop_reason.as_deref(), Some("tool_calls"));
    let ids: Vec<&str> = turn.calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "call_0_efe167bd-74fc-428a-8a04-a3d1a8b2366f",
            "call_1_faf32767-9218-46a2-a4a6-3a153969928d"
        ]
    );
    assert_eq!(turn.calls[0].arguments, "{\"query\":\"宝马X1 价格 2023\"}");

    let results = block_on(registry.call_all(&turn.calls));
    let messages = OpenAiChat::results_entry(&turn.calls, &results);
    assert_eq!(messages.len(), 2);
    assert_eq!(
        messages[0],
        json!({"role": "tool", "tool_call_id": ids[0], "content": "results for 宝马X1 价格 2023"})
    );
    assert_eq!(messages[1]["tool_call_id"], ids[1]);

    let assistant = OpenAiChat::history_entry(&turn);
    assert_eq!(
        assistant["content"],
        Value::Null,
        "empty text is sent as null"
    );
    assert_eq!(assistant["tool_calls"][1]["id"], ids[1]);
    assert_eq!(
        assistant["tool_calls"][1]["function"]["arguments"],
        turn.calls[1].arguments
    );
}

#[test]
fn content_and_calls_in_one_response_keeps_the_text() {
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": "I recommend these three templates.",
        "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "show_recommendation_cards", "arguments": "{\"cards\":[]}"}}]}}]});
    let turn = OpenAiChat::read_response(&response).unwrap();
    assert_eq!(turn.text, "I recommend these three templates.");
    assert_eq!(turn.calls[0].name, "show_recommendation_cards");
    assert_eq!(
        OpenAiChat::history_entry(&turn)["content"],
        "I recommend these three templates."
    );
}

#[test]
fn unknown_tool_and_bad_arguments_still_get_one_result_each() {
    let registry = registry();
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "web_serch", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "web_search", "arguments": "{\"query\":"}}]}}]});
    let turn = OpenAiChat::read_response(&response).unwrap();
    let results = block_on(registry.call_all(&turn.calls));
    let messages = OpenAiChat::results_entry(&turn.calls, &results);
    assert_eq!(messages.len(), 2);
    assert!(messages[0]["content"]
        .as_str()
        .unwrap()
        .starts_with("Error [NOT_FOUND]"));
    assert!(messages[1]["content"]
        .as_str()
        .unwrap()
        .starts_with("Error [INVALID_FORMAT]"));
}

#[test]
fn missing_results_are_filled_so_every_call_is_answered() {
    let turn = OpenAiChat::read_response(&seed_003_response()).unwrap();
    let messages = OpenAiChat::results_entry(&turn.calls, &[]);
    assert_eq!(messages.len(), 2);
    assert!(messages[1]["content"]
        .as_str()
        .unwrap()
        .contains("no result"));
}

fn chunk(delta: Value, finish: Value) -> Value {
    json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

fn streamed_seed_003() -> Vec<Value> {
    vec![
        chunk(json!({"role": "assistant", "content": null}), Value::Null),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_0", "type": "function", "function": {"name": "web_search", "arguments": ""}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"query\":"}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 1, "id": "call_1", "type": "function", "function": {"name": "web_search", "arguments": "{\"qu"}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"宝马X1\"}"}}]}),
            Value::Null,
        ),
        chunk(
            json!({"tool_calls": [{"index": 1, "function": {"arguments": "ery\":\"小米Su7\"}"}}]}),
            Value::Null,
        ),
        chunk(json!({}), json!("tool_calls")),
    ]
}

#[test]
fn streamed_deltas_are_assembled_by_index_not_id() {
    let mut stream = OpenAiChatStream::new();
    for c in streamed_seed_003() {
        stream.push(&c).unwrap();
    }
    stream.push_data("[DONE]").unwrap();
    let turn = stream.finish().unwrap();
    assert_eq!(turn.calls.len(), 2);
    assert_eq!(
        (turn.calls[0].id.as_str(), turn.calls[0].arguments.as_str()),
        ("call_0", "{\"query\":\"宝马X1\"}")
    );
    assert_eq!(
        (turn.calls[1].id.as_str(), turn.calls[1].arguments.as_str()),
        ("call_1", "{\"query\":\"小米Su7\"}")
    );
    let results = block_on(registry().call_all(&turn.calls));
    assert_eq!(
        OpenAiChat::results_entry(&turn.calls, &results)[1]["content"],
        "results for 小米Su7"
    );
}

#[test]
fn a_stream_cut_before_finish_reason_dispatches_nothing() {
    let mut stream = OpenAiChatStream::new();
    let chunks = streamed_seed_003();
    for c in &chunks[..chunks.len() - 1] {
        stream.push(c).unwrap();
    }
    assert!(!stream.is_finished());
    let err = stream.finish().unwrap_err();
    assert!(err.message().contains("not dispatched"), "{err}");
}

#[test]
fn tool_choice_and_parallel_switch_spellings() {
    assert_eq!(OpenAiChat::tool_choice(&ToolChoice::Auto, true), "auto");
    assert_eq!(
        OpenAiChat::tool_choice(&ToolChoice::Required, true),
        "required"
    );
    assert_eq!(OpenAiChat::tool_choice(&ToolChoice::None, true), "none");
    assert_eq!(
        OpenAiChat::tool_choice(&ToolChoice::tool("web_search"), true),
        json!({"type": "function", "function": {"name": "web_search"}})
    );
    let fields = serde_json::Value::Object(OpenAiChat::tool_fields(
        registry().definitions(),
        &ToolChoice::Auto,
        false,
    ));
    assert_eq!(fields["parallel_tool_calls"], false);
    assert!(
        serde_json::Value::Object(OpenAiChat::tool_fields(&[], &ToolChoice::Auto, true))
            .get("parallel_tool_calls")
            .is_none()
    );
    assert_eq!(
        OpenAiResponses::tool_choice(&ToolChoice::tool("web_search"), true),
        json!({"type": "function", "name": "web_search"})
    );
}

/// A Responses API output with reasoning, text and two `function_call` items.
fn responses_output() -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Searching both.", "annotations": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "web_search", "arguments": "{\"query\":\"a\"}", "status": "completed"},
        {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "web_search", "arguments": "{\"query\":\"b\"}", "status": "completed"}
    ]})
}

#[test]
fn responses_function_calls_round_trip_to_function_call_outputs() {
    let turn = OpenAiResponses::read_response(&responses_output()).unwrap();
    assert_eq!(turn.text, "Searching both.");
    assert_eq!(
        turn.calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["call_a", "call_b"]
    );
    let results = block_on(registry().call_all(&turn.calls));
    let outputs = OpenAiResponses::results_entry(&turn.calls, &results);
    assert_eq!(
        outputs[1],
        json!({"type": "function_call_output", "call_id": "call_b", "output": "results for b"})
    );
    // Read from the API, the output items (reasoning included) go back exactly as they came.
    let items = OpenAiResponses::history_entry(&turn);
    assert_eq!(items, responses_output()["output"]);
    // Without them (a turn built by hand), the history is rebuilt from text and calls.
    let rebuilt = OpenAiResponses::history_entry(&turn.with_native(Vec::new()));
    assert_eq!(
        rebuilt[0],
        json!({"role": "assistant", "content": "Searching both."})
    );
    assert_eq!(
        rebuilt[1],
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "web_search", "arguments": "{\"query\":\"a\"}"})
    );
}

#[test]
fn responses_incomplete_function_call_is_never_dispatched() {
    let mut output = responses_output();
    output["output"][3]["status"] = json!("in_progress");
    let err = OpenAiResponses::read_response(&output).unwrap_err();
    assert_eq!(err.path(), "output[3]");
}

#[test]
fn responses_streamed_events_complete_calls_at_output_item_done() {
    use tool_core::provider::OpenAiResponsesStream;
    let events = [
        json!({"type": "response.created", "response": {"status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "item_id": "msg_1", "content_index": 0, "delta": "Searching."}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "web_search", "arguments": "", "status": "in_progress"}}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_1", "delta": "{\"query\":"}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_1", "delta": "\"rust\"}"}),
        json!({"type": "response.function_call_arguments.done", "output_index": 1, "item_id": "fc_1", "arguments": "{\"query\":\"rust\"}"}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "web_search", "arguments": "{\"query\":\"rust\"}", "status": "completed"}}),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    ];
    let mut cut = OpenAiResponsesStream::new();
    for e in &events[..6] {
        cut.push(e).unwrap();
    }
    assert!(cut.finish().unwrap_err().message().contains("still open"));
    let mut stream = OpenAiResponsesStream::new();
    for e in &events {
        stream.push(e).unwrap();
    }
    let turn = stream.finish().unwrap();
    assert_eq!(turn.text, "Searching.");
    assert_eq!(turn.calls[0].id, "call_a");
    let results = block_on(registry().call_all(&turn.calls));
    assert_eq!(
        OpenAiResponses::results_entry(&turn.calls, &results)[0]["output"],
        "results for rust"
    );
}

#[test]
fn repeated_ids_in_later_deltas_are_not_appended() {
    let mut stream = OpenAiChatStream::new();
    stream.push(&chunk(json!({"tool_calls": [{"index": 0, "id": "call_0", "type": "function", "function": {"name": "web_search", "arguments": "{\"query\""}}]}), Value::Null)).unwrap();
    stream.push(&chunk(json!({"tool_calls": [{"index": 0, "id": "call_0", "type": "function", "function": {"name": "web_search", "arguments": ":\"x\"}"}}]}), json!("tool_calls"))).unwrap();
    let turn = stream.finish().unwrap();
    assert_eq!(
        (
            turn.calls[0].id.as_str(),
            turn.calls[0].name.as_str(),
            turn.calls[0].arguments.as_str()
        ),
        ("call_0", "web_search", "{\"query\":\"x\"}")
    );
}

#[test]
fn content_parts_arrays_are_read_as_text() {
    let message = json!({"role": "assistant", "content": [{"type": "text", "text": "Part one. "}, {"type": "text", "text": "Part two."}]});
    assert_eq!(
        OpenAiChat::read_response(&json!({"choices": [{"message": message}]}))
            .unwrap()
            .text,
        "Part one. Part two."
    );
}
