//! Shared by the `http_*` tests: a counted weather tool, the recorded streams under
//! `tests/fixtures/http/`, a loopback wiremock server, and a two-turn conversation driven
//! through the `Model` trait with `call_all` between turns.

#![allow(dead_code)]

pub mod cases;
pub mod counted;
pub mod held;
pub mod sdk;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tool_core::http::{Endpoint, RetryConfig};
use tool_core::model::{
    Message, Model, ModelError, ModelEvent, ModelRequest, ModelStream, ModelTurn, OfferedTools,
    ToolResult,
};
use tool_core::{CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// `get_weather(city)`: canned weather, and a count of runs per registry.
#[derive(Clone, Default)]
pub struct Weather {
    runs: Arc<AtomicUsize>,
}

impl Weather {
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }
}

impl Tool for Weather {
    fn name(&self) -> &str {
        "get_weather"
    }
    fn description(&self) -> &str {
        "Current weather for a city."
    }
    fn input_schema(&self) -> Value {
        serde_json::json!({
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. \"Paris\"."}},
            "required": ["city"]
        })
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let city = serde_json::from_str::<Value>(arguments)
            .ok()
            .and_then(|v| v.get("city").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        let reply = match city.as_str() {
            "Paris" => "15 C, light rain",
            "Tokyo" => "22 C, sunny",
            _ => "unknown city",
        };
        CallFuture::ready(ToolResponse::success(reply))
    }
}

pub fn registry() -> (ToolRegistry, Weather) {
    let weather = Weather::default();
    (ToolRegistry::new().with(weather.clone()), weather)
}

pub const USER: &str = "What's the weather in Paris and Tokyo?";
pub const INSTRUCTIONS: &str = "You are a concise weather assistant.";
pub const FINAL_TEXT: &str = "Paris: 15 C and light rain. Tokyo: 22 C and sunny.";

pub fn fixture(name: &str) -> String {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/http")
        .join(name);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()))
}

/// The recorded stream up to (not including) the first line that contains `marker`: the
/// connection closes there, as if cut.
pub fn cut_before(stream: &str, marker: &str) -> String {
    let at = stream
        .find(marker)
        .unwrap_or_else(|| panic!("marker {marker:?} not in the stream"));
    let line_start = stream[..at].rfind('\n').map_or(0, |i| i + 1);
    stream[..line_start].to_string()
}

pub fn sse(body: impl Into<String>) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.into().into_bytes(), "text/event-stream")
}

/// A loopback server answering POSTs to `route` with `responses`, one each, in order.
pub async fn server(route: &str, responses: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    for response in responses {
        Mock::given(method("POST"))
            .and(path(route))
            .respond_with(response)
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    server
}

pub async fn requests(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap_or_default()
}

/// The official SDK whose request types judge a body sent to `route`.
pub fn sdk_api(route: &str) -> &'static str {
    if route.ends_with("/chat/completions") {
        "chat"
    } else if route.ends_with("/responses") {
        "responses"
    } else if route.ends_with("/messages") {
        "anthropic"
    } else if route.contains("generateContent") || route.contains("GenerateContent") {
        "gemini"
    } else if route.ends_with("/interactions") {
        "interactions"
    } else {
        panic!("no SDK request type for the route {route}")
    }
}

/// Every body sent to `route` is a valid request by the official SDK's own request types
/// (openai-python, anthropic-sdk-python, python-genai, its interactions types too;
/// `tests/python/sdk_requests.py` walks
/// them strictly: unknown keys, missing required keys, values outside a `Literal`).
pub fn assert_sdk_accepts(route: &str, requests: &[Request]) {
    let bodies: Vec<Value> = requests
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("the request body is JSON"))
        .collect();
    assert_sdk_accepts_bodies(route, &bodies);
}

/// [`assert_sdk_accepts`] for bodies already parsed.
pub fn assert_sdk_accepts_bodies(route: &str, bodies: &[Value]) {
    assert_sdk_types(sdk_api(route), bodies);
}

/// Every value is valid by the SDK types `tests/python/sdk_requests.py` names `api`: a
/// request body's API, or the Interactions API's responses (`interactions_response`, a whole
/// `Interaction`; `interactions_event`, one streamed event), so a fake server answers in the
/// shapes the official SDK reads.
pub fn assert_sdk_types(api: &str, bodies: &[Value]) {
    let named: Vec<(&str, &Value)> = bodies.iter().map(|body| (api, body)).collect();
    sdk::assert_named(&named);
}

/// Short timeouts and fast retries, so fault tests end quickly.
pub fn test_endpoint(endpoint: Endpoint, base_url: String) -> Endpoint {
    endpoint
        .with_base_url(base_url)
        .with_connect_timeout(Duration::from_secs(2))
        .with_response_timeout(Duration::from_millis(400))
        .with_idle_timeout(Duration::from_millis(400))
        .with_retry(
            RetryConfig::default()
                .with_max_retries(2)
                .with_delays(Duration::from_millis(10), Duration::from_millis(50))
                .with_max_retry_after(Duration::from_secs(5)),
        )
}

