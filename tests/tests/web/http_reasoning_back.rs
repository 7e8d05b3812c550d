//! Chat Completions reasoning goes back on the assistant message of a tool-call turn, in the
//! field it came in: DeepSeek's thinking mode answers 400 when a later request lacks a
//! tool-call turn's `reasoning_content` (its "Thinking Mode" guide, tool calls), and vLLM
//! streams `reasoning`. A turn without calls does not carry it (DeepSeek: such reasoning is
//! dropped, and ignored if sent). Streamed and whole responses alike.

use serde_json::{json, Value};
use tool_core::model::{Message, OpenAiChat};
use wiremock::ResponseTemplate;

use crate::http_support::{
    self, assert_body_golden, converse, fixture, one_turn, registry, requests, server, sse,
    test_endpoint, FINAL_TEXT,
};

const ROUTE: &str = "/v1/chat/completions";
const REASONING: &str =
    "The user asks about the weather in San Francisco. I should use the weather tool.";

fn body(request: &wiremock::Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// DeepSeek's recorded stream, then the answer: the second request carries the reasoning as
/// `reasoning_content` on the assistant message, byte for byte as the golden file shows.
#[tokio::test]
async fn a_streamed_deepseek_tool_call_turn_sends_its_reasoning_content_back() {
    let server = server(
        ROUTE,
        vec![
            sse(fixture("reasoning_openai_chat_turn1.sse")),
            sse(fixture("openai_chat_turn2.sse")),
        ],
    )
    .await;
    let model = OpenAiChat::compatible(
        format!("{}/v1", server.uri()),
        "deepseek-v4-flash",
        Some("sk-test"),
    )
    .with_endpoint(|e| test_endpoint(e.clone(), e.base_url));
    let (registry, weather) = registry();
    let conversation = converse(&model, &registry).await;
    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    assert_eq!(weather.runs(), 1);

    let received = requests(&server).await;
    assert_eq!(
        body(&received[1])["messages"][2],
        json!({"role": "assistant", "content": null, "reasoning_content": REASONING,
               "tool_calls": [{"id": "call_00_IhCAliIHtM9gKpgfqbBV9873", "type": "function",
                               "function": {"name": "get_weather",
                                            "arguments": "{\"city\": \"San Francisco\"}"}}]})
    );
    http_support::assert_sdk_accepts(ROUTE, &received);
    assert_body_golden(
        &received[1],
        "http_openai_chat_deepseek_second_request.json",
    );
}

/// A whole (non-streamed) Chat Completions response, as DeepSeek and vLLM answer with
/// `stream: false`; `field` holds the reasoning.
fn whole(id: &str, field: &str, reasoning: &str, content: Value, calls: Option<Value>) -> Value {
    let mut message = json!({"role": "assistant", "content": content});
    message[field] = json!(reasoning);
    let finish = if let Some(calls) = calls {
        message["tool_calls"] = calls;
        "tool_calls"
    } else {
        "stop"
    };
    json!({
        "id": id, "object": "chat.completion", "created": 1786782779,
        "model": "deepseek-v4-flash",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
        "usage": {"prompt_tokens": 374, "completion_tokens": 61, "total_tokens": 435,
                  "completion_tokens_details": {"reasoning_tokens": 17}}
    })
}

/// Three whole turns (a call, its answer, the answer to a second question) with the reasoning
/// in `reasoning_content` (DeepSeek) and in `reasoning` (vLLM): each later request carries the
/// call turn's reasoning in that field and nothing in the other; the text turn carries none.
#[tokio::test]
async fn whole_responses_send_a_call_turns_reasoning_back_in_its_own_field_and_drop_a_text_turns() {
    for (field, other) in [
        ("reasoning_content", "reasoning"),
        ("reasoning", "reasoning_content"),
    ] {
        let calls = json!([{"index": 0, "id": "call_00_whole", "type": "function",
                            "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]);
        let responses = [
            whole("c1", field, REASONING, json!(""), Some(calls)),
            whole("c2", field, "Paris is rainy.", json!(FINAL_TEXT), None),
            whole(
                "c3",
                field,
                "Nothing to look up.",
                json!("You're welcome."),
                None,
            ),
        ];
        let server = server(
            ROUTE,
            responses
                .iter()
                .map(|r| ResponseTemplate::new(200).set_body_json(r))
                .collect(),
        )
        .await;
        let model = OpenAiChat::compatible(format!("{}/v1", server.uri()), "m", None)
            .with_endpoint(|e| test_endpoint(e.clone(), e.base_url).with_stream(false));
        let (registry, _) = registry();
        let mut conversation = converse(&model, &registry).await;
        assert_eq!(
            conversation.outcome.as_deref().ok(),
            Some(FINAL_TEXT),
            "{field}"
        );
        conversation.messages.push(Message::user("Thanks!"));
        let (_, turn) = one_turn(&model, &conversation.messages, &registry).await;
        assert_eq!(turn.unwrap().reasoning, "Nothing to look up.", "{field}");

        let received = requests(&server).await;
        assert_eq!(received.len(), 3, "{field}");
        for request in &received[1..] {
            let sent = body(request);
            let call_turn = &sent["messages"][2];
            assert_eq!(call_turn["tool_calls"][0]["id"], "call_00_whole", "{field}");
            assert_eq!(call_turn[field], REASONING, "{field}: {call_turn}");
            assert!(call_turn.get(other).is_none(), "{field}: {call_turn}");
        }
        let third = body(&received[2]);
        let text_turn = &third["messages"][4];
        assert_eq!(
            *text_turn,
            json!({"role": "assistant", "content": FINAL_TEXT}),
            "{field}: a text turn's reasoning is dropped"
        );
        http_support::assert_sdk_accepts(ROUTE, &received);
    }
}
