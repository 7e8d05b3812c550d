//! The official Python MCP client (`mcp.Client`) on both protocol eras against the catalog
//! test server on stdio: the same tools ask its sampling, elicitation (accept, decline,
//! cancel) and roots callbacks through server-to-client requests on a handshake session and
//! through `InputRequiredResult` and retries on a 2026-07-28 one, each question once; on
//! 2026-07-28 also one round driven by hand, an altered and a moved request state refused as
//! invalid params, no `logging` capability and no log messages. Python as in `mcp_python.rs`.

#![cfg(feature = "mcp")]

use std::ffi::OsStr;

#[test]
fn the_official_python_client_gets_its_questions_on_both_eras() {
    // `legacy`: initialize (2025-11-25); `auto`: server/discover, which our server answers
    // with 2026-07-28.
    for (mode, checks) in [("legacy", 14), ("auto", 20)] {
        let ran = tool_tests::python_checks(
            &format!("the Python client on both eras, mode {mode}"),
            "mcp_mrtr_client.py",
            &[
                OsStr::new(env!("CARGO_BIN_EXE_mcp_catalog_peer")),
                OsStr::new(mode),
            ],
            checks,
        );
        if !ran {
            return;
        }
    }
}