async fn next(stream: &mut ModelStream<'_>) -> Option<Result<ModelEvent, ModelError>> {
    std::future::poll_fn(|cx| stream.as_mut().poll_next(cx)).await
}

/// One turn: every event the model's stream yields, and the finished turn (or the error).
pub async fn one_turn(
    model: &dyn Model,
    messages: &[Message],
    registry: &ToolRegistry,
) -> (Vec<ModelEvent>, Result<ModelTurn, ModelError>) {
    let request =
        ModelRequest::new(messages, OfferedTools::all(registry)).with_instructions(INSTRUCTIONS);
    let mut stream = model.stream(request);
    let mut events = Vec::new();
    while let Some(item) = next(&mut stream).await {
        match item {
            Ok(ModelEvent::Finished(turn)) => {
                assert!(next(&mut stream).await.is_none(), "events after Finished");
                return (events, Ok(turn));
            }
            Ok(event) => events.push(event),
            Err(error) => {
                assert!(next(&mut stream).await.is_none(), "events after an error");
                return (events, Err(error));
            }
        }
    }
    panic!("the stream ended without Finished or an error");
}

/// What a conversation did: the events of each turn, the history, and how it ended.
pub struct Conversation {
    pub turns: Vec<Vec<ModelEvent>>,
    pub messages: Vec<Message>,
    pub outcome: Result<String, ModelError>,
}

/// The loop an application (or the runner) runs: ask, run the calls with `call_all`, give
/// the results back, until a turn without calls or an error. At most four turns.
pub async fn converse(model: &dyn Model, registry: &ToolRegistry) -> Conversation {
    converse_as(model, registry, USER, 4).await
}

/// [`converse`], starting from `user`'s message and allowing at most `max` turns.
pub async fn converse_as(
    model: &dyn Model,
    registry: &ToolRegistry,
    user: &str,
    max: usize,
) -> Conversation {
    let mut messages = vec![Message::user(user)];
    let mut turns = Vec::new();
    for _ in 0..max {
        let (events, turn) = one_turn(model, &messages, registry).await;
        turns.push(events);
        let turn = match turn {
            Ok(turn) => turn,
            Err(error) => {
                return Conversation {
                    turns,
                    messages,
                    outcome: Err(error),
                }
            }
        };
        let calls = turn.calls.clone();
        let text = turn.text.clone();
        messages.push(Message::Assistant(turn));
        if calls.is_empty() {
            return Conversation {
                turns,
                messages,
                outcome: Ok(text),
            };
        }
        let responses = registry.call_all(&calls).await;
        let results = calls
            .iter()
            .zip(responses)
            .map(|(call, response)| ToolResult::new(call.id.clone(), call.name.clone(), response))
            .collect();
        messages.push(Message::Tool { results });
    }
    panic!("the conversation did not end within {max} turns");
}

impl Conversation {
    /// The model's finished turns, in order.
    pub fn model_turns(&self) -> Vec<ModelTurn> {
        self.messages
            .iter()
            .filter_map(|m| match m {
                Message::Assistant(turn) => Some(turn.clone()),
                _ => None,
            })
            .collect()
    }
}

/// Text deltas of a turn, joined.
pub fn text_of(events: &[ModelEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// Asserts every text delta of a turn comes before any call event.
pub fn assert_text_before_calls(events: &[ModelEvent]) {
    // Reasoning may come first; it is neither text nor a call.
    let events: Vec<ModelEvent> = events
        .iter()
        .filter(|e| !matches!(e, ModelEvent::ReasoningDelta(_)))
        .cloned()
        .collect();
    let events = events.as_slice();
    let first_call = events
        .iter()
        .position(|e| !matches!(e, ModelEvent::TextDelta(_)))
        .unwrap_or(events.len());
    assert!(
        events[first_call..]
            .iter()
            .all(|e| !matches!(e, ModelEvent::TextDelta(_))),
        "a text delta came after a call event: {events:?}"
    );
    assert!(
        first_call > 1,
        "the text should arrive in several deltas: {events:?}"
    );
}

/// The calls of a turn's `CallReady` events.
pub fn ready_calls(events: &[ModelEvent]) -> Vec<(usize, String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            ModelEvent::CallReady { index, call } => {
                Some((*index, call.id.clone(), call.arguments.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The second request's body: it is serde_json's compact form (so comparing the pretty
/// golden file compares the wire bytes), and it matches `golden`.
pub fn assert_body_golden(request: &Request, golden: &str) {
    let value: Value = serde_json::from_slice(&request.body).expect("the request body is JSON");
    assert_eq!(
        serde_json::to_vec(&value).unwrap(),
        request.body,
        "the body is not in canonical compact form, so the golden comparison would not be byte for byte"
    );
    crate::support::golden::assert_golden(golden, &crate::support::golden::pretty(&value));
}
