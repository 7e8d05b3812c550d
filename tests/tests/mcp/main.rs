//! MCP: our server and client against rmcp's own client and server, over stdio (the `mcp_peer`
//! binary), in memory and over streamable HTTP, including hostile peers.
//!
//! One test binary per area, each file a module, so that the workspace links tokio, axum,
//! reqwest and rmcp a few times instead of once per file. Tests here share one process: none
//! may rely on being alone in it (global hooks, environment variables, fixed ports).
//! New tests: a file `x.rs` next to this one and a `mod x;` line below.

#[path = "../support/spans.rs"]
mod spans;

mod mcp_apps;
mod mcp_attachments;
mod mcp_catalog_asks;
mod mcp_client;
mod mcp_client_handlers;
mod mcp_hostile;
mod mcp_http;
mod mcp_http_auth;
mod mcp_http_hostile;
mod mcp_http_progress;
mod mcp_http_scale;
mod mcp_http_security;
mod mcp_live_lists;
mod mcp_metadata;
mod mcp_mrtr;
mod mcp_mrtr_state;
mod mcp_outside_runtime;
mod mcp_peer;
mod mcp_python;
mod mcp_python_apps;
mod mcp_python_eras;
mod mcp_resources;
mod mcp_results;
mod mcp_results_eras;
mod mcp_server;
mod mcp_tasks;
mod mcp_tasks_handshake;
mod mcp_tasks_python;
mod mcp_tasks_replicas;
mod raw_session;
