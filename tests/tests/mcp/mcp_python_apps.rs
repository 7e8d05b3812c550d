//! The official Python MCP client on both protocol eras (`python/mcp_apps_results_client.py`):
//! a non-object structured result in each era's shape, validated by the SDK against the output
//! schema that era lists, and the `mcp_http` example's tool with an interactive view (MCP
//! Apps). Python as in `mcp_python.rs`.

#![cfg(feature = "mcp")]

use std::path::Path;
use std::process::Command;

#[test]
fn the_official_python_client_gets_each_eras_results_and_the_apps_view() {
    let Some(python) = tool_tests::mcp_python("the Python client on results and apps") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/mcp_apps_results_client.py");
    let output = Command::new(&python)
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
    // Every check ran (a check that is skipped would not print its line): per era 4 on
    // results, 9 on apps (one per tool of the example).
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        26,
        "{stdout}"
    );
}
