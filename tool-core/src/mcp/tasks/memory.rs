//! [`MemoryTaskStore`]: tasks in this process's memory.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{now_ms, TaskRecord, TaskStore, TaskStoreFuture};

/// Tasks in this process's memory: the default store of an
/// [`McpServer`](crate::mcp::McpServer). Enough for one process; behind a load balancer
/// give every replica the same shared store (`RedisTaskStore`, feature `mcp-redis`), else a
/// task is known only to the replica that took it. Expired tasks are dropped as new ones
/// arrive.
///
/// ```
/// use tool_core::mcp::{MemoryTaskStore, TaskStore};
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = MemoryTaskStore::new();
/// assert!(store.get("no-such-task").await.unwrap().is_none());
/// # });
/// ```
#[derive(Debug, Default)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, TaskRecord>>,
}

impl MemoryTaskStore {
    /// An empty store.
    ///
    /// ```
    /// let store = tool_core::mcp::MemoryTaskStore::new();
    /// # let _ = store;
    /// ```
    pub fn new() -> Self {
        MemoryTaskStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, TaskRecord>> {
        // Every change is one insert or replace: a panicking holder leaves no half-change.
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TaskStore for MemoryTaskStore {
    fn insert<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, ()> {
        let now = now_ms();
        let mut tasks = self.lock();
        tasks.retain(|_, task| task.expires_at_ms() > now);
        tasks.insert(record.task_id.clone(), record.clone());
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, task_id: &'a str) -> TaskStoreFuture<'a, Option<TaskRecord>> {
        let now = now_ms();
        let found = self
            .lock()
            .get(task_id)
            .filter(|task| task.expires_at_ms() > now)
            .cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn update<'a>(&'a self, record: &'a TaskRecord) -> TaskStoreFuture<'a, Option<TaskRecord>> {
        let now = now_ms();
        let mut tasks = self.lock();
        let stored = match tasks.get_mut(&record.task_id) {
            Some(task) if task.expires_at_ms() > now => {
                if !task.state.is_terminal() {
                    *task = record.clone();
                }
                Some(task.clone())
            }
            _ => None,
        };
        Box::pin(std::future::ready(Ok(stored)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::tasks::TaskState;

    fn record(id: &str, ttl_ms: u64) -> TaskRecord {
        let now = now_ms();
        TaskRecord {
            task_id: id.into(),
            state: TaskState::Working,
            status_message: None,
            created_at_ms: now,
            updated_at_ms: now,
            ttl_ms,
            poll_interval_ms: 100,
            result: None,
            error: None,
            tool: "t".into(),
            owner: "me".into(),
            lease_until_ms: now + 1000,
        }
    }

    #[tokio::test]
    async fn an_ended_task_is_never_changed_again() {
        let store = MemoryTaskStore::new();
        let mut task = record("a", 60_000);
        store.insert(&task).await.unwrap();
        task.state = TaskState::Cancelled;
        assert_eq!(
            store.update(&task).await.unwrap().unwrap().state,
            TaskState::Cancelled
        );
        task.state = TaskState::Completed;
        let stored = store.update(&task).await.unwrap().unwrap();
        assert_eq!(
            stored.state,
            TaskState::Cancelled,
            "cancelled stays cancelled"
        );
    }

    #[tokio::test]
    async fn an_expired_task_is_gone() {
        let store = MemoryTaskStore::new();
        let mut task = record("old", 60_000);
        task.created_at_ms -= 120_000;
        store.insert(&task).await.unwrap();
        assert!(store.get("old").await.unwrap().is_none());
        assert!(store.update(&task).await.unwrap().is_none());
    }
}
