//! The same acceptance scenarios for every adapter: two turns against recorded streams, and
//! the faults (cut inside a call, 429 then success, 500 every time, malformed SSE, slow
//! server), each with its documented outcome, no tool run twice, and no panic.

use std::time::{Duration, Instant};

use serde_json::json;
use tool_core::model::{Model, ModelErrorKind, ModelEvent};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;

/// One adapter under test.
pub struct Case {
    /// The path the adapter POSTs to, under the server's root.
    pub route: &'static str,
    /// The base URL path to give the adapter (`/v1`, `/v1beta`).
    pub base_path: &'static str,
    /// The adapter, aimed at a base URL.
    pub make: fn(String) -> Box<dyn Model>,
    /// Recorded streams of the two turns.
    pub turn1: &'static str,
    pub turn2: &'static str,
    /// A string that occurs first inside the second call of turn one: the cut goes there.
    pub cut_marker: &'static str,
    /// The text of turn one.
    pub turn1_text: &'static str,
    /// The call ids of turn one, in order.
    pub call_ids: [&'static str; 2],
    /// The response id each recorded turn carries (`id`, `response.id`, `message.id`,
    /// `responseId`).
    pub response_ids: [&'static str; 2],
    /// Golden file of the second request's body.
    pub golden: &'static str,
}

impl Case {
    fn model(&self, server: &MockServer) -> Box<dyn Model> {
        (self.make)(format!("{}{}", server.uri(), self.base_path))
    }
}

/// Turn one is text plus two parallel calls, turn two the final text; the second request is
/// compared with the golden file.
pub async fn two_turns(case: &Case) {
    let server = server(
        case.route,
        vec![sse(fixture(case.turn1)), sse(fixture(case.turn2))],
    )
    .await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let conversation = converse(model.as_ref(), &registry).await;

    assert_eq!(
        conversation.outcome.as_deref().map_err(ToString::to_string),
        Ok(FINAL_TEXT)
    );
    assert_eq!(weather.runs(), 2, "each call runs exactly once");
    let first = &conversation.turns[0];
    assert_eq!(text_of(first), case.turn1_text);
    assert_text_before_calls(first);
    // Argument text differs between providers only in spacing: compare parsed values.
    let ready: Vec<(usize, String, serde_json::Value)> = ready_calls(first)
        .into_iter()
        .map(|(index, id, arguments)| (index, id, serde_json::from_str(&arguments).unwrap()))
        .collect();
    assert_eq!(
        ready,
        vec![
            (0, case.call_ids[0].to_string(), json!({"city": "Paris"})),
            (1, case.call_ids[1].to_string(), json!({"city": "Tokyo"})),
        ]
    );
    assert_eq!(text_of(&conversation.turns[1]), FINAL_TEXT);
    let response_ids: Vec<Option<&str>> = conversation
        .messages
        .iter()
        .filter_map(|m| match m {
            tool_core::model::Message::Assistant(turn) => Some(turn.response_id.as_deref()),
            _ => None,
        })
        .collect();
    assert_eq!(
        response_ids,
        [Some(case.response_ids[0]), Some(case.response_ids[1])]
    );

    let received = requests(&server).await;
    assert_eq!(received.len(), 2);
    assert_sdk_accepts(case.route, &received);
    assert_body_golden(&received[1], case.golden);
}

/// The connection closes inside the second call: the turn is `Incomplete`, the text that
/// arrived was reported, the cut call never became ready, no tool ran, no retry was made.
pub async fn cut_inside_call(case: &Case) {
    let cut = cut_before(&fixture(case.turn1), case.cut_marker);
    let server = server(case.route, vec![sse(cut)]).await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let conversation = converse(model.as_ref(), &registry).await;

    let error = conversation.outcome.expect_err("a cut stream must fail");
    assert_eq!(error.kind(), ModelErrorKind::Incomplete, "{error}");
    assert!(error.is_retryable());
    let events = &conversation.turns[0];
    assert_eq!(text_of(events), case.turn1_text);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ModelEvent::CallReady { index: 1, .. })),
        "the cut call was handed out: {events:?}"
    );
    assert_eq!(weather.runs(), 0, "no tool runs for an incomplete turn");
    assert_eq!(
        requests(&server).await.len(),
        1,
        "a started body is never retried"
    );
}

