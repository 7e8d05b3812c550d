//! HTTP adapter behaviour beyond the per-adapter scenarios: the Retry-After cap, errors that
//! are not retried, connection failures, streamed error events, whole (non-streamed)
//! responses, headers and extra fields on the wire, and `from_vars`.

use crate::http_support;

use std::time::{Duration, Instant};

use http_support::{converse, fixture, registry, requests, server, sse, test_endpoint, FINAL_TEXT};
use serde_json::json;
use tool_core::model::{from_vars, Anthropic, Gemini, Model, ModelErrorKind, OpenAiChat};
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn chat(base: String) -> OpenAiChat {
    OpenAiChat::new("gpt-4o")
        .with_api_key("sk-test")
        .with_endpoint(|e| test_endpoint(e, base))
}

#[tokio::test]
async fn a_retry_after_longer_than_the_cap_is_returned_not_waited() {
    let limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "120")
        .set_body_json(json!({"error": {"message": "Rate limit reached", "type": "requests"}}));
    let server = server("/v1/chat/completions", vec![limited]).await;
    let (registry, weather) = registry();
    let model = chat(format!("{}/v1", server.uri()));
    let started = Instant::now();
    let error = converse(&model, &registry).await.outcome.unwrap_err();

    assert_eq!(error.kind(), ModelErrorKind::RateLimited);
    assert_eq!(error.retry_after(), Some(Duration::from_secs(120)));
    assert_eq!(error.message(), "Rate limit reached");
    assert_eq!(requests(&server).await.len(), 1);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(weather.runs(), 0);
}

#[tokio::test]
async fn an_auth_error_is_not_retried_and_keeps_the_providers_message() {
    let denied = ResponseTemplate::new(401).set_body_json(json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}));
    let server = server("/v1/messages", vec![denied]).await;
    let (registry, _) = registry();
    let model = Anthropic::new("claude-sonnet-4-5")
        .with_api_key("bad")
        .with_endpoint(|e| test_endpoint(e, format!("{}/v1", server.uri())));
    let error = converse(&model, &registry).await.outcome.unwrap_err();

    assert_eq!(
        (error.kind(), error.status()),
        (ModelErrorKind::Auth, Some(401))
    );
    assert!(!error.is_retryable());
    assert_eq!(error.message(), "invalid x-api-key");
    assert_eq!(requests(&server).await.len(), 1);
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_error_after_the_retries() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (registry, weather) = registry();
    let model = chat(format!("http://127.0.0.1:{port}/v1"));
    let error = converse(&model, &registry).await.outcome.unwrap_err();

    assert_eq!(error.kind(), ModelErrorKind::Transport, "{error}");
    assert!(error.is_retryable());
    assert_eq!(error.status(), None);
    // The client's own error stays reachable as the cause.
    let cause = std::error::Error::source(&error).expect("the transport error is kept");
    assert!(cause.is::<reqwest::Error>(), "{cause:?}");
    assert_eq!(weather.runs(), 0);
}

#[tokio::test]
async fn a_streamed_overloaded_error_is_a_server_error_after_the_text() {
    let body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n\
event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Checking\"}}\n\n\
event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
    let server = server("/v1/messages", vec![sse(body)]).await;
    let (registry, weather) = registry();
    let model = Anthropic::new("claude-sonnet-4-5")
        .with_endpoint(|e| test_endpoint(e, format!("{}/v1", server.uri())));
    let conversation = converse(&model, &registry).await;
    let error = conversation.outcome.unwrap_err();

    assert_eq!(error.kind(), ModelErrorKind::Server);
    assert!(error.is_retryable());
    assert_eq!(error.message(), "Overloaded (streamed error event)");
    assert_eq!(http_support::text_of(&conversation.turns[0]), "Checking");
    assert_eq!(
        requests(&server).await.len(),
        1,
        "a started body is never retried"
    );
    assert_eq!(weather.runs(), 0);
}

/// The non-streamed Chat Completions response of the function-calling guide's shape: a
/// message with `tool_calls` and `finish_reason: "tool_calls"`, then a plain answer.
#[tokio::test]
async fn whole_responses_run_the_same_two_turns() {
    let first = json!({
        "id": "chatcmpl-whole1", "object": "chat.completion", "created": 1731321600, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "Let me check both cities.", "refusal": null,
            "tool_calls": [
                {"id": "call_paris01", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_tokyo02", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Tokyo\"}"}}]}}],
        "usage": {"prompt_tokens": 88, "completion_tokens": 46, "total_tokens": 134}
    });
    let second = json!({
        "id": "chatcmpl-whole2", "object": "chat.completion", "created": 1731321601, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": FINAL_TEXT}}],
        "usage": {"prompt_tokens": 160, "completion_tokens": 17, "total_tokens": 177}
    });
    let server = server(
        "/v1/chat/completions",
        vec![
            ResponseTemplate::new(200).set_body_json(first),
            ResponseTemplate::new(200).set_body_json(second),
        ],
    )
    .await;
    let (registry, weather) = registry();
    let model = chat(format!("{}/v1", server.uri())).with_endpoint(|e| e.with_stream(false));
    let conversation = converse(&model, &registry).await;

    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    assert_eq!(weather.runs(), 2);
    assert_eq!(http_support::ready_calls(&conversation.turns[0]).len(), 2);
    let received = requests(&server).await;
    let body: serde_json::Value = serde_json::from_slice(&received[1].body).unwrap();
    assert!(body.get("stream").is_none() && body.get("stream_options").is_none());
    let turn = match &conversation.messages[1] {
        tool_core::model::Message::Assistant(turn) => turn,
        other => panic!("{other:?}"),
    };
    assert_eq!(turn.usage.map(|u| u.total()), Some(134));
    assert_eq!(turn.response_id.as_deref(), Some("chatcmpl-whole1"));
}

