//! Runnable examples: `cargo run --example NAME`. Most need no feature; `agent_sse` needs
//! `--features sse`, `mcp_server` and `mcp_client` need `--features mcp`, and the quickstart
//! reaches a real model endpoint with `--features http`.

pub mod apps;
pub mod demo;
