//! MCP over streamable HTTP (feature `mcp-http`): [`McpServer`](super::McpServer) as an axum
//! router or a listening server configured by one [`HttpConfig`], and
//! [`McpClient::connect_http`]. Both sides are rmcp's streamable HTTP transports; this module
//! wires them to our types and adds what a deployment needs on top (the guard in front of
//! rmcp, authorization, graceful shutdown).

mod client;
mod config;
mod guard;
mod router;
mod serving;

pub use client::HttpClientOptions;
pub use config::HttpConfig;
pub use guard::SERVER_BUSY;
pub use serving::{HttpServing, ShutdownSignal};

/// The path [`McpServer::serve_http`](super::McpServer::serve_http) serves MCP on unless
/// [`HttpConfig::with_path`] says otherwise.
pub const DEFAULT_HTTP_PATH: &str = "/mcp";
