//! The catalog test server (`tool_tests::mcp::catalog`) on stdio, for the official Python MCP
//! client in `tests/mcp_python.rs`; with the argument `apps`, the `mcp_http` example's server
//! instead (its demo tools and the `weather_dashboard` tool with its view), for
//! `tests/mcp_python_apps.rs`.

use tool_core::mcp::McpServer;
use tool_core::tools;
use tool_examples::apps::{self, weather_dashboard};
use tool_examples::demo::{add, get_weather, search};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = match std::env::args().nth(1).as_deref() {
        Some("apps") => McpServer::new(tools![get_weather, add, search, weather_dashboard])
            .with_catalog(apps::catalog()),
        _ => tool_tests::mcp::catalog::server(),
    };
    if let Err(e) = server.serve_stdio().await {
        eprintln!("mcp_catalog_peer: {e}");
        std::process::exit(1);
    }
}
