//! The official SDKs' request types, as `assert_sdk_accepts` uses them, in one Python
//! process for the whole test binary: the checker takes seconds to start (it imports four
//! SDKs), and the tests would otherwise start it once per check.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use serde_json::{json, Value};

use super::sdk_api;

struct Checker {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    // Kept so the process lives as long as the test binary; it ends when stdin closes.
    _child: Child,
}

fn checker() -> Option<&'static Mutex<Checker>> {
    static CHECKER: OnceLock<Option<Mutex<Checker>>> = OnceLock::new();
    CHECKER
        .get_or_init(|| {
            let python =
                tool_tests::mcp_python("checking requests against the official SDKs' types")?;
            let script =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("python/sdk_requests.py");
            // -u: each verdict line is written at once, so one process serves every row.
            let mut child = Command::new(python)
                .arg("-u")
                .arg(script)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("python starts");
            let stdin = child.stdin.take().expect("stdin is piped");
            let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
            Some(Mutex::new(Checker {
                stdin,
                stdout,
                _child: child,
            }))
        })
        .as_ref()
}

/// Every body is a valid request by the official SDK of the API its route belongs to.
pub fn assert_accepts(bodies: &[(&str, Value)]) {
    let named: Vec<(&str, &Value)> = bodies
        .iter()
        .map(|(route, body)| (sdk_api(route), body))
        .collect();
    assert_named(&named);
}

/// Every value is valid by the SDK types `tests/python/sdk_requests.py` names with its
/// `api` (a request body's API, or one of the response checks).
pub fn assert_named(bodies: &[(&str, &Value)]) {
    let Some(checker) = checker() else {
        return;
    };
    let mut checker = checker
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut lines = String::new();
    for (api, body) in bodies {
        lines.push_str(&json!({"api": api, "body": body}).to_string());
        lines.push('\n');
    }
    checker
        .stdin
        .write_all(lines.as_bytes())
        .and_then(|()| checker.stdin.flush())
        .expect("the bodies are written");
    let mut refused = Vec::new();
    for (api, body) in bodies {
        let mut verdict = String::new();
        checker
            .stdout
            .read_line(&mut verdict)
            .expect("the checker answers");
        if !verdict.starts_with("ok ") {
            refused.push(format!("{api}: {}\n  {body}", verdict.trim_end()));
        }
    }
    assert!(
        refused.is_empty(),
        "the official SDKs' request types refuse {} body(ies):\n{}",
        refused.len(),
        refused.join("\n")
    );
}
