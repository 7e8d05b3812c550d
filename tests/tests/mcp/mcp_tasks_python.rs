//! The official Python MCP client (`tests/python/mcp_tasks_client.py`) against a replica
//! (`mcp_http_replica`) over streamable HTTP: `long_count` called plainly on both eras sends
//! `notifications/progress` for the call's token and gives "counted to 5"; with a tasks
//! extension built on the SDK's extension seam (the SDK has none of its own), discover offers
//! the extension, the call becomes a task whose polled result equals the plain call's, and
//! `tasks/cancel` ends a task `cancelled`. Python as in `mcp_python.rs`.

#![cfg(feature = "mcp-redis")]

use std::ffi::OsStr;
use std::sync::{Arc, Mutex};

use super::mcp_http_scale::replica;

#[test]
fn the_official_python_client_calls_long_count_plainly_and_as_a_task() {
    let (_replica, port) = replica(&[], Arc::new(Mutex::new(Vec::new())));
    let url = format!("http://127.0.0.1:{port}/mcp");
    tool_tests::python_checks(
        "the Python tasks client",
        "mcp_tasks_client.py",
        &[OsStr::new(&url)],
        15,
    );
}
