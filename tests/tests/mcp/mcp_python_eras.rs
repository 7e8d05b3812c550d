//! The official Python MCP client (`mcp.Client`) on both protocol eras against the catalog
//! test server on stdio: the same tools ask its sampling, elicitation (accept, decline,
//! cancel) and roots callbacks through server-to-client requests on a handshake session and
//! through `InputRequiredResult` and retries on a 2026-07-28 one, each question once; on
//! 2026-07-28 also one round driven by hand, an altered and a moved request state refused as
//! invalid params, no `logging` capability and no log messages. Python as in `mcp_python.rs`.

#![cfg(feature = "mcp")]

use std::path::Path;
use std::process::Command;

#[test]
fn the_official_python_client_gets_its_questions_on_both_eras() {
    let Some(python) = tool_tests::mcp_python("the Python client on both eras") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/mcp_mrtr_client.py");
    // `legacy`: initialize (2025-11-25); `auto`: server/discover, which our server answers
    // with 2026-07-28.
    for (mode, checks) in [("legacy", 14), ("auto", 20)] {
        let output = Command::new(&python)
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_mcp_catalog_peer"))
            .arg(mode)
            .output()
            .expect("python starts");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "the Python client failed in mode {mode}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
        );
        assert_eq!(stdout.lines().last(), Some("all checks passed"), "{stdout}");
        // Every check ran (a check that is skipped would not print its line).
        assert_eq!(
            stdout.lines().filter(|l| l.starts_with("ok ")).count(),
            checks,
            "{mode}: {stdout}"
        );
    }
}
