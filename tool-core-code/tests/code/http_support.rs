//! The few helpers the workspace's web tests share that the loopback fakes need (a copy of
//! the parts of `tests/tests/http_support` they use), and the official SDKs' request check
//! (`tests/python/sdk_requests.py`, by path).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use tool_core::http::{Endpoint, RetryConfig};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// A loopback server answering POSTs to `route` with `responses`, one each, in order.
pub async fn server(route: &str, responses: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    for response in responses {
        Mock::given(method("POST"))
            .and(path(route))
            .respond_with(response)
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    server
}

pub async fn requests(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap_or_default()
}

/// Short timeouts and fast retries, so a broken exchange ends the test quickly.
pub fn test_endpoint(endpoint: Endpoint, base_url: String) -> Endpoint {
    endpoint
        .with_base_url(base_url)
        .with_connect_timeout(Duration::from_secs(2))
        .with_response_timeout(Duration::from_secs(10))
        .with_idle_timeout(Duration::from_secs(10))
        .with_retry(
            RetryConfig::default()
                .with_max_retries(2)
                .with_delays(Duration::from_millis(10), Duration::from_millis(50))
                .with_max_retry_after(Duration::from_secs(5)),
        )
}

/// The official SDK whose request types judge a body sent to `route`.
pub fn sdk_api(route: &str) -> &'static str {
    if route.ends_with("/chat/completions") {
        "chat"
    } else if route.ends_with("/responses") {
        "responses"
    } else if route.ends_with("/messages") {
        "anthropic"
    } else if route.ends_with("/interactions") {
        "interactions"
    } else {
        "gemini"
    }
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Python with the official SDKs: `TOOL_CORE_PYTHON`, or the workspace's `.venv`. CI
/// must have one; elsewhere the check is skipped with a note.
fn python() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TOOL_CORE_PYTHON") {
        return Some(path.into());
    }
    let venv = workspace().join(".venv/bin/python");
    if venv.is_file() {
        return Some(venv);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "no Python with the official SDKs: set TOOL_CORE_PYTHON"
    );
    eprintln!("SKIPPED the SDK request check: set TOOL_CORE_PYTHON to a Python with the SDKs");
    None
}

/// Every body is a valid request by the official SDK of the API its route belongs to.
pub fn assert_sdk_accepts(bodies: &[(&str, Value)]) {
    let Some(python) = python() else { return };
    let mut lines = String::new();
    for (route, body) in bodies {
        lines.push_str(&serde_json::json!({"api": sdk_api(route), "body": body}).to_string());
        lines.push('\n');
    }
    let script = workspace().join("tests/python/sdk_requests.py");
    let mut child = std::process::Command::new(python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(lines.as_bytes())
        .expect("the bodies are written");
    let output = child.wait_with_output().expect("python ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the SDKs' request types refuse a body:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        bodies.len(),
        "{stdout}"
    );
}
