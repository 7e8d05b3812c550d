//! The official Python MCP client (`mcp` from PyPI) against the catalog test server on stdio:
//! resources, templates, reads, prompts with and without arguments, completion, setLevel then
//! log notifications, sampling, elicitation (accept, decline, cancel) and roots answered by
//! the client's callbacks, a subscription's update and list_changed after a registration.
//!
//! Python comes from `TOOL_CORE_PYTHON`, else `<workspace>/.venv/bin/python`; make one with
//! `python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0`.

#![cfg(feature = "mcp")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("TOOL_CORE_PYTHON") {
        return PathBuf::from(path);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let venv = workspace.join(".venv/bin/python");
    if venv.exists() {
        return venv;
    }
    panic!(
        "no Python with the `mcp` package for this test: set TOOL_CORE_PYTHON to one, or run \
         `python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0` in {}",
        workspace.display()
    );
}

#[test]
fn the_official_python_client_exercises_resources_prompts_and_the_peer() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/mcp_catalog_client.py");
    let output = Command::new(python())
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_mcp_catalog_peer"))
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
        33,
        "{stdout}"
    );
}
