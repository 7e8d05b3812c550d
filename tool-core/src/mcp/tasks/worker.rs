//! Runs a task: the tool in a tokio task of its own, and beside it a heartbeat that renews
//! the record's lease, writes the step the tool reached and notices a cancel made on any
//! replica.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Value;

use super::{now_ms, TaskRecord, TaskState, TaskStore, HEARTBEAT, LEASE};
use crate::context::{CancelFlag, Progress, ProgressReporter};
use crate::mcp::McpError;

/// How long a cancelled tool may take to stop on its own before its run is dropped.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// The tasks of one server: where they are kept, their timing, and the flags of the ones
/// this process runs (so a cancel arriving here stops them without waiting for a beat).
pub(crate) struct TaskHost {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    /// This process among the replicas (random), written as each task's owner.
    replica: String,
    running: Mutex<HashMap<String, CancelFlag>>,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl TaskHost {
    pub(crate) fn new(store: Arc<dyn TaskStore>, ttl: Duration, poll_interval: Duration) -> Self {
        TaskHost {
            store,
            ttl,
            poll_interval,
            replica: super::new_task_id(),
            running: Mutex::new(HashMap::new()),
        }
    }

    fn running(&self) -> MutexGuard<'_, HashMap<String, CancelFlag>> {
        // One insert or remove at a time: nothing a panicking holder could leave half-done.
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Raises the cancel flag of a task if this process runs it.
    pub(crate) fn stop_local(&self, task_id: &str) {
        if let Some(flag) = self.running().get(task_id) {
            flag.cancel();
        }
    }

    /// Creates a working task and starts `run` (given the task's id, its cancel flag and a
    /// reporter whose messages become the task's status message); returns the task as stored.
    /// `run` yields the tool's `CallToolResult` as JSON.
    pub(crate) async fn start<F, Fut>(
        self: &Arc<Self>,
        tool: &str,
        ttl: Option<Duration>,
        run: F,
    ) -> Result<TaskRecord, McpError>
    where
        F: FnOnce(&str, CancelFlag, ProgressReporter) -> Fut,
        Fut: Future<Output = Value> + Send + 'static,
    {
        let now = now_ms();
        let record = TaskRecord {
            task_id: super::new_task_id(),
            state: TaskState::Working,
            status_message: None,
            created_at_ms: now,
            updated_at_ms: now,
            ttl_ms: millis(ttl.unwrap_or(self.ttl)).max(1),
            poll_interval_ms: millis(self.poll_interval),
            result: None,
            error: None,
            tool: tool.to_owned(),
            owner: self.replica.clone(),
            lease_until_ms: now.saturating_add(millis(LEASE)),
        };
        self.store.insert(&record).await?;
        let cancel = CancelFlag::new();
        let latest: Arc<Mutex<Option<String>>> = Arc::default();
        let reporter = {
            let latest = latest.clone();
            ProgressReporter::new(move |update: Progress| {
                *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(status_of(&update));
            })
        };
        let running = run(&record.task_id, cancel.clone(), reporter);
        self.running()
            .insert(record.task_id.clone(), cancel.clone());
        let host = self.clone();
        let beating = record.clone();
        tokio::spawn(async move {
            let id = beating.task_id.clone();
            host.drive(beating, cancel, latest, running).await;
            host.running().remove(&id);
        });
        Ok(record)
    }

    async fn drive(
        &self,
        mut record: TaskRecord,
        cancel: CancelFlag,
        latest: Arc<Mutex<Option<String>>>,
        running: impl Future<Output = Value>,
    ) {
        tokio::pin!(running);
        let mut beat = tokio::time::interval(HEARTBEAT);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        beat.tick().await;
        let finished = loop {
            tokio::select! {
                biased;
                result = &mut running => break Some(result),
                _ = beat.tick() => {
                    let now = now_ms();
                    let message = latest.lock().unwrap_or_else(PoisonError::into_inner).clone();
                    if message.is_some() && message != record.status_message {
                        record.status_message = message;
                        record.updated_at_ms = now;
                    }
                    record.lease_until_ms = now.saturating_add(millis(LEASE));
                    match self.store.update(&record).await {
                        // Cancelled (or given up) elsewhere, or expired: stop the tool.
                        Ok(Some(stored)) if stored.state.is_terminal() => break None,
                        Ok(None) => break None,
                        // The store is unreachable: try again at the next beat; the lease
                        // outlives a short outage.
                        Ok(Some(_)) | Err(_) => {}
                    }
                    if cancel.is_cancelled() {
                        break None;
                    }
                }
            }
        };
        match finished {
            Some(result) => {
                record.state = TaskState::Completed;
                record.result = Some(result);
                record.updated_at_ms = now_ms();
                // The result is written once it is there; a store that is down for longer
                // than the retries leaves the task to end `failed` when its lease runs out.
                for _ in 0..10 {
                    if self.store.update(&record).await.is_ok() {
                        break;
                    }
                    tokio::time::sleep(HEARTBEAT).await;
                }
            }
            None => {
                cancel.cancel();
                let _ = tokio::time::timeout(STOP_GRACE, &mut running).await;
            }
        }
    }
}

/// A progress report as a status message: its message, else `3 of 10` (or `3`).
fn status_of(update: &Progress) -> String {
    if let Some(message) = &update.message {
        return message.clone();
    }
    match update.total {
        Some(total) => format!("{} of {}", number(update.progress), number(total)),
        None => number(update.progress),
    }
}

/// `3` for 3.0, `2.5` for 2.5.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// Ends a working task whose replica stopped renewing it as `failed` (and returns the
/// record as stored then); any other record comes back unchanged.
pub(crate) async fn settle_orphan(
    store: &dyn TaskStore,
    record: TaskRecord,
) -> Result<TaskRecord, McpError> {
    let now = now_ms();
    if !record.is_orphaned(now) {
        return Ok(record);
    }
    let mut failed = record.clone();
    failed.state = TaskState::Failed;
    failed.updated_at_ms = now;
    failed.error = Some(serde_json::json!({
        "code": -32603,
        "message": format!(
            "the server that ran this task stopped before it finished (no sign of it for {} s); \
             its result is lost: call the tool '{}' again",
            LEASE.as_secs(),
            record.tool
        ),
    }));
    Ok(store.update(&failed).await?.unwrap_or(failed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::tasks::MemoryTaskStore;

    #[tokio::test]
    async fn an_orphaned_task_ends_failed_with_an_error() {
        let store = MemoryTaskStore::new();
        let now = now_ms();
        let record = TaskRecord {
            task_id: "t".into(),
            state: TaskState::Working,
            status_message: None,
            created_at_ms: now,
            updated_at_ms: now,
            ttl_ms: 60_000,
            poll_interval_ms: 100,
            result: None,
            error: None,
            tool: "long_count".into(),
            owner: "gone".into(),
            lease_until_ms: now - 1,
        };
        store.insert(&record).await.unwrap();
        let settled = settle_orphan(&store, record).await.unwrap();
        assert_eq!(settled.state, TaskState::Failed);
        let error = settled.error.unwrap();
        assert_eq!(error["code"], -32603);
        assert!(error["message"].as_str().unwrap().contains("long_count"));
    }

    #[test]
    fn progress_becomes_a_status_message() {
        let plain = Progress {
            progress: 3.0,
            total: Some(10.0),
            message: None,
        };
        assert_eq!(status_of(&plain), "3 of 10");
    }
}
