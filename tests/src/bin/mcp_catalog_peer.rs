//! The catalog test server (`tool_tests::mcp::catalog`) on stdio, for the official Python MCP
//! client in `tests/mcp_python.rs`.

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(e) = tool_tests::mcp::catalog::server().serve_stdio().await {
        eprintln!("mcp_catalog_peer: {e}");
        std::process::exit(1);
    }
}
