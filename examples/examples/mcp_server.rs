//! The demo tools (`tool_examples::demo`, the quickstart's three) as an MCP server on stdio:
//! any MCP client (a desktop assistant, an IDE, an agent framework) can list and call them.
//! Nothing here is MCP-specific except the last line of `main`; the same `#[tool]` functions
//! serve direct model calls too.
//!
//! `cargo run --example mcp_server --features mcp` (then speak JSON-RPC on stdin, or let a
//! client start it; see `mcp_client`). The `mcp` feature builds the official MCP SDK, which the
//! other examples do not need. Logs go to stderr: stdout carries only the protocol.

use tool_core::mcp::McpServer;
use tool_core::tools;
use tool_examples::demo::{add, get_weather, search};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = tools![get_weather, add, search];
    eprintln!(
        "mcp_server: serving {} tools on stdio",
        registry.names().collect::<Vec<_>>().join(", ")
    );
    let server = McpServer::new(registry).with_server_info("quickstart", env!("CARGO_PKG_VERSION"));
    if let Err(e) = server.serve_stdio().await {
        eprintln!("mcp_server: {e}");
        std::process::exit(1);
    }
}
