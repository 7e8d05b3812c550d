//! The error types applications use, returned from `#[tool]` functions: `anyhow::Error`,
//! `Box<dyn Error + Send + Sync>`, `String`, `&'static str`, a `thiserror` enum and
//! `ToolError`. Each call goes through the registry; the test pins the exact text the model
//! reads, the status and the code (and that a code found inside a chain is kept).

use std::error::Error;

use anyhow::Context as _;
use tool_core::{tool, tools, ToolCall, ToolError, ToolErrorCode, ToolRegistry, ToolStatus};

type BoxError = Box<dyn Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
enum FetchError {
    #[error("the server answered {0}")]
    Status(u16),
    #[error("the response was not valid JSON")]
    Body(#[source] std::num::ParseIntError),
    #[error("connecting to {host}: {source}")]
    Connect {
        host: String,
        #[source]
        source: std::io::Error,
    },
}

/// Fails with anyhow and two contexts.
#[tool]
fn anyhow_chain() -> anyhow::Result<String> {
    let inner: Result<u32, _> = "x1".parse::<u32>();
    let n = inner
        .context("parsing the page count")
        .context("reading config.toml")?;
    Ok(n.to_string())
}

/// Fails with a ToolError under an anyhow context.
#[tool]
async fn anyhow_coded() -> anyhow::Result<String> {
    Err(ToolError::rate_limit(
        "60 requests per minute used; retry in 20 s",
    ))
    .context("searching the index")
}

/// Fails with anyhow!.
#[tool]
fn anyhow_plain() -> anyhow::Result<()> {
    Err(anyhow::anyhow!("nothing to do"))
}

/// Fails with a boxed std error.
#[tool]
fn boxed_std() -> Result<u8, BoxError> {
    Ok("300".parse::<u8>()?)
}

/// Fails with a boxed ToolError.
#[tool]
async fn boxed_coded() -> Result<u8, BoxError> {
    Err(ToolError::permission_denied("'/etc' is outside the workspace").into())
}

/// Fails with a boxed string.
#[tool]
fn boxed_str() -> Result<u8, BoxError> {
    Err("the cache is cold".into())
}

/// Fails with a String.
#[tool]
fn string_error(n: i64) -> Result<i64, String> {
    Err(format!("{n} is odd; pass an even number"))
}

/// Fails with a static str.
#[tool]
fn str_error() -> Result<i64, &'static str> {
    Err("no data for that day")
}

/// Fails with a thiserror enum.
#[tool]
fn enum_error(kind: String) -> Result<String, FetchError> {
    Err(match kind.as_str() {
        "status" => FetchError::Status(503),
        "body" => FetchError::Body("{".parse::<u8>().unwrap_err()),
        _ => FetchError::Connect {
            host: "api.example.com".into(),
            source: std::io::Error::other("connection refused"),
        },
    })
}

/// Fails with a ToolError.
#[tool]
fn tool_error() -> Result<String, ToolError> {
    Err(ToolError::conflict(
        "the note changed since it was read; read it again",
    ))
}

fn registry() -> ToolRegistry {
    tools![
        anyhow_chain,
        anyhow_coded,
        anyhow_plain,
        boxed_std,
        boxed_coded,
        boxed_str,
        string_error,
        str_error,
        enum_error,
        tool_error,
    ]
}

/// Calls `name` and checks it failed with `code`; returns what the model reads.
fn failure(registry: &ToolRegistry, name: &str, args: &str, code: ToolErrorCode) -> String {
    let reply = registry.call_blocking(&ToolCall::new("1", name, args));
    assert_eq!(reply.status, ToolStatus::Error, "{name}: {reply:?}");
    assert_eq!(reply.error_code(), Some(code), "{name}: {reply:?}");
    assert!(
        reply.text.is_empty(),
        "{name}: the message lives in error_info"
    );
    reply.model_text().into_owned()
}