fn error_body(message: &str, kind: &str) -> serde_json::Value {
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

/// A 429 with `Retry-After: 1` is retried after the wait the server asked for; the
/// conversation then completes with each tool run once.
pub async fn rate_limited_then_success(case: &Case) {
    let limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "1")
        .set_body_json(error_body(
            "Rate limit reached for requests",
            "rate_limit_error",
        ));
    let server = server(
        case.route,
        vec![limited, sse(fixture(case.turn1)), sse(fixture(case.turn2))],
    )
    .await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let started = Instant::now();
    let conversation = converse(model.as_ref(), &registry).await;

    assert_eq!(conversation.outcome.as_deref().ok(), Some(FINAL_TEXT));
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured: {:?}",
        started.elapsed()
    );
    assert_eq!(requests(&server).await.len(), 3);
    assert_eq!(weather.runs(), 2, "each call runs exactly once");
}

/// A 500 on every attempt: retried up to the cap (2 retries), then a `Server` error with the
/// status and the provider's own message; no tool ran.
pub async fn server_error_every_time(case: &Case) {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path(case.route))
        .respond_with(ResponseTemplate::new(500).set_body_json(error_body(
            "The server had an error while processing your request.",
            "api_error",
        )))
        .mount(&server)
        .await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let conversation = converse(model.as_ref(), &registry).await;

    let error = conversation.outcome.expect_err("500 every time must fail");
    assert_eq!(error.kind(), ModelErrorKind::Server);
    assert_eq!(error.status(), Some(500));
    assert_eq!(
        error.message(),
        "The server had an error while processing your request."
    );
    assert!(error.is_retryable());
    assert!(conversation.turns[0].is_empty());
    assert_eq!(
        requests(&server).await.len(),
        3,
        "one attempt and two retries"
    );
    assert_eq!(weather.runs(), 0);
}

/// An event whose data is not JSON, after some good ones: `Malformed`, not retried, the text
/// before it reported, no tool run.
pub async fn malformed_sse(case: &Case) {
    let mut body = cut_before(&fixture(case.turn1), case.cut_marker);
    body.push_str("data: {\"type\": \"content_block_delta\", oops\n\n");
    let server = server(case.route, vec![sse(body)]).await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let conversation = converse(model.as_ref(), &registry).await;

    let error = conversation.outcome.expect_err("malformed data must fail");
    assert_eq!(error.kind(), ModelErrorKind::Malformed, "{error}");
    assert!(!error.is_retryable());
    assert!(error.message().contains("not JSON"), "{error}");
    assert_eq!(text_of(&conversation.turns[0]), case.turn1_text);
    assert_eq!(requests(&server).await.len(), 1);
    assert_eq!(weather.runs(), 0);
}

/// A server slower than the response timeout on every attempt: a `Timeout` after the
/// retries, no tool run.
pub async fn slow_server(case: &Case) {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path(case.route))
        .respond_with(sse(fixture(case.turn1)).set_delay(Duration::from_millis(1500)))
        .mount(&server)
        .await;
    let (registry, weather) = registry();
    let model = case.model(&server);
    let started = Instant::now();
    let conversation = converse(model.as_ref(), &registry).await;

    let error = conversation
        .outcome
        .expect_err("a slow server must time out");
    assert_eq!(error.kind(), ModelErrorKind::Timeout, "{error}");
    assert!(error.is_retryable());
    assert!(conversation.turns[0].is_empty());
    assert_eq!(
        requests(&server).await.len(),
        3,
        "one attempt and two retries"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(weather.runs(), 0);
}

/// Every scenario of one adapter, as separate tests.
#[macro_export]
macro_rules! adapter_tests {
    ($case:expr) => {
        #[tokio::test]
        async fn two_turns_match_the_recording_and_the_golden_body() {
            $crate::http_support::cases::two_turns(&$case).await;
        }
        #[tokio::test]
        async fn a_stream_cut_inside_a_call_is_incomplete_and_runs_nothing() {
            $crate::http_support::cases::cut_inside_call(&$case).await;
        }
        #[tokio::test]
        async fn a_429_with_retry_after_is_retried_then_succeeds() {
            $crate::http_support::cases::rate_limited_then_success(&$case).await;
        }
        #[tokio::test]
        async fn a_500_every_time_ends_in_a_server_error_after_the_retries() {
            $crate::http_support::cases::server_error_every_time(&$case).await;
        }
        #[tokio::test]
        async fn malformed_sse_is_a_malformed_error_without_retry() {
            $crate::http_support::cases::malformed_sse(&$case).await;
        }
        #[tokio::test]
        async fn a_slow_server_times_out_after_the_retries() {
            $crate::http_support::cases::slow_server(&$case).await;
        }
    };
}
