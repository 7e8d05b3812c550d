//! The MCP client's connections need a tokio runtime (rmcp's tasks, tokio's child processes
//! and timers); polled outside one they fail with an error that says so, before anything
//! starts, instead of panicking inside rmcp or tokio.

use tool_core::mcp::{McpClient, McpErrorKind};

#[test]
fn connecting_over_http_outside_a_tokio_runtime_says_what_is_missing() {
    // tool-core's own executor is not tokio. Port 9 (discard) is never reached.
    let error = tool_core::block_on(McpClient::connect_http("http://127.0.0.1:9/mcp"))
        .expect_err("no runtime");
    assert_eq!(error.kind(), McpErrorKind::Transport);
    let message = error.to_string();
    assert!(
        message.contains("connecting an MCP client over HTTP needs a tokio runtime"),
        "{message}"
    );
}

#[test]
fn spawning_a_server_outside_a_tokio_runtime_says_what_is_missing() {
    let command = tokio::process::Command::new("true");
    let error = tool_core::block_on(McpClient::spawn(command)).expect_err("no runtime");
    assert_eq!(error.kind(), McpErrorKind::Transport);
    assert!(
        error
            .to_string()
            .contains("starting an MCP server process needs a tokio runtime"),
        "{error}"
    );
}
