//! Retry policy: transient codes are retried with back-off, attempts land in `stats`.

use std::time::Duration;

use tool_core::{RetryPolicy, ToolCall, ToolErrorCode, ToolRegistry};
use tool_tests::Scripted;

fn setup(attempts: u32) -> (Scripted, ToolRegistry) {
    let flaky = Scripted::new("flaky");
    let policy =
        RetryPolicy::new(attempts).backoff(Duration::from_millis(1), Duration::from_millis(5));
    let registry = ToolRegistry::new()
        .with(flaky.clone())
        .with_retry("flaky", policy);
    (flaky, registry)
}

#[test]
fn transient_failures_are_retried_until_success_and_attempts_recorded() {
    let (flaky, registry) = setup(4);
    flaky.fail_next(2, ToolErrorCode::RateLimit);
    let r = registry.call_blocking(&ToolCall::new("7", "flaky", "{}"));
    assert_eq!(r.model_text(), "ok 7");
    assert_eq!(r.stats.attempts(), Some(3));
    assert!(r.time_ms().is_some());
    assert_eq!(flaky.runs(), 3);
}

#[test]
fn retries_stop_when_the_policy_is_spent() {
    let (flaky, registry) = setup(3);
    flaky.fail_next(10, ToolErrorCode::NetworkError);
    let r = registry.call_blocking(&ToolCall::new("1", "flaky", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::NetworkError));
    assert_eq!(r.stats.attempts(), Some(3));
    assert_eq!(flaky.runs(), 3);
}

#[test]
fn every_transient_code_is_retried() {
    for code in [
        ToolErrorCode::Timeout,
        ToolErrorCode::RateLimit,
        ToolErrorCode::NetworkError,
        ToolErrorCode::ServiceUnavailable,
    ] {
        let (flaky, registry) = setup(2);
        flaky.fail_next(1, code);
        let r = registry.call_blocking(&ToolCall::new("1", "flaky", "{}"));
        assert!(r.is_success(), "{code} was not retried");
    }
}

#[test]
fn non_transient_failures_are_not_retried() {
    let (flaky, registry) = setup(5);
    flaky.fail_next(1, ToolErrorCode::InvalidParam);
    let r = registry.call_blocking(&ToolCall::new("1", "flaky", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidParam));
    assert_eq!(r.stats.attempts(), Some(1));
    assert_eq!(flaky.runs(), 1);
}

#[test]
fn tools_without_a_policy_report_no_attempts() {
    let plain = Scripted::new("plain");
    let registry = ToolRegistry::new().with(plain.clone());
    plain.fail_next(1, ToolErrorCode::RateLimit);
    let r = registry.call_blocking(&ToolCall::new("1", "plain", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::RateLimit));
    assert_eq!(r.stats.attempts(), None);
}

#[tokio::test]
async fn back_off_uses_the_tokio_timer_inside_a_runtime() {
    let flaky = Scripted::new("flaky");
    let policy = RetryPolicy::new(3).backoff(Duration::from_millis(20), Duration::from_millis(20));
    let registry = ToolRegistry::new()
        .with(flaky.clone())
        .with_retry("flaky", policy);
    flaky.fail_next(2, ToolErrorCode::ServiceUnavailable);
    let started = std::time::Instant::now();
    let r = registry.call(&ToolCall::new("1", "flaky", "{}")).await;
    assert!(r.is_success());
    assert!(started.elapsed() >= Duration::from_millis(40));
}

#[test]
#[should_panic(expected = "no tool named 'nope'")]
fn a_retry_policy_for_an_unknown_tool_is_a_programming_error() {
    let _ = ToolRegistry::new().with_retry("nope", RetryPolicy::new(2));
}

#[test]
fn per_tool_settings_name_a_tool_by_its_type_or_its_name() {
    use tool_core::{tool, tools, BreakerConfig, CircuitState, StructTool, Tool, ToolContext};

    /// Fetches a page.
    #[tool(idempotent)]
    fn fetch(url: String) -> String {
        url
    }

    /// Searches the web.
    #[derive(Tool)]
    struct Search {
        query: String,
    }

    impl tool_core::ToolHandler for Search {
        type Output = String;
        async fn run(self, _ctx: ToolContext<'_>) -> String {
            self.query
        }
    }

    let policy = RetryPolicy::new(3);
    let registry = tools![fetch, Search]
        .with_circuit_breaker(BreakerConfig::default())
        .with_retry(fetch {}, policy)
        .with_required_scopes(Search::NAME, ["search"]);
    // The type and the name are the same key.
    assert_eq!(registry.retry_policy(fetch {}), Some(&policy));
    assert_eq!(registry.retry_policy("fetch"), Some(&policy));
    assert_eq!(registry.retry_policy(String::from("fetch")), Some(&policy));
    assert_eq!(registry.required_scopes("search"), ["search"]);
    assert!(registry.required_scopes(fetch {}).is_empty());
    assert_eq!(registry.circuit_state(fetch {}), Some(CircuitState::Closed));
    assert_eq!(registry.retry_policy(Search::NAME), None);
    // Any tool value names itself, however the registry was built.
    let named: &dyn Tool = &fetch {};
    assert_eq!(registry.retry_policy(named.name()), Some(&policy));
}
