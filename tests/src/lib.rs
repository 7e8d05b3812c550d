//! Integration tests for tool-core live in `tests/`. This library holds the hand-written tools
//! they share: tools whose behaviour a test scripts and whose runs it counts.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;

use tool_core::{CallFuture, Tool, ToolAnnotations, ToolContext, ToolErrorCode, ToolResponse};

/// A tool that fails with a chosen code while told to, counts its runs, and echoes the call id
/// on success.
///
/// ```
/// use tool_core::{ToolCall, ToolErrorCode, ToolRegistry};
/// let flaky = tool_tests::Scripted::new("flaky");
/// let registry = ToolRegistry::new().with(flaky.clone());
/// flaky.fail_next(1, ToolErrorCode::RateLimit);
/// assert!(registry.call_blocking(&ToolCall::new("1", "flaky", "{}")).is_error());
/// assert_eq!(registry.call_blocking(&ToolCall::new("2", "flaky", "{}")).model_text(), "ok 2");
/// assert_eq!(flaky.runs(), 2);
/// ```
#[derive(Clone)]
pub struct Scripted {
    name: &'static str,
    annotations: ToolAnnotations,
    state: Arc<State>,
}

struct State {
    runs: AtomicUsize,
    failures_left: AtomicU32,
    code: std::sync::Mutex<ToolErrorCode>,
}

impl Scripted {
    /// A tool named `name` that succeeds until told otherwise.
    pub fn new(name: &'static str) -> Self {
        Scripted {
            name,
            annotations: ToolAnnotations::NONE,
            state: Arc::new(State {
                runs: AtomicUsize::new(0),
                failures_left: AtomicU32::new(0),
                code: std::sync::Mutex::new(ToolErrorCode::ServiceUnavailable),
            }),
        }
    }

    /// The same tool, annotated `destructive`.
    pub fn destructive(mut self) -> Self {
        self.annotations.destructive = Some(true);
        self
    }

    /// Fails the next `n` runs with `code`.
    pub fn fail_next(&self, n: u32, code: ToolErrorCode) {
        *self.state.code.lock().unwrap_or_else(|e| e.into_inner()) = code;
        self.state.failures_left.store(n, Ordering::SeqCst);
    }

    /// How many times the tool body has run.
    pub fn runs(&self) -> usize {
        self.state.runs.load(Ordering::SeqCst)
    }
}

impl Tool for Scripted {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "A scripted test tool."
    }
    fn annotations(&self) -> ToolAnnotations {
        self.annotations
    }
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {}})
    }
    fn call<'a>(&'a self, _arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.state.runs.fetch_add(1, Ordering::SeqCst);
        let fail = self
            .state
            .failures_left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if fail {
            let code = *self.state.code.lock().unwrap_or_else(|e| e.into_inner());
            return CallFuture::ready(ToolResponse::error(code, "scripted failure"));
        }
        CallFuture::ready(ToolResponse::success(format!("ok {}", ctx.call_id())))
    }
}

#[cfg(feature = "mcp")]
pub mod mcp;

/// The Python that has the official MCP SDK (and FastMCP, and the providers' SDKs), for the tests
/// that run it as a peer or as a judge of requests:
/// `TOOL_CORE_PYTHON`, else `.venv/bin/python` at the workspace root (`.ci/run` makes it).
///
/// Without one, `cargo test --workspace` on a machine with only a Rust toolchain still passes:
/// the test says loudly that it skipped and how to include it. Under CI (`CI` set) a missing
/// Python is a failure, never a skip.
/// Runs `tests/python/SCRIPT` with `args` on the Python [`mcp_python`] finds, and asserts that
/// it passed every one of its `checks` (each prints a line starting `ok `, and the script ends
/// with `all checks passed`): a check that is skipped would not print its line. Returns
/// `false` (after saying so) when there is no such Python outside CI.
pub fn python_checks(test: &str, script: &str, args: &[&std::ffi::OsStr], checks: usize) -> bool {
    let Some(python) = mcp_python(test) else {
        return false;
    };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("python")
        .join(script);
    let output = std::process::Command::new(&python)
        .arg(&script)
        .args(args)
        .output()
        .expect("python starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{test}: the Python client failed\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    assert_eq!(
        stdout.lines().last(),
        Some("all checks passed"),
        "{test}: {stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        checks,
        "{test}: {stdout}"
    );
    true
}

pub fn mcp_python(test: &str) -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("TOOL_CORE_PYTHON") {
        return Some(path.into());
    }
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let venv = workspace.join(".venv/bin/python");
    if venv.is_file() {
        return Some(venv);
    }
    let how = format!(
        "set TOOL_CORE_PYTHON to a Python with the MCP SDK, or run `python3 -m venv .venv && \
         .venv/bin/pip install mcp==2.3.0 fastmcp==4.1.6 openai==3.51.0 anthropic==2.10.0 google-genai==3.3.0` in {}",
        workspace.display()
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: no Python with the official MCP SDK: {how}"
    );
    eprintln!("SKIPPED {test}: no Python with the official MCP SDK; to include it, {how}");
    None
}
