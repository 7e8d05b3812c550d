// A tool may return `Box<dyn Error + Send + Sync>`: `?` works on any error, causes are read
// through `source()`, and a boxed `ToolError` keeps its code.
use std::error::Error;
use tool_core::{tool, tools, ToolCall, ToolError, ToolErrorCode, ToolStatus};

type BoxError = Box<dyn Error + Send + Sync>;

/// Parses a port number.
#[tool]
fn parse_port(text: String) -> Result<u16, BoxError> {
    Ok(text.parse::<u16>()?)
}

/// Waits for a slow service.
#[tool]
async fn slow() -> Result<String, BoxError> {
    std::future::ready(()).await;
    Err(ToolError::timeout("no answer after 5 s; try again later").into())
}

#[derive(Debug)]
struct Wrapped(std::num::ParseIntError);
impl std::fmt::Display for Wrapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("reading the count")
    }
}
impl Error for Wrapped {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

/// Counts.
#[tool]
fn count(text: String) -> Result<u32, BoxError> {
    text.parse::<u32>().map_err(|e| Box::new(Wrapped(e)) as BoxError)
}

fn main() {
    let r = tools![parse_port, slow, count];
    let call = |name: &str, args: &str| r.call_blocking(&ToolCall::new("1", name, args));

    assert_eq!(call("parse_port", r#"{"text":"8080"}"#).model_text(), "8080");
    let bad = call("parse_port", r#"{"text":"99999"}"#);
    assert_eq!(bad.status, ToolStatus::Error);
    assert_eq!(bad.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(bad.model_text(), "Error [EXECUTION_ERROR]: number too large to fit in target type");

    let slow = call("slow", "{}");
    assert_eq!(slow.error_code(), Some(ToolErrorCode::Timeout));
    assert!(ToolErrorCode::Timeout.is_retryable());
    assert_eq!(slow.model_text(), "Error [TIMEOUT]: no answer after 5 s; try again later");

    let chained = call("count", r#"{"text":"x"}"#);
    assert_eq!(chained.model_text(), "Error [EXECUTION_ERROR]: reading the count: invalid digit found in string");
}