#[tokio::test]
async fn headers_and_extra_fields_reach_the_server() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        ))
        .and(header("x-goog-api-key", "test-key"))
        .and(header("x-team", "search"))
        .and(body_partial_json(
            json!({"generationConfig": {"temperature": 0}}),
        ))
        .respond_with(sse(fixture("gemini_turn2.sse")))
        .mount(&server)
        .await;
    let (registry, _) = registry();
    let model = Gemini::new("gemini-2.5-flash")
        .with_api_key("test-key")
        .with_endpoint(|e| {
            test_endpoint(e, format!("{}/v1beta", server.uri()))
                .with_header("x-team", "search")
                .with_field("generationConfig", json!({"temperature": 0}))
        });
    let conversation = converse(&model, &registry).await;
    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    let turn = match &conversation.messages[1] {
        tool_core::model::Message::Assistant(turn) => turn,
        other => panic!("{other:?}"),
    };
    let usage = turn.usage.unwrap();
    // The recording's usageMetadata: promptTokenCount 9; output is candidatesTokenCount 23 plus
    // thoughtsTokenCount 185.
    assert_eq!((usage.input_tokens, usage.output_tokens), (9, 208));
}

#[test]
fn from_vars_picks_the_first_endpoint_named_and_says_why() {
    let vars = |set: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            set.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    };
    let openai = from_vars(vars(&[
        ("OPENAI_API_KEY", "sk-secret"),
        ("ANTHROPIC_API_KEY", "sk-ant"),
    ]))
    .unwrap();
    assert_eq!(
        openai.description,
        "OpenAI Chat Completions at https://api.openai.com/v1, model gpt-4o-mini (OPENAI_API_KEY is set)"
    );
    assert!(!openai.description.contains("secret"));
    let responses = from_vars(vars(&[
        ("OPENAI_API_KEY", "k"),
        ("OPENAI_API", "responses"),
        ("OPENAI_MODEL", "gpt-4.1"),
    ]))
    .unwrap();
    assert_eq!(
        responses.description,
        "OpenAI Responses at https://api.openai.com/v1, model gpt-4.1 (OPENAI_API_KEY is set)"
    );
    let anthropic = from_vars(vars(&[
        ("OPENAI_API_KEY", ""),
        ("ANTHROPIC_API_KEY", "sk-ant"),
    ]))
    .unwrap();
    assert_eq!(
        anthropic.description,
        "Anthropic Messages at https://api.anthropic.com/v1, model claude-sonnet-4-5 (ANTHROPIC_API_KEY is set)"
    );
    assert!(from_vars(vars(&[("GEMINI_API_KEY", "  ")])).is_none());
}

/// `from_vars` gives a working model: the OpenAI-compatible server in `OPENAI_BASE_URL` (no
/// key, as for a local vLLM or Ollama) answers the whole conversation.
#[tokio::test]
async fn the_model_from_vars_talks_to_the_named_server() {
    let server = server(
        "/v1/chat/completions",
        vec![
            sse(fixture("openai_chat_turn1.sse")),
            sse(fixture("openai_chat_turn2.sse")),
        ],
    )
    .await;
    let base = format!("{}/v1", server.uri());
    let found = from_vars(|name| (name == "OPENAI_BASE_URL").then(|| base.clone())).unwrap();
    assert_eq!(
        found.description,
        format!("OpenAI Chat Completions at {base}, model gpt-4o-mini (OPENAI_BASE_URL is set)")
    );
    let (registry, weather) = registry();
    let model: &dyn Model = found.model.as_ref();
    let conversation = converse(model, &registry).await;
    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    assert_eq!(weather.runs(), 2);
    let received = requests(&server).await;
    assert!(received[0].headers.get("authorization").is_none());
}

/// Polled outside a tokio runtime (here by tool-core's own `block_on`), the stream ends with
/// an error that says what to do, instead of reqwest's panic.
#[test]
fn outside_a_tokio_runtime_the_stream_says_what_is_missing() {
    let (registry, weather) = registry();
    let model = chat("http://127.0.0.1:9/v1".to_string());
    let error = tool_core::block_on(converse(&model, &registry))
        .outcome
        .unwrap_err();
    assert_eq!(error.kind(), ModelErrorKind::Other);
    assert!(error.message().contains("need a tokio runtime"), "{error}");
    assert_eq!(weather.runs(), 0);
}

/// An assistant turn replays the provider's own content only to the adapter that wrote it;
/// another adapter (a conversation that switched models) rebuilds it from text and calls.
#[test]
fn native_content_is_replayed_only_to_its_own_adapter() {
    use tool_core::model::{Message, ModelRequest, ModelTurn, NativeContent, OfferedTools};
    use tool_core::ToolCall;

    let mut turn = ModelTurn::with_calls(
        "Checking.",
        vec![ToolCall::new(
            "toolu_1",
            "get_weather",
            r#"{"city":"Paris"}"#,
        )],
    );
    let native = json!({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user wants weather.", "signature": "sig"},
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}, "caller": {"type": "direct"}}]});
    turn.native = Some(NativeContent::new("anthropic", native.clone()));
    let messages = [Message::user("Weather?"), Message::Assistant(turn)];
    let request = ModelRequest::new(&messages, OfferedTools::none());

    let anthropic = Anthropic::new("claude-sonnet-4-5").request_body(&request);
    assert_eq!(anthropic["messages"][1], native);

    let chat = OpenAiChat::new("gpt-4o").request_body(&request);
    assert_eq!(
        chat["messages"][1],
        json!({"role": "assistant", "content": "Checking.", "tool_calls": [
            {"id": "toolu_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]})
    );
}
