//! `OpenAiResponses::with_store(false)` over loopback HTTP: every request says `store: false`,
//! asks for the reasoning items' encrypted content, never names a `previous_response_id`, and
//! sends the reasoning item back as the API sent it, encrypted content included; every
//! request is one openai-python's request types accept. Recorded streams:
//! `tests/fixtures/http/openai_responses_turn{1,2}.sse` (each names its source).

use serde_json::Value;
use tool_core::model::{OpenAiResponses, Reasoning, ReasoningEffort};
use tool_core::runner::{RunOptions, Runner};
use wiremock::Request;

use crate::http_support::{self, fixture, requests, server, sse};

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// The requests of the recorded two-turn run with `store` set to `store`.
async fn two_turns(store: bool) -> Vec<Request> {
    let route = "/v1/responses";
    let server = server(
        route,
        vec![
            sse(fixture("openai_responses_turn1.sse")),
            sse(fixture("openai_responses_turn2.sse")),
        ],
    )
    .await;
    let base = format!("{}/v1", server.uri());
    let model = OpenAiResponses::new("gpt-5.1-codex-max")
        .with_api_key("sk-test")
        .with_store(store)
        .with_endpoint(|e| http_support::test_endpoint(e, base));
    let (registry, weather) = http_support::registry();
    let options = RunOptions::new().reasoning(Reasoning::effort(ReasoningEffort::High));
    let runner = Runner::new(model, registry).with_options(options);
    runner.run(http_support::USER).await.expect("the run ends");
    assert_eq!(weather.runs(), 2);
    let sent = requests(&server).await;
    assert_eq!(sent.len(), 2);
    http_support::assert_sdk_accepts(route, &sent);
    sent
}

#[tokio::test]
async fn not_stored_the_reasoning_goes_back_encrypted_and_nothing_refers_to_a_stored_response() {
    let sent = two_turns(false).await;
    for request in &sent {
        let body = body(request);
        assert_eq!(body["store"], false);
        assert_eq!(
            body["include"],
            serde_json::json!(["reasoning.encrypted_content"])
        );
        assert!(body.get("previous_response_id").is_none());
    }
    // The reasoning item goes back whole, its encrypted content with it.
    let recorded = fixture("openai_responses_turn1.sse");
    let item = recorded
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "response.output_item.done")
        .map(|e| e["item"].clone())
        .find(|item| item["type"] == "reasoning")
        .expect("the recording has a reasoning item");
    assert!(item["encrypted_content"].as_str().unwrap().len() > 100);
    let second = body(&sent[1]);
    let reasoning: Vec<&Value> = second["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["type"] == "reasoning")
        .collect();
    assert_eq!(reasoning, [&item]);
}

#[tokio::test]
async fn stored_says_so_and_asks_for_nothing_more() {
    let sent = two_turns(true).await;
    for request in &sent {
        let body = body(request);
        assert_eq!(body["store"], true);
        assert!(body.get("include").is_none());
        assert!(body.get("previous_response_id").is_none());
    }
}
