//! A remote call the server turned into a task (the tasks extension, 2026-07-28): the
//! [`RemoteTool`] polls `tasks/get` with back-off until the task ends and answers with an
//! ordinary response; the caller's cancel flag sends `tasks/cancel`.

use std::time::Duration;

use rmcp::model::{CallToolResult, CancelTaskParams, CreateTaskResult, GetTaskParams, TaskPayload};
use serde_json::Value;

use super::remote::{from_result, RemoteTool};
use crate::context::{CancelFlag, ProgressReporter};
use crate::response::{ToolErrorCode, ToolResponse};

/// The first wait when the server suggests no polling interval.
const FIRST_POLL: Duration = Duration::from_millis(100);
/// The shortest wait, whatever the server suggests.
const MIN_POLL: Duration = Duration::from_millis(20);
/// Back-off stops growing here (or at the server's own interval, if that is longer).
const MAX_POLL: Duration = Duration::from_secs(5);
/// How often a wait looks at the caller's cancel flag.
const CANCEL_CHECK: Duration = Duration::from_millis(20);
/// Polls that may fail in a row (a replica restarting) before the call is given up.
const POLL_FAILURES: u32 = 3;

impl RemoteTool {
    /// Follows a task to its end.
    pub(super) async fn follow_task(
        &self,
        created: CreateTaskResult,
        cancel: &Option<CancelFlag>,
        progress: &Option<ProgressReporter>,
    ) -> ToolResponse {
        let task_id = created.task.task_id;
        let hint = created
            .task
            .poll_interval_ms
            .map_or(FIRST_POLL, Duration::from_millis)
            .max(MIN_POLL);
        let ceiling = hint.max(MAX_POLL);
        let mut wait = hint;
        let mut last_message = created.task.status_message;
        let mut reports = 0u32;
        let mut failures = 0u32;
        loop {
            if self.waited_out(wait, cancel).await {
                let _ = tokio::time::timeout(
                    self.timeout,
                    self.peer
                        .cancel_task(CancelTaskParams::new(task_id.clone())),
                )
                .await;
                return ToolResponse::error(
                    ToolErrorCode::ExecutionError,
                    format!(
                        "the call of '{}' was cancelled while the MCP server '{}' ran it as task '{task_id}'; the server was asked to cancel the task",
                        self.name, self.server
                    ),
                );
            }
            // Each poll waits longer than the last, up to the ceiling: a long task is asked
            // about rarely, a short one answers soon.
            wait = wait.mul_f64(1.5).min(ceiling);
            let polled = tokio::time::timeout(
                self.timeout,
                self.peer.get_task(GetTaskParams::new(task_id.clone())),
            )
            .await;
            let task = match polled {
                Ok(Ok(task)) => {
                    failures = 0;
                    task.task
                }
                Ok(Err(error)) if failures + 1 >= POLL_FAILURES => return self.failure(error),
                Err(_) if failures + 1 >= POLL_FAILURES => {
                    return self.failure(rmcp::service::ServiceError::Timeout {
                        timeout: self.timeout,
                    })
                }
                Ok(Err(_)) | Err(_) => {
                    failures += 1;
                    continue;
                }
            };
            match task.payload {
                TaskPayload::Completed { result } => {
                    return match serde_json::from_value::<CallToolResult>(Value::Object(result)) {
                        Ok(result) => from_result(result),
                        Err(e) => ToolResponse::error(
                            ToolErrorCode::ExecutionError,
                            format!(
                                "the MCP server '{}' finished task '{task_id}' of '{}' with a result that is not a tool result ({e})",
                                self.server, self.name
                            ),
                        ),
                    };
                }
                TaskPayload::Failed { error } => {
                    let message = error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("no message");
                    let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
                    return ToolResponse::error(
                        ToolErrorCode::ExecutionError,
                        format!(
                            "the MCP server '{}' could not finish the call of '{}' (task '{task_id}', JSON-RPC error {code}): {message}",
                            self.server, self.name
                        ),
                    );
                }
                TaskPayload::Cancelled => {
                    return ToolResponse::error(
                        ToolErrorCode::ExecutionError,
                        format!(
                            "the MCP server '{}' cancelled the call of '{}' (task '{task_id}') before it finished",
                            self.server, self.name
                        ),
                    );
                }
                // Working, or waiting for input this client cannot give inside a task (its
                // questions come through plain calls): keep polling, passing on the status.
                _ => {
                    let message = task.task.status_message;
                    if message.is_some() && message != last_message {
                        reports += 1;
                        if let Some(progress) = progress {
                            progress.report(f64::from(reports), None, message.as_deref());
                        }
                        last_message = message;
                    }
                }
            }
        }
    }

    /// Waits `wait`; `true` if the caller cancelled meanwhile.
    async fn waited_out(&self, wait: Duration, cancel: &Option<CancelFlag>) -> bool {
        let Some(cancel) = cancel else {
            tokio::time::sleep(wait).await;
            return false;
        };
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if cancel.is_cancelled() {
                return true;
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return false;
            }
            tokio::time::sleep(CANCEL_CHECK.min(deadline - now)).await;
        }
    }
}