#[test]
fn anyhow_errors_show_the_whole_context_chain() {
    let r = registry();
    assert_eq!(
        failure(&r, "anyhow_chain", "{}", ToolErrorCode::ExecutionError),
        "Error [EXECUTION_ERROR]: reading config.toml: parsing the page count: invalid digit found in string"
    );
    assert_eq!(
        failure(&r, "anyhow_plain", "{}", ToolErrorCode::ExecutionError),
        "Error [EXECUTION_ERROR]: nothing to do"
    );
}

#[test]
fn a_tool_error_inside_anyhow_keeps_its_code() {
    assert_eq!(
        failure(&registry(), "anyhow_coded", "{}", ToolErrorCode::RateLimit),
        "Error [RATE_LIMIT]: searching the index: 60 requests per minute used; retry in 20 s"
    );
}

#[test]
fn boxed_errors_read_like_their_contents() {
    let r = registry();
    assert_eq!(
        failure(&r, "boxed_std", "{}", ToolErrorCode::ExecutionError),
        "Error [EXECUTION_ERROR]: number too large to fit in target type"
    );
    assert_eq!(
        failure(&r, "boxed_coded", "{}", ToolErrorCode::PermissionDenied),
        "Error [PERMISSION_DENIED]: '/etc' is outside the workspace"
    );
    assert_eq!(
        failure(&r, "boxed_str", "{}", ToolErrorCode::ExecutionError),
        "Error [EXECUTION_ERROR]: the cache is cold"
    );
}

#[test]
fn string_errors_are_the_message() {
    let r = registry();
    assert_eq!(
        failure(
            &r,
            "string_error",
            r#"{"n":3}"#,
            ToolErrorCode::ExecutionError
        ),
        "Error [EXECUTION_ERROR]: 3 is odd; pass an even number"
    );
    assert_eq!(
        failure(&r, "str_error", "{}", ToolErrorCode::ExecutionError),
        "Error [EXECUTION_ERROR]: no data for that day"
    );
}

#[test]
fn thiserror_enums_show_their_message_and_causes_once() {
    let r = registry();
    let text = |kind: &str| {
        failure(
            &r,
            "enum_error",
            &format!(r#"{{"kind":"{kind}"}}"#),
            ToolErrorCode::ExecutionError,
        )
    };
    assert_eq!(
        text("status"),
        "Error [EXECUTION_ERROR]: the server answered 503"
    );
    assert_eq!(
        text("body"),
        "Error [EXECUTION_ERROR]: the response was not valid JSON: invalid digit found in string"
    );
    // The cause is already part of the message: it is not repeated.
    assert_eq!(
        text("connect"),
        "Error [EXECUTION_ERROR]: connecting to api.example.com: connection refused"
    );
}

#[test]
fn tool_errors_keep_code_and_message() {
    assert_eq!(
        failure(&registry(), "tool_error", "{}", ToolErrorCode::Conflict),
        "Error [CONFLICT]: the note changed since it was read; read it again"
    );
}

#[test]
fn a_retryable_code_is_retried_by_a_retry_policy() {
    use std::sync::atomic::{AtomicU32, Ordering};
    static RUNS: AtomicU32 = AtomicU32::new(0);

    /// Busy twice, then answers.
    #[tool]
    fn flaky() -> anyhow::Result<String> {
        if RUNS.fetch_add(1, Ordering::SeqCst) < 2 {
            return Err(ToolError::unavailable("warming up")).context("calling the backend");
        }
        Ok("ready".into())
    }

    let zero = std::time::Duration::ZERO;
    let policy = tool_core::RetryPolicy::new(3).backoff(zero, zero);
    let r = tools![flaky].with_retry(flaky {}, policy);
    let reply = r.call_blocking(&ToolCall::new("1", "flaky", "{}"));
    assert_eq!(reply.model_text(), "ready");
    assert_eq!(RUNS.load(Ordering::SeqCst), 3);
}
