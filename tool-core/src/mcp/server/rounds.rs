//! The settings of calls that ask their client questions on 2026-07-28 sessions (see
//! `mcp::input_required`).

use std::sync::Arc;
use std::time::Duration;

use super::McpServer;
use crate::mcp::input_required::Sealer;

impl McpServer {
    /// The key that seals the state a 2026-07-28 client echoes back when it retries a call
    /// with the answers to the tool's questions (`requestState`, HMAC-SHA256).
    ///
    /// Each server makes a random key of its own, which is all one process needs. Replicas
    /// behind a load balancer, where a retry may reach another replica than the first call,
    /// need the same key: derive it from a secret they share, and keep it from clients.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, ToolRegistry};
    ///
    /// let key = [7u8; 32]; // in practice: from the replicas' shared secret
    /// let server = McpServer::new(ToolRegistry::new()).with_request_state_key(key);
    /// # let _ = server;
    /// ```
    pub fn with_request_state_key(mut self, key: [u8; 32]) -> Self {
        self.sealer = Arc::new(Sealer::new(key, self.sealer.ttl()));
        self
    }

    /// How long a 2026-07-28 client has to answer a tool's questions before the state of the
    /// call expires and a retry is refused (invalid params: the client calls again from the
    /// start). Default: one hour, time enough for a user to fill in a form.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_core::{mcp::McpServer, ToolRegistry};
    ///
    /// let server = McpServer::new(ToolRegistry::new())
    ///     .with_request_state_ttl(Duration::from_secs(10 * 60));
    /// # let _ = server;
    /// ```
    pub fn with_request_state_ttl(mut self, ttl: Duration) -> Self {
        self.sealer = Arc::new(self.sealer.with_ttl(ttl));
        self
    }
}
