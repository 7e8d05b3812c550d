//! An MCP server on stdio for the child-process tests: `mcp_peer ours` serves the fixture
//! tools with tool-core, `mcp_peer theirs` with rmcp's `#[tool_router]`, and `mcp_peer die`,
//! `garbage`, `wrong-shape` or `silent` is a hostile server (see `tool_tests::mcp::hostile`).

use std::sync::Arc;

use rmcp::ServiceExt;
use tool_core::mcp::McpServer;
use tool_tests::mcp::{hostile, ours, theirs, CancelProbe};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let probe = Arc::new(CancelProbe::default());
    let outcome = match mode.as_str() {
        "ours" => McpServer::new(ours::registry(probe))
            .with_server_info("ours", "1.0.0")
            .serve_stdio()
            .await
            .map_err(|e| e.to_string()),
        "theirs" => match theirs::RmcpServer::new(probe)
            .serve(rmcp::transport::stdio())
            .await
        {
            Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        },
        other => match hostile::Misbehaviour::parse(other) {
            Some(mode) => {
                if hostile::serve(mode, tokio::io::stdin(), tokio::io::stdout()).await {
                    std::process::exit(3);
                }
                Ok(())
            }
            None => Err(format!(
                "unknown mode '{other}': use ours, theirs, die, garbage, wrong-shape or silent"
            )),
        },
    };
    if let Err(e) = outcome {
        eprintln!("mcp_peer: {e}");
        std::process::exit(1);
    }
}
