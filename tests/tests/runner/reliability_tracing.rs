//! With the `tracing` feature every call runs in a `tool_call` span carrying the tool name,
//! call id, status, code and duration. A minimal subscriber records the span fields.

use std::sync::Arc;

use tool_core::{tool, tools, ToolCall};

use crate::spans::{Recorder, Seen};

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[test]
fn each_call_records_a_span_with_tool_id_status_code_and_duration() {
    let spans: Seen = Arc::default();
    let registry = tools![add];
    tracing::subscriber::with_default(Recorder::spans(Arc::clone(&spans)), || {
        registry.call_blocking(&ToolCall::new("call_1", "add", r#"{"a":1,"b":2}"#));
        registry.call_blocking(&ToolCall::new("call_2", "add", r#"{"a":"x"}"#));
    });
    let spans = spans.lock().unwrap();
    assert_eq!(spans.len(), 2);
    let (name, ok) = &spans[0];
    assert_eq!(name, "tool_call");
    assert_eq!(ok["tool"], "add");
    assert_eq!(ok["call_id"], "call_1");
    assert_eq!(ok["status"], "SUCCESS");
    assert!(ok.contains_key("duration_ms"));
    assert!(!ok.contains_key("code"));
    let (_, bad) = &spans[1];
    assert_eq!(bad["call_id"], "call_2");
    assert_eq!(bad["status"], "ERROR");
    assert_eq!(bad["code"], "INVALID_PARAM");
}
