//! The per-tool circuit breaker: closed -> open -> half-open -> closed, a failed probe
//! reopens, and only transient codes count.

use std::time::Duration;

use tool_core::{BreakerConfig, CircuitState, ToolCall, ToolErrorCode, ToolRegistry};
use tool_tests::Scripted;

const COOLDOWN: Duration = Duration::from_millis(60);

fn setup() -> (Scripted, Scripted, ToolRegistry) {
    let flaky = Scripted::new("flaky");
    let steady = Scripted::new("steady");
    let registry = ToolRegistry::new()
        .with(flaky.clone())
        .with(steady.clone())
        .with_circuit_breaker(BreakerConfig {
            failure_threshold: 3,
            cooldown: COOLDOWN,
        });
    (flaky, steady, registry)
}

fn call(registry: &ToolRegistry, name: &str) -> tool_core::ToolResponse {
    registry.call_blocking(&ToolCall::new("id", name, "{}"))
}

#[test]
fn breaker_is_off_unless_configured() {
    let flaky = Scripted::new("flaky");
    let registry = ToolRegistry::new().with(flaky.clone());
    assert_eq!(registry.circuit_state("flaky"), None);
    flaky.fail_next(100, ToolErrorCode::ServiceUnavailable);
    for _ in 0..20 {
        assert_eq!(
            call(&registry, "flaky").error_code(),
            Some(ToolErrorCode::ServiceUnavailable)
        );
    }
    assert_eq!(flaky.runs(), 20);
}

#[test]
fn closed_open_half_open_closed() {
    let (flaky, _, registry) = setup();
    flaky.fail_next(3, ToolErrorCode::ServiceUnavailable);
    for _ in 0..2 {
        call(&registry, "flaky");
        assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Closed));
    }
    call(&registry, "flaky");
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Open));

    // Open: answers CIRCUIT_OPEN without running the tool.
    let r = call(&registry, "flaky");
    assert_eq!(r.error_code(), Some(ToolErrorCode::CircuitOpen));
    let msg = r.error_message().unwrap();
    assert!(
        msg.contains("temporarily disabled after 3 consecutive failures"),
        "{msg}"
    );
    assert!(msg.contains("trial call in about"), "{msg}");
    assert_eq!(flaky.runs(), 3);

    // After the cooldown: half-open, one probe runs and its success closes the circuit.
    std::thread::sleep(COOLDOWN + Duration::from_millis(20));
    assert_eq!(
        registry.circuit_state("flaky"),
        Some(CircuitState::HalfOpen)
    );
    assert_eq!(call(&registry, "flaky").model_text(), "ok id");
    assert_eq!(flaky.runs(), 4);
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Closed));
}

#[test]
fn a_failed_probe_opens_the_circuit_again() {
    let (flaky, _, registry) = setup();
    flaky.fail_next(4, ToolErrorCode::Timeout);
    for _ in 0..3 {
        call(&registry, "flaky");
    }
    std::thread::sleep(COOLDOWN + Duration::from_millis(20));
    assert_eq!(
        call(&registry, "flaky").error_code(),
        Some(ToolErrorCode::Timeout)
    );
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Open));
    assert_eq!(
        call(&registry, "flaky").error_code(),
        Some(ToolErrorCode::CircuitOpen)
    );
    assert_eq!(flaky.runs(), 4);
}

#[test]
fn non_transient_failures_do_not_open_the_circuit() {
    let (flaky, _, registry) = setup();
    flaky.fail_next(10, ToolErrorCode::NotFound);
    for _ in 0..10 {
        assert_eq!(
            call(&registry, "flaky").error_code(),
            Some(ToolErrorCode::NotFound)
        );
    }
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Closed));
}

#[test]
fn a_success_resets_the_consecutive_count() {
    let (flaky, _, registry) = setup();
    for _ in 0..3 {
        flaky.fail_next(2, ToolErrorCode::RateLimit);
        call(&registry, "flaky");
        call(&registry, "flaky");
        assert!(call(&registry, "flaky").is_success());
    }
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Closed));
}

#[test]
fn each_tool_has_its_own_circuit() {
    let (flaky, steady, registry) = setup();
    flaky.fail_next(3, ToolErrorCode::NetworkError);
    for _ in 0..3 {
        call(&registry, "flaky");
    }
    assert_eq!(registry.circuit_state("flaky"), Some(CircuitState::Open));
    assert!(call(&registry, "steady").is_success());
    assert_eq!(registry.circuit_state("steady"), Some(CircuitState::Closed));
    assert_eq!(steady.runs(), 1);
}

#[test]
fn tools_registered_after_configuring_get_a_breaker_too() {
    let mut registry = ToolRegistry::new().with_circuit_breaker(BreakerConfig::default());
    registry.register(Scripted::new("late")).unwrap();
    assert_eq!(registry.circuit_state("late"), Some(CircuitState::Closed));
}
