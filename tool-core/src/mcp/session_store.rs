//! [`RedisSessionStore`]: the sessions of session-based MCP clients in Redis (feature
//! `mcp-redis`), so that every replica behind a load balancer can serve every session.

use std::fmt;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

use super::{McpError, McpErrorKind};

/// How long a session's state stays in Redis after it was last written, unless
/// [`RedisSessionStore::with_ttl`] says otherwise.
pub(crate) const DEFAULT_SESSION_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Session state in Redis: one key per session (`<prefix><session id>`, JSON of the
/// client's `initialize` parameters, with a time to live), written when a session starts
/// and deleted when it ends. A replica that gets a request for a session it does not hold
/// in memory loads the state and restores the session without the client noticing.
///
/// Without a shared store, a session lives only in the replica that created it: behind a
/// load balancer without stickiness, requests reaching any other replica are answered
/// HTTP 404 ("session not found") and the client must initialize again.
///
/// ```no_run
/// use std::sync::Arc;
/// use tool_core::mcp::{HttpConfig, McpServer, RedisSessionStore};
/// use tool_core::ToolRegistry;
///
/// # async fn run() -> Result<(), tool_core::mcp::McpError> {
/// let store = RedisSessionStore::connect("redis://127.0.0.1:6379/").await?;
/// let config = HttpConfig::new().session_store(Arc::new(store));
/// let serving = McpServer::new(ToolRegistry::new()).serve_http_with("0.0.0.0:8080", config).await?;
/// # let _ = serving; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisSessionStore {
    connection: redis::aio::ConnectionManager,
    prefix: String,
    ttl: Duration,
}

impl RedisSessionStore {
    /// Connects to Redis at `url` (`redis://host:port/db`); the connection reconnects by
    /// itself when Redis restarts.
    pub async fn connect(url: &str) -> Result<Self, McpError> {
        let client = redis::Client::open(url).map_err(|e| {
            McpError::new(
                McpErrorKind::Transport,
                format!("invalid Redis URL '{url}': {e}"),
            )
            .with_source(e)
        })?;
        let connection = redis::aio::ConnectionManager::new(client)
            .await
            .map_err(|e| {
                McpError::new(
                    McpErrorKind::Transport,
                    format!("could not connect to Redis at {url}: {e}"),
                )
                .with_source(e)
            })?;
        Ok(RedisSessionStore {
            connection,
            prefix: "mcp:session:".to_owned(),
            ttl: DEFAULT_SESSION_TTL,
        })
    }

    /// Key prefix (default `mcp:session:`), to share one Redis between servers.
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        self.prefix = prefix.to_owned();
        self
    }

    /// How long a session survives without being written again (default 24 h; at least 1 s).
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl.max(Duration::from_secs(1));
        self
    }

    /// The connection, for the task store that shares it.
    pub(crate) fn connection(&self) -> redis::aio::ConnectionManager {
        self.connection.clone()
    }

    fn key(&self, session_id: &str) -> String {
        format!("{}{session_id}", self.prefix)
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessionStore {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let mut connection = self.connection.clone();
        let value: Option<String> = redis::cmd("GET")
            .arg(self.key(session_id))
            .query_async(&mut connection)
            .await?;
        match value {
            None => Ok(None),
            Some(json) => Ok(Some(serde_json::from_str(&json)?)),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let mut connection = self.connection.clone();
        let json = serde_json::to_string(state)?;
        redis::cmd("SET")
            .arg(self.key(session_id))
            .arg(json)
            .arg("EX")
            .arg(self.ttl.as_secs().max(1))
            .query_async::<()>(&mut connection)
            .await?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let mut connection = self.connection.clone();
        redis::cmd("DEL")
            .arg(self.key(session_id))
            .query_async::<()>(&mut connection)
            .await?;
        Ok(())
    }
}

impl fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("prefix", &self.prefix)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}
