//! MCP tasks: a call that answers at once with a handle, runs on, and is read, polled or
//! cancelled later. The state of every task lives behind a [`TaskStore`] (in memory, or
//! in Redis so that every replica answers for every task); `server::tasks` speaks the
//! protocol, `worker` runs a task and keeps its record alive.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::McpError;

pub(crate) mod handshake_era;
mod memory;
#[cfg(feature = "mcp-redis")]
mod redis;
pub(crate) mod time;
pub(crate) mod worker;

pub use memory::MemoryTaskStore;
#[cfg(feature = "mcp-redis")]
pub use redis::RedisTaskStore;

/// How long a finished task stays readable unless [`McpServer::with_task_timing`] says
/// otherwise.
///
/// [`McpServer::with_task_timing`]: crate::mcp::McpServer::with_task_timing
pub(crate) const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

/// The polling interval a task suggests to its client unless configured otherwise.
pub(crate) const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// How long a task's record counts as alive after its replica last renewed it: a replica
/// that died (killed, lost power) leaves a record that readers then end as `failed`.
pub(crate) const LEASE: Duration = Duration::from_secs(6);

/// How often the replica running a task renews its lease, writes the step reached and
/// looks whether the task was cancelled (possibly on another replica).
pub(crate) const HEARTBEAT: Duration = Duration::from_millis(200);

/// The state of a task.
///
/// ```
/// use tool_core::mcp::TaskState;
/// assert!(TaskState::Cancelled.is_terminal());
/// assert_eq!(serde_json::to_string(&TaskState::Working).unwrap(), r#""working""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TaskState {
    /// The tool is running.
    Working,
    /// The tool finished; the record holds its `CallToolResult` (also when the tool failed:
    /// that is a result with `isError: true`).
    Completed,
    /// The task could not finish (its replica stopped); the record holds the error.
    Failed,
    /// A client cancelled the task.
    Cancelled,
}

impl TaskState {
    /// Whether the task has ended: its record no longer changes.
    ///
    /// ```
    /// assert!(!tool_core::mcp::TaskState::Working.is_terminal());
    /// ```
    pub fn is_terminal(self) -> bool {
        !matches!(self, TaskState::Working)
    }
}

/// One task as a [`TaskStore`] keeps it (as JSON, in the Redis store). Times are
/// milliseconds since the Unix epoch.
///
/// ```
/// use tool_core::mcp::{TaskRecord, TaskState};
/// let record: TaskRecord = serde_json::from_value(serde_json::json!({
///     "taskId": "t1", "state": "working", "createdAtMs": 1, "updatedAtMs": 1,
///     "ttlMs": 60000, "pollIntervalMs": 500, "owner": "replica-a", "leaseUntilMs": 6001
/// })).unwrap();
/// assert_eq!(record.state, TaskState::Working);
/// assert_eq!(record.expires_at_ms(), 60001);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task's id (random, unguessable).
    pub task_id: String,
    /// Where the task stands.
    pub state: TaskState,
    /// What the tool last reported (its progress message, e.g. `step 3 of 10`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// When the task was created.
    pub created_at_ms: u64,
    /// When the task last changed.
    pub updated_at_ms: u64,
    /// How long after its creation the task stays readable.
    pub ttl_ms: u64,
    /// The polling interval suggested to the client.
    pub poll_interval_ms: u64,
    /// `completed`: the tool's `CallToolResult`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// `failed`: the JSON-RPC error (`{code, message}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// The tool the task runs.
    #[serde(default)]
    pub tool: String,
    /// The replica running the task.
    pub owner: String,
    /// Until when the owner's last heartbeat keeps a `working` task alive.
    pub lease_until_ms: u64,
}

impl TaskRecord {
    /// When the task stops being readable (its creation plus its time to live).
    ///
    /// ```
    /// # let record: tool_core::mcp::TaskRecord = serde_json::from_value(serde_json::json!({
    /// #     "taskId": "t1", "state": "completed", "createdAtMs": 1000, "updatedAtMs": 1500,
    /// #     "ttlMs": 500, "pollIntervalMs": 100, "owner": "a", "leaseUntilMs": 0})).unwrap();
    /// assert_eq!(record.expires_at_ms(), 1500);
    /// ```
    pub fn expires_at_ms(&self) -> u64 {
        self.created_at_ms.saturating_add(self.ttl_ms)
    }

    /// Whether the owner stopped renewing a working task's lease (its replica is gone).
    pub(crate) fn is_orphaned(&self, now_ms: u64) -> bool {
        self.state == TaskState::Working && self.lease_until_ms < now_ms
    }
}

/// The future a [`TaskStore`] method returns.
///
/// ```
/// use tool_core::mcp::{McpError, TaskStoreFuture};
/// let ready: TaskStoreFuture<'static, ()> = Box::pin(async { Ok::<(), McpError>(()) });
/// # let _ = ready;
/// ```
pub type TaskStoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, McpError>> + Send + 'a>>;

/// Where an [`McpServer`](crate::mcp::McpServer) keeps its tasks. The replica that runs a
/// task writes its record; any replica reads it, cancels it, or ends it as `failed` when its
/// owner stopped renewing it. [`MemoryTaskStore`] (the default) serves one process;
/// `RedisTaskStore` (feature `mcp-redis`) every replica that shares the Redis.
///
/// An implementation keeps a record until its [`TaskRecord::expires_at_ms`], and never
/// changes a record that has ended ([`TaskState::is_terminal`]): that is what makes a
/// cancelled task stay cancelled while its tool is still stopping.
///
/// ```
/// use std::sync::Arc;
/// use tool_core::mcp::{McpServer, MemoryTaskStore};
/// use tool_core::ToolRegistry;
///
/// let server = McpServer::new(ToolRegistry::new()).with_task_store(Arc::new(MemoryTaskStore::new()));
/// # let _ = server;
/// ```
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task.
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, ()>;

    /// The task with this id, unless there is none or it has expired.
    fn get<'a>(&'a self, task_id: &'a str) -> TaskStoreFuture<'a, Option<TaskRecord>>;

    /// Replaces a task's record, unless the stored one has ended; returns the record now
    /// stored (the new one, or the ended one left alone), `None` if the task is gone.
    fn update<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, Option<TaskRecord>>;
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// A fresh task id: 128 random bits in hex, so ids cannot be guessed.
pub(crate) fn new_task_id() -> String {
    let mut bytes = [0u8; 16];
    // Should the OS refuse randomness, the clock still gives distinct ids; they are then
    // guessable, which only matters to a server that lets anyone read any task.
    if getrandom::fill(&mut bytes).is_err() {
        bytes[..8].copy_from_slice(&now_ms().to_le_bytes());
    }
    let mut id = String::with_capacity(32);
    for byte in bytes {
        id.push_str(&format!("{byte:02x}"));
    }
    id
}
