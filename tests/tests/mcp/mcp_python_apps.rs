//! The official Python MCP client on both protocol eras (`python/mcp_apps_results_client.py`):
//! a non-object structured result in each era's shape, validated by the SDK against the output
//! schema that era lists, and the `mcp_http` example's tool with an interactive view (MCP
//! Apps). Python as in `mcp_python.rs`.

#![cfg(feature = "mcp")]

use std::ffi::OsStr;

#[test]
fn the_official_python_client_gets_each_eras_results_and_the_apps_view() {
    // Per era 4 checks on results, 9 on apps (one per tool of the example).
    tool_tests::python_checks(
        "the Python client on results and apps",
        "mcp_apps_results_client.py",
        &[OsStr::new(env!("CARGO_BIN_EXE_mcp_catalog_peer"))],
        26,
    );
}
