//! [`RedisTaskStore`]: tasks in Redis, on the session store's connection, so that every
//! replica answers for every task.

use std::fmt;

use super::{now_ms, TaskRecord, TaskStore, TaskStoreFuture};
use crate::mcp::{McpError, McpErrorKind, RedisSessionStore};

/// Replaces the record unless the stored one has ended, keeping the key's expiry; returns
/// the record now stored. One script, so a cancel and a completion never interleave.
const UPDATE: &str = r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return false end
if cjson.decode(stored).state ~= 'working' then return stored end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return ARGV[1]
"#;

/// Tasks in Redis: one key per task (`<prefix><task id>`, the [`TaskRecord`] as JSON),
/// expiring with the task's time to live. Every replica behind a load balancer that shares
/// the Redis reads, polls and cancels every task, and ends as `failed` a task whose replica
/// stopped renewing it.
///
/// ```no_run
/// use std::sync::Arc;
/// use tool_core::mcp::{HttpConfig, McpServer, RedisSessionStore, RedisTaskStore};
/// use tool_core::ToolRegistry;
///
/// # async fn run() -> Result<(), tool_core::mcp::McpError> {
/// let sessions = RedisSessionStore::connect("redis://127.0.0.1:6379/").await?;
/// let tasks = RedisTaskStore::new(&sessions);
/// let server = McpServer::new(ToolRegistry::new()).with_task_store(Arc::new(tasks));
/// let config = HttpConfig::new().session_store(Arc::new(sessions));
/// let serving = server.serve_http_with("0.0.0.0:8080", config).await?;
/// # let _ = serving; Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisTaskStore {
    connection: redis::aio::ConnectionManager,
    prefix: String,
}

impl RedisTaskStore {
    /// Tasks on the session store's connection (keys `mcp:task:<id>`).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::mcp::{RedisSessionStore, RedisTaskStore};
    /// let sessions = RedisSessionStore::connect("redis://127.0.0.1:6379/").await?;
    /// let tasks = RedisTaskStore::new(&sessions);
    /// # let _ = tasks; Ok(()) }
    /// ```
    pub fn new(sessions: &RedisSessionStore) -> Self {
        RedisTaskStore {
            connection: sessions.connection(),
            prefix: "mcp:task:".to_owned(),
        }
    }

    /// Key prefix (default `mcp:task:`), to share one Redis between servers.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::mcp::{RedisSessionStore, RedisTaskStore};
    /// let sessions = RedisSessionStore::connect("redis://127.0.0.1:6379/").await?;
    /// let tasks = RedisTaskStore::new(&sessions).with_prefix("billing:task:");
    /// # let _ = tasks; Ok(()) }
    /// ```
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        self.prefix = prefix.to_owned();
        self
    }

    fn key(&self, task_id: &str) -> String {
        format!("{}{task_id}", self.prefix)
    }
}

fn failed(what: &str, error: impl std::error::Error + Send + Sync + 'static) -> McpError {
    McpError::new(
        McpErrorKind::Transport,
        format!("the task store (Redis) could not {what}: {error}"),
    )
    .with_source(error)
}

fn parse(json: Option<String>) -> Result<Option<TaskRecord>, McpError> {
    json.map(|json| serde_json::from_str(&json).map_err(|e| failed("read a task's record", e)))
        .transpose()
}

impl TaskStore for RedisTaskStore {
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, ()> {
        Box::pin(async move {
            let json = serde_json::to_string(record).map_err(|e| failed("store a task", e))?;
            let ttl = record.expires_at_ms().saturating_sub(now_ms()).max(1);
            let mut connection = self.connection.clone();
            redis::cmd("SET")
                .arg(self.key(&record.task_id))
                .arg(json)
                .arg("PX")
                .arg(ttl)
                .query_async::<()>(&mut connection)
                .await
                .map_err(|e| failed("store a task", e))
        })
    }

    fn get<'a>(&'a self, task_id: &'a str) -> TaskStoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let json: Option<String> = redis::cmd("GET")
                .arg(self.key(task_id))
                .query_async(&mut connection)
                .await
                .map_err(|e| failed("read a task", e))?;
            parse(json)
        })
    }

    fn update<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let json = serde_json::to_string(record).map_err(|e| failed("update a task", e))?;
            let mut connection = self.connection.clone();
            // EVAL sends the script each time; it is short, and needs no script cache.
            let stored: Option<String> = redis::cmd("EVAL")
                .arg(UPDATE)
                .arg(1)
                .arg(self.key(&record.task_id))
                .arg(json)
                .query_async(&mut connection)
                .await
                .map_err(|e| failed("update a task", e))?;
            parse(stored)
        })
    }
}

impl fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}
