//! Non-streamed requests (`Endpoint::with_stream(false)`) for Anthropic, OpenAI Responses and
//! Gemini (OpenAI Chat's is in `http_behaviour.rs`): the whole JSON response becomes the same
//! events and turn, and the request asks for no stream. Response shapes are those of each
//! API reference's non-streamed example (Messages `content` blocks, Responses `output`
//! items, `generateContent` candidates); ids and text are this test's.

use crate::http_support;

use http_support::{converse, registry, requests, server, test_endpoint, FINAL_TEXT};
use serde_json::{json, Value};
use tool_core::model::{Anthropic, Gemini, Message, Model, OpenAiResponses, StopReason};
use wiremock::ResponseTemplate;

async fn run_whole(
    route: &str,
    first: Value,
    second: Value,
    model: impl FnOnce(String) -> Box<dyn Model>,
    base_path: &str,
) -> (Vec<Message>, Vec<Value>) {
    let server = server(
        route,
        vec![
            ResponseTemplate::new(200).set_body_json(first),
            ResponseTemplate::new(200).set_body_json(second),
        ],
    )
    .await;
    let (registry, weather) = registry();
    let model = model(format!("{}{base_path}", server.uri()));
    let conversation = converse(model.as_ref(), &registry).await;
    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    assert_eq!(weather.runs(), 2);
    let first_turn = &conversation.turns[0];
    assert_eq!(http_support::ready_calls(first_turn).len(), 2);
    assert_eq!(
        http_support::text_of(first_turn),
        "Let me check both cities."
    );
    let bodies = requests(&server)
        .await
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    (conversation.messages, bodies)
}

fn first_turn(messages: &[Message]) -> &tool_core::model::ModelTurn {
    match &messages[1] {
        Message::Assistant(turn) => turn,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn anthropic_whole() {
    let first = json!({"id": "msg_01Whole", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "Let me check both cities."},
            {"type": "tool_use", "id": "toolu_A", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_B", "name": "get_weather", "input": {"city": "Tokyo"}}],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 377, "output_tokens": 90, "cache_read_input_tokens": 0}});
    let second = json!({"id": "msg_02Whole", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": FINAL_TEXT}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 540, "output_tokens": 19}});
    let (messages, bodies) = run_whole(
        "/v1/messages",
        first,
        second,
        |base| {
            Box::new(
                Anthropic::new("claude-sonnet-4-5")
                    .with_endpoint(|e| test_endpoint(e, base).with_stream(false)),
            )
        },
        "/v1",
    )
    .await;
    let turn = first_turn(&messages);
    assert_eq!(turn.stop_reason, StopReason::ToolUse);
    assert_eq!(turn.usage.map(|u| u.total()), Some(467));
    assert_eq!(turn.response_id.as_deref(), Some("msg_01Whole"));
    assert!(bodies[0].get("stream").is_none());
    assert_eq!(
        bodies[1]["messages"][2]["content"][1]["tool_use_id"],
        "toolu_B"
    );
}

#[tokio::test]
async fn openai_responses_whole() {
    let first = json!({"id": "resp_whole1", "object": "response", "status": "completed", "model": "gpt-4.1",
        "output": [
            {"id": "msg_w1", "type": "message", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Let me check both cities.", "annotations": []}]},
            {"id": "fc_w1", "type": "function_call", "status": "completed", "call_id": "call_w1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
            {"id": "fc_w2", "type": "function_call", "status": "completed", "call_id": "call_w2", "name": "get_weather", "arguments": "{\"city\":\"Tokyo\"}"}],
        "usage": {"input_tokens": 91, "output_tokens": 52, "total_tokens": 143}});
    let second = json!({"id": "resp_whole2", "object": "response", "status": "completed", "model": "gpt-4.1",
        "output": [{"id": "msg_w2", "type": "message", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": FINAL_TEXT, "annotations": []}]}],
        "usage": {"input_tokens": 170, "output_tokens": 18, "total_tokens": 188}});
    let (messages, bodies) = run_whole(
        "/v1/responses",
        first,
        second,
        |base| {
            Box::new(
                OpenAiResponses::new("gpt-4.1")
                    .with_endpoint(|e| test_endpoint(e, base).with_stream(false)),
            )
        },
        "/v1",
    )
    .await;
    let turn = first_turn(&messages);
    assert_eq!(
        turn.stop_reason,
        StopReason::ToolUse,
        "completed with calls"
    );
    assert_eq!(turn.usage.map(|u| u.total()), Some(143));
    assert_eq!(turn.response_id.as_deref(), Some("resp_whole1"));
    assert!(bodies[0].get("stream").is_none());
    let input = bodies[1]["input"].as_array().unwrap();
    assert_eq!(input[2]["id"], "fc_w1");
    assert_eq!(
        input[5],
        json!({"type": "function_call_output", "call_id": "call_w2", "output": "22 C, sunny"})
    );
}

#[tokio::test]
async fn gemini_whole() {
    let first = json!({"candidates": [{"content": {"role": "model", "parts": [
            {"text": "Let me check both cities."},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
            {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}]},
        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 74, "candidatesTokenCount": 36, "totalTokenCount": 110},
        "modelVersion": "gemini-2.5-flash", "responseId": "gemini_whole1"});
    let second = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": FINAL_TEXT}]},
        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 150, "candidatesTokenCount": 17, "totalTokenCount": 167}});
    let (messages, bodies) = run_whole(
        "/v1beta/models/gemini-2.5-flash:generateContent",
        first,
        second,
        |base| {
            Box::new(
                Gemini::new("gemini-2.5-flash")
                    .with_endpoint(|e| test_endpoint(e, base).with_stream(false)),
            )
        },
        "/v1beta",
    )
    .await;
    let turn = first_turn(&messages);
    assert_eq!(turn.stop_reason, StopReason::ToolUse, "STOP with calls");
    assert_eq!(turn.usage.map(|u| u.total()), Some(110));
    assert_eq!(turn.response_id.as_deref(), Some("gemini_whole1"));
    assert_eq!(bodies.len(), 2);
    let answers = &bodies[1]["contents"][2]["parts"];
    assert_eq!(
        answers[1]["functionResponse"]["response"]["output"],
        "22 C, sunny"
    );
}
