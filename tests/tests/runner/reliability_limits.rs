//! Limits: argument size and nesting depth are rejected with INVALID_PARAM before any
//! deserializing; the optional output cap truncates and marks PARTIAL with a reason.

use tool_core::{tool, tools, Limits, ToolCall, ToolErrorCode, ToolRegistry, ToolStatus};

/// Counts the items of a nested value.
#[tool]
fn inspect(
    /// Any JSON.
    value: serde_json::Value,
) -> String {
    value.to_string().len().to_string()
}

/// Repeats a word.
#[tool]
fn repeat(word: String, times: usize) -> String {
    word.repeat(times.min(100_000))
}

/// Fails with a long message.
#[tool]
fn long_error(len: usize) -> Result<String, tool_core::ToolError> {
    Err(tool_core::ToolError::new(
        ToolErrorCode::ExecutionError,
        "x".repeat(len.min(100_000)),
    ))
}

fn registry() -> ToolRegistry {
    tools![inspect, repeat, long_error]
}

fn nested(depth: usize) -> String {
    format!(
        r#"{{"value":{}1{}}}"#,
        "[".repeat(depth - 1),
        "]".repeat(depth - 1)
    )
}

#[test]
fn arguments_over_the_default_one_mib_are_invalid_param() {
    let big = format!(r#"{{"word":"{}","times":1}}"#, "a".repeat(1024 * 1024));
    let r = registry().call_blocking(&ToolCall::new("1", "repeat", big));
    assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidParam));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("the limit is 1048576 bytes"), "{msg}");
}

#[test]
fn arguments_just_under_the_limit_are_accepted() {
    let word = "a".repeat(1024 * 1024 - 30);
    let r = registry().call_blocking(&ToolCall::new(
        "1",
        "repeat",
        format!(r#"{{"word":"{word}","times":1}}"#),
    ));
    assert!(r.is_success(), "{:?}", r.error_message());
}

#[test]
fn configured_size_limit_is_enforced() {
    let registry = registry().with_limits(Limits {
        max_argument_bytes: 10,
        ..Limits::default()
    });
    let r = registry.call_blocking(&ToolCall::new("1", "repeat", r#"{"word":"ab","times":2}"#));
    assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidParam));
    assert!(r.error_message().unwrap().contains("the limit is 10 bytes"));
}

#[test]
fn nesting_at_the_limit_is_accepted_and_one_deeper_is_invalid_param() {
    let registry = registry();
    let ok = registry.call_blocking(&ToolCall::new("1", "inspect", nested(64)));
    assert!(ok.is_success(), "{:?}", ok.error_message());
    let deep = registry.call_blocking(&ToolCall::new("1", "inspect", nested(65)));
    assert_eq!(deep.error_code(), Some(ToolErrorCode::InvalidParam));
    let msg = deep.error_message().unwrap();
    assert!(msg.contains("more than 64 levels deep"), "{msg}");
}

#[test]
fn extreme_nesting_is_rejected_without_recursing() {
    // 500k open brackets would overflow a recursive parser without its own limit.
    let text = format!(r#"{{"value":{}"#, "[".repeat(500_000));
    let r = registry().call_blocking(&ToolCall::new("1", "inspect", text));
    assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidParam));
    assert!(r.error_message().unwrap().contains("levels deep"));
}

#[test]
fn brackets_inside_strings_do_not_count_towards_depth() {
    let text = format!(r#"{{"value":"{}"}}"#, "[{".repeat(200));
    let r = registry().call_blocking(&ToolCall::new("1", "inspect", text));
    assert!(r.is_success(), "{:?}", r.error_message());
}

#[test]
fn output_over_the_cap_is_truncated_and_marked_partial() {
    let registry = registry().with_limits(Limits {
        max_output_bytes: Some(100),
        ..Limits::default()
    });
    let r = registry.call_blocking(&ToolCall::new(
        "1",
        "repeat",
        r#"{"word":"ab","times":1000}"#,
    ));
    assert_eq!(r.status, ToolStatus::Partial);
    assert_eq!(r.text.len(), 100);
    let reason = r.reason.as_deref().unwrap();
    assert!(
        reason.contains("truncated to the first 100 of 2000 bytes"),
        "{reason}"
    );
    assert!(r
        .model_text()
        .starts_with("Partial result (output truncated"));
}

#[test]
fn output_under_the_cap_is_untouched() {
    let registry = registry().with_limits(Limits {
        max_output_bytes: Some(100),
        ..Limits::default()
    });
    let r = registry.call_blocking(&ToolCall::new("1", "repeat", r#"{"word":"ab","times":3}"#));
    assert_eq!(r.status, ToolStatus::Success);
    assert_eq!(r.text, "ababab");
}

#[test]
fn long_error_messages_are_cut_but_stay_errors() {
    let registry = registry().with_limits(Limits {
        max_output_bytes: Some(50),
        ..Limits::default()
    });
    let r = registry.call_blocking(&ToolCall::new("1", "long_error", r#"{"len":5000}"#));
    assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("[message cut from 5000 bytes]"), "{msg}");
    assert!(msg.len() < 100);
}
