//! MCP over streamable HTTP (feature `mcp-http`): [`McpServer`](super::McpServer) as an axum
//! router or a listening server configured by one [`HttpConfig`], and
//! [`McpClient::connect_http`]. Both sides are rmcp's streamable HTTP transports; this module
//! wires them to our types and adds what a deployment needs on top (the guard in front of
//! rmcp, authorization, graceful shutdown).

mod config;
mod guard;
mod router;
mod serving;

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;

pub use config::{
    HttpConfig, DEFAULT_MAX_CONCURRENT_CALLS, DEFAULT_SHUTDOWN_GRACE, LOOPBACK_HOSTS,
    LOOPBACK_ORIGINS,
};
pub use guard::SERVER_BUSY;
pub use serving::{HttpServing, ShutdownSignal};

use super::{McpClient, McpError};

/// The path [`McpServer::serve_http`](super::McpServer::serve_http) serves MCP on unless
/// [`HttpConfig::with_path`] says otherwise.
pub const DEFAULT_HTTP_PATH: &str = "/mcp";

impl McpClient {
    /// Connects to an MCP server over streamable HTTP at `url` (e.g.
    /// `"http://127.0.0.1:8080/mcp"`), runs the handshake and fetches the tool list, each
    /// bounded by [`DEFAULT_CALL_TIMEOUT`](super::DEFAULT_CALL_TIMEOUT). `https://` uses
    /// rustls with the `ring` provider (installed as the process default unless the
    /// application chose one). A server that goes away later makes calls of its tools
    /// `SERVICE_UNAVAILABLE` or `NETWORK_ERROR` responses.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::{mcp::McpClient, ToolRegistry};
    ///
    /// let client = McpClient::connect_http("http://127.0.0.1:8080/mcp").await?;
    /// let mut registry = ToolRegistry::new();
    /// client.register_into(&mut registry, Some("calc_"))?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_http(url: &str) -> Result<McpClient, McpError> {
        // reqwest is built without a default crypto provider (aws-lc-rs would need cmake).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            // A redirect could replay the session id to another host; rmcp's own default
            // client follows same-origin ones only, ours follows none.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| McpError::Transport(format!("could not build the HTTP client: {e}")))?;
        let transport = StreamableHttpClientTransport::with_client(
            http,
            StreamableHttpClientTransportConfig::with_uri(url),
        );
        Self::connect(transport).await
    }
}
