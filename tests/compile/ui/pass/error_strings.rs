// A tool may fail with a plain `String` or `&'static str`.
use tool_core::{tool, tools, ToolCall, ToolErrorCode, ToolStatus};

/// Divides.
#[tool]
fn divide(a: i64, b: i64) -> Result<i64, String> {
    if b == 0 {
        return Err(format!("cannot divide {a} by zero; pass a non-zero 'b'"));
    }
    Ok(a / b)
}

/// Never ready.
#[tool]
async fn not_yet() -> Result<String, &'static str> {
    Err("not implemented yet")
}

fn main() {
    let r = tools![divide, not_yet];
    let call = |name: &str, args: &str| r.call_blocking(&ToolCall::new("1", name, args));

    assert_eq!(call("divide", r#"{"a":6,"b":3}"#).model_text(), "2");
    let zero = call("divide", r#"{"a":6,"b":0}"#);
    assert_eq!(zero.status, ToolStatus::Error);
    assert_eq!(zero.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(zero.model_text(), "Error [EXECUTION_ERROR]: cannot divide 6 by zero; pass a non-zero 'b'");

    let later = call("not_yet", "{}");
    assert_eq!(later.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(later.model_text(), "Error [EXECUTION_ERROR]: not implemented yet");
}
