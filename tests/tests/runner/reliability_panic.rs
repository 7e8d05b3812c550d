//! Panic isolation: a panicking tool answers EXECUTION_ERROR with the panic message, and the
//! registry keeps serving every later call.

use tool_core::{block_on, tool, tools, ToolCall, ToolErrorCode, ToolRegistry};

// The default hook prints every (expected) panic; keep the test output readable.
use crate::quiet_panics::quiet_panics;

/// Panics with a static message.
#[tool]
fn sync_panics() -> String {
    panic!("static boom")
}

/// Panics with a formatted message.
#[tool]
fn sync_panics_formatted(n: u32) -> String {
    panic!("bad n = {n}")
}

/// Panics inside an async body, after a yield.
#[tool]
async fn async_panics() -> String {
    tokio::task::yield_now().await;
    panic!("async boom")
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn registry() -> ToolRegistry {
    tools![sync_panics, sync_panics_formatted, async_panics, add]
}

#[test]
fn sync_tool_panic_is_an_execution_error_with_the_message() {
    quiet_panics();
    let r = registry().call_blocking(&ToolCall::new("1", "sync_panics", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("'sync_panics' crashed"), "{msg}");
    assert!(msg.contains("static boom"), "{msg}");
    assert!(r.time_ms().is_some());
}

#[test]
fn formatted_panic_message_is_carried() {
    quiet_panics();
    let r = registry().call_blocking(&ToolCall::new("1", "sync_panics_formatted", r#"{"n":7}"#));
    assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    assert!(r.error_message().unwrap().contains("bad n = 7"));
}

#[tokio::test]
async fn async_tool_panic_is_an_execution_error_with_the_message() {
    quiet_panics();
    let r = registry()
        .call(&ToolCall::new("1", "async_panics", "{}"))
        .await;
    assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    assert!(r.error_message().unwrap().contains("async boom"));
}

#[tokio::test]
async fn registry_keeps_working_after_many_panics() {
    quiet_panics();
    let registry = registry();
    for i in 0..50 {
        let name = if i % 2 == 0 {
            "sync_panics"
        } else {
            "async_panics"
        };
        let r = registry
            .call(&ToolCall::new(i.to_string(), name, "{}"))
            .await;
        assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
        let ok = registry
            .call(&ToolCall::new(
                "ok",
                "add",
                r#"{"a":i,"b":1}"#.replace('i', &i.to_string()),
            ))
            .await;
        assert_eq!(ok.model_text(), (i + 1).to_string());
    }
}

#[test]
fn call_all_isolates_one_panicking_call_from_its_neighbours() {
    quiet_panics();
    let calls = [
        ToolCall::new("a", "add", r#"{"a":1,"b":1}"#),
        ToolCall::new("b", "sync_panics", "{}"),
        ToolCall::new("c", "add", r#"{"a":2,"b":2}"#),
    ];
    let out = block_on(registry().call_all(&calls));
    assert_eq!(out.len(), 3);
    assert_eq!(out[0].model_text(), "2");
    assert_eq!(out[1].error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(out[2].model_text(), "4");
}
