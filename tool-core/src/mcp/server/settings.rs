//! The server's settings and what it reports about itself.

use super::McpServer;
use crate::mcp::lines::DEFAULT_MAX_MESSAGE_BYTES;
use crate::registry::ToolRegistry;
use rmcp::model::Implementation;
use std::sync::Arc;
#[cfg(feature = "mcp-http")]
use std::time::Duration;

impl McpServer {
    /// The name and version the server reports in `initialize`.
    pub fn with_server_info(mut self, name: &str, version: &str) -> Self {
        self.config = self
            .config
            .with_server_info(Implementation::new(name, version));
        self
    }

    /// Instructions the client may show its model.
    pub fn with_instructions(mut self, instructions: &str) -> Self {
        self.config = self.config.with_instructions(instructions);
        self
    }

    /// How many tools one `tools/list` page holds (default 100, at least 1). Larger registries answer
    /// with a `nextCursor`.
    ///
    /// ```
    /// # use tool_core::{mcp::McpServer, ToolRegistry};
    /// let server = McpServer::new(ToolRegistry::new()).with_page_size(0);
    /// assert_eq!(server.page_size(), 1);
    /// ```
    pub fn with_page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// The longest message the server reads: one line of JSON on
    /// [`McpServer::serve_stdio`] and [`McpServer::serve_stream`] (default
    /// 16 MiB), one POST body over streamable HTTP (default
    /// rmcp's 4 MiB). A longer line is answered with a JSON-RPC `-32600` error (id `null`)
    /// and skipped without being buffered, a longer POST body with HTTP 413; the server goes
    /// on serving.
    ///
    /// ```
    /// # use tool_core::{mcp::McpServer, ToolRegistry};
    /// let server = McpServer::new(ToolRegistry::new()).with_max_message_bytes(1 << 20);
    /// assert_eq!(server.max_message_bytes(), 1 << 20);
    /// ```
    pub fn with_max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = Some(bytes);
        self
    }

    /// The message size limit on streams (see [`McpServer::with_max_message_bytes`]).
    pub fn max_message_bytes(&self) -> usize {
        self.max_message_bytes.unwrap_or(DEFAULT_MAX_MESSAGE_BYTES)
    }

    #[cfg(feature = "mcp-http")]
    pub(in crate::mcp) fn http_body_limit(&self) -> Option<usize> {
        self.max_message_bytes
    }

    #[cfg(feature = "mcp-http")]
    pub(in crate::mcp) fn with_call_timeout(mut self, limit: Option<Duration>) -> Self {
        self.call_timeout = limit;
        self
    }

    /// The `tools/list` page size.
    pub fn page_size(&self) -> usize {
        self.page_size
    }

    /// How many tools the server offers now.
    pub fn tool_count(&self) -> usize {
        self.tools.current().tools.len()
    }

    #[cfg(feature = "mcp-http")]
    pub(in crate::mcp) fn live_tools(&self) -> Arc<super::LiveTools> {
        self.tools.clone()
    }

    /// The registry being served now (see [`McpServer::handle`] to change it).
    pub fn registry(&self) -> Arc<ToolRegistry> {
        self.tools.current().registry.clone()
    }
}
