//! Timeouts for async tools: the tool's own `timeout_ms`, else the registry default; both
//! answer TIMEOUT, on tokio's timer inside a runtime and on the crate's own timer elsewhere.

use std::time::Duration;

use tool_core::{tool, tools, ToolCall, ToolErrorCode, ToolRegistry};

/// Sleeps far longer than its limit.
#[tool(timeout_ms = 20)]
async fn hangs() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "never".into()
}

/// Sleeps a little, with no limit of its own.
#[tool]
async fn naps(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".into()
}

/// Finishes well inside its limit.
#[tool(timeout_ms = 5000)]
async fn quick() -> String {
    tokio::task::yield_now().await;
    "quick".into()
}

fn registry() -> ToolRegistry {
    tools![hangs, naps, quick]
}

#[tokio::test]
async fn tool_timeout_ms_cuts_off_a_hanging_tool_with_timeout() {
    let started = std::time::Instant::now();
    let r = registry().call(&ToolCall::new("1", "hangs", "{}")).await;
    assert_eq!(r.error_code(), Some(ToolErrorCode::Timeout));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("did not finish within 20 ms"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(r.time_ms().unwrap() >= 20);
}

#[tokio::test]
async fn registry_default_timeout_applies_to_tools_without_their_own() {
    let registry = registry().with_default_timeout(Duration::from_millis(30));
    let r = registry
        .call(&ToolCall::new("1", "naps", r#"{"ms":10000}"#))
        .await;
    assert_eq!(r.error_code(), Some(ToolErrorCode::Timeout));
    assert!(r.error_message().unwrap().contains("30 ms"));
}

#[tokio::test]
async fn tool_own_limit_wins_over_the_registry_default() {
    let registry = registry().with_default_timeout(Duration::from_millis(1));
    let r = registry.call(&ToolCall::new("1", "quick", "{}")).await;
    assert_eq!(r.model_text(), "quick");
}

#[tokio::test]
async fn a_tool_within_its_limit_succeeds() {
    let registry = registry().with_default_timeout(Duration::from_secs(5));
    let r = registry
        .call(&ToolCall::new("1", "naps", r#"{"ms":5}"#))
        .await;
    assert_eq!(r.model_text(), "rested");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_work_on_a_multi_thread_runtime_with_concurrent_calls() {
    let registry = registry().with_default_timeout(Duration::from_millis(40));
    let calls = [
        ToolCall::new("a", "naps", r#"{"ms":1}"#),
        ToolCall::new("b", "hangs", "{}"),
        ToolCall::new("c", "naps", r#"{"ms":10000}"#),
    ];
    let out = registry.call_all(&calls).await;
    assert_eq!(out[0].model_text(), "rested");
    assert_eq!(out[1].error_code(), Some(ToolErrorCode::Timeout));
    assert_eq!(out[2].error_code(), Some(ToolErrorCode::Timeout));
}

#[test]
fn outside_a_tokio_runtime_a_quick_tool_completes_and_nothing_panics() {
    // No tokio runtime here: `block_on` is the core's own executor. A tool that finishes at
    // once is not cut off by its 1 ms limit, and the crate's timer thread does not panic.
    /// Yields once.
    #[tool(timeout_ms = 1)]
    async fn yields() -> String {
        std::future::ready(()).await;
        "done".into()
    }
    let r = tools![yields].call_blocking(&ToolCall::new("1", "yields", "{}"));
    assert_eq!(r.model_text(), "done");
}

#[test]
fn outside_a_tokio_runtime_a_hanging_tool_is_cut_off_all_the_same() {
    // `call_blocking` runs on the core's own executor, with no tokio timer: the limit is
    // enforced on the crate's timer thread.
    /// Never finishes.
    #[tool(timeout_ms = 30)]
    async fn stuck() -> String {
        std::future::pending::<()>().await;
        "never".into()
    }
    let started = std::time::Instant::now();
    let r = tools![stuck].call_blocking(&ToolCall::new("1", "stuck", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::Timeout));
    assert!(r.error_message().unwrap().contains("within 30 ms"));
    assert!(started.elapsed() >= Duration::from_millis(30));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn outside_a_tokio_runtime_the_registry_default_applies_too() {
    /// Never finishes, and declares no limit of its own.
    #[tool]
    async fn stuck() -> String {
        std::future::pending::<()>().await;
        "never".into()
    }
    let registry = tools![stuck].with_default_timeout(Duration::from_millis(20));
    let calls = [
        ToolCall::new("a", "stuck", "{}"),
        ToolCall::new("b", "stuck", "{}"),
    ];
    let out = tool_core::block_on(registry.call_all(&calls));
    assert!(out
        .iter()
        .all(|r| r.error_code() == Some(ToolErrorCode::Timeout)));
}
