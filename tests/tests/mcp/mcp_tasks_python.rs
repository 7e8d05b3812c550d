//! The official Python MCP client (`tests/python/mcp_tasks_client.py`) against a replica
//! (`mcp_http_replica`) over streamable HTTP: `long_count` called plainly on both eras sends
//! `notifications/progress` for the call's token and gives "counted to 5"; with a tasks
//! extension built on the SDK's extension seam (the SDK has none of its own), discover offers
//! the extension, the call becomes a task whose polled result equals the plain call's, and
//! `tasks/cancel` ends a task `cancelled`. Python as in `mcp_python.rs`.

#![cfg(feature = "mcp-redis")]

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

use super::mcp_http_scale::replica;

#[test]
fn the_official_python_client_calls_long_count_plainly_and_as_a_task() {
    let Some(python) = tool_tests::mcp_python("the Python tasks client") else {
        return;
    };
    let (_replica, port) = replica(&[], Arc::new(Mutex::new(Vec::new())));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/mcp_tasks_client.py");
    let output = Command::new(&python)
        .arg(&script)
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .output()
        .expect("python starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python client failed\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    assert_eq!(stdout.lines().last(), Some("all checks passed"), "{stdout}");
    // Every check ran (a check that is skipped would not print its line).
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        15,
        "{stdout}"
    );
}
