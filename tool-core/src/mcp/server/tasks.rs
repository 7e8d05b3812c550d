//! The tasks extension (`io.modelcontextprotocol/tasks`) on 2026-07-28 sessions: a call of a
//! task-capable tool from a client that declares the extension answers at once with the
//! task; `tasks/get` and `tasks/cancel` answer for it on any replica sharing the store.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CancelTaskParams, ClientCapabilities, DetailedTask, GetTaskParams, GetTaskResult, JsonObject,
    NotificationMetaObject, ProgressToken, Task, TaskPayload, TaskStatus,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer};
use serde_json::{json, Value};

use super::results::{call_result, progress_reporter};
use super::McpServer;
use crate::call::ToolCall;
use crate::context::{CallContext, CancelFlag, Progress, ProgressReporter};
use crate::definition::ToolDefinition;
use crate::mcp::gate;
use crate::mcp::input_required;
use crate::mcp::peer::LogsSent;
use crate::mcp::tasks::handshake_era;
use crate::mcp::tasks::time::iso8601;
use crate::mcp::tasks::worker::{settle_orphan, TaskHost};
use crate::mcp::tasks::{TaskRecord, TaskState, TaskStore};
use crate::peer::ClientPeer;
use crate::principal::Principal;
use crate::registry::ToolRegistry;
use crate::task_support::TaskSupport;

impl McpServer {
    /// Keeps the server's tasks in `store` instead of this process's memory: give every
    /// replica behind a load balancer the same shared store (`RedisTaskStore`, feature
    /// `mcp-redis`) and any replica answers for any task, and ends as `failed` (with an
    /// error) a task whose replica died.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::{mcp::{McpServer, MemoryTaskStore}, ToolRegistry};
    /// let server = McpServer::new(ToolRegistry::new()).with_task_store(Arc::new(MemoryTaskStore::new()));
    /// # let _ = server;
    /// ```
    pub fn with_task_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.tasks = Arc::new(TaskHost::new(
            store,
            self.tasks.ttl,
            self.tasks.poll_interval,
        ));
        self
    }

    /// How long a task stays readable after it was created (`ttlMs`, default one hour, at
    /// least 1 ms) and how often its client is asked to poll it (`pollIntervalMs`, default
    /// 500 ms).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_core::{mcp::McpServer, ToolRegistry};
    /// let server = McpServer::new(ToolRegistry::new())
    ///     .with_task_timing(Duration::from_secs(600), Duration::from_millis(250));
    /// # let _ = server;
    /// ```
    pub fn with_task_timing(mut self, ttl: Duration, poll_interval: Duration) -> Self {
        self.tasks = Arc::new(TaskHost::new(
            self.tasks.store.clone(),
            ttl.max(Duration::from_millis(1)),
            poll_interval,
        ));
        self
    }

    /// Whether this call runs as a task: the tool allows it and the client declared the
    /// extension on a 2026-07-28 request. A tool that requires it refuses other calls.
    pub(super) fn as_task(
        &self,
        definition: &ToolDefinition,
        context: &RequestContext<RoleServer>,
    ) -> Result<bool, ErrorData> {
        let support = definition.task_support();
        if !support.allows_task() {
            return Ok(false);
        }
        let modern = input_required::is_modern(context);
        let declared = modern
            && context
                .client_capabilities()
                .is_some_and(|caps| caps.supports_tasks());
        match support {
            TaskSupport::Required if !declared && modern => {
                Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                ))
            }
            TaskSupport::Required if !declared => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                if handshake_era::takes_tasks(context) {
                    format!(
                        "tool '{}' runs only as a task: call it with `params.task` (its \
                         `execution.taskSupport` is \"required\")",
                        definition.name
                    )
                } else {
                    format!(
                        "tool '{}' runs only as a task, and this session does not use tasks: \
                         connect with protocol 2025-11-25 and call it with `params.task`, or \
                         with 2026-07-28 declaring the extension 'io.modelcontextprotocol/tasks'",
                        definition.name
                    )
                },
                None,
            )),
            _ => Ok(declared),
        }
    }

    /// Starts the call as a task and returns it as stored. `ttl`: the time to live the
    /// client asked for (at most the server's); `progress`: the token and peer the tool's
    /// progress also goes to as `notifications/progress`, until the task is cancelled (a
    /// 2025-11-25 task keeps its call's progress token); `client`: the session's way to the
    /// client and the end of its log messages, for a task whose tool logs to the client as
    /// a plain call's does (2025-11-25; the 2026-07-28 revision logs to `tracing`).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn start_task(
        &self,
        registry: Arc<ToolRegistry>,
        definition: &ToolDefinition,
        call: ToolCall,
        principal: Option<Principal>,
        ttl: Option<Duration>,
        progress: Option<(ProgressToken, Peer<RoleServer>)>,
        client: Option<(Arc<dyn ClientPeer>, LogsSent)>,
    ) -> Result<TaskRecord, ErrorData> {
        let output_schema = definition.output_schema.clone();
        let timeout = self.call_timeout;
        let tool = call.name.clone();
        let ttl = ttl.map(|asked| asked.min(self.tasks.ttl));
        self.tasks
            .start(&tool, ttl, move |task_id, cancel, status| {
                let (status, forwarding) = match progress {
                    Some((token, peer)) => {
                        // Notifications of a task name it, as the 2025-11-25 revision asks.
                        let mut meta = JsonObject::new();
                        meta.insert(RELATED_TASK.to_owned(), json!({ "taskId": task_id }));
                        let meta = Some(NotificationMetaObject::from(meta));
                        let (reporter, done, _) = progress_reporter(token, peer, meta);
                        (also_forwarded(status, reporter, cancel.clone()), Some(done))
                    }
                    None => (status, None),
                };
                let mut context = CallContext::new().with_cancel(cancel).with_progress(status);
                if let Some(principal) = principal {
                    context = context.with_extension(principal);
                }
                let mut logs = None;
                if let Some((peer, sent)) = client {
                    context = context.with_peer(peer);
                    logs = Some(sent);
                }
                async move {
                    let response =
                        gate::within(timeout, &call.name, registry.call_in(&call, &context)).await;
                    // What is queued goes out; nothing after the result: the log messages
                    // once the context (the peer) is gone, then the progress.
                    drop(context);
                    if let Some(logs) = logs {
                        logs.wait().await;
                    }
                    drop(forwarding);
                    serde_json::to_value(call_result(&response, output_schema.as_deref()))
                        .unwrap_or(Value::Null)
                }
            })
            .await
            .map_err(|e| ErrorData::internal_error(format!("the task could not start: {e}"), None))
    }

    /// `tasks/get`: the task as stored now; a working task whose replica stopped renewing
    /// it ends `failed` here.
    pub(super) async fn get_task_now(
        &self,
        params: GetTaskParams,
    ) -> Result<GetTaskResult, ErrorData> {
        let record = self.find_task(&params.task_id).await?;
        let record = settle_orphan(&*self.tasks.store, record)
            .await
            .map_err(store_error)?;
        Ok(GetTaskResult::new(detailed(record)))
    }

    /// `tasks/cancel`: a working task becomes `cancelled` at once (and stays so); its tool
    /// is stopped through its cancel flag, here or by its own replica's next heartbeat.
    pub(super) async fn cancel_task_now(&self, params: CancelTaskParams) -> Result<(), ErrorData> {
        let record = self.find_task(&params.task_id).await?;
        if !record.state.is_terminal() {
            let mut cancelled = record;
            cancelled.state = TaskState::Cancelled;
            cancelled.updated_at_ms = crate::mcp::tasks::now_ms();
            self.tasks
                .store
                .update(&cancelled)
                .await
                .map_err(store_error)?;
        }
        self.tasks.stop_local(&params.task_id);
        Ok(())
    }

    pub(super) async fn find_task(&self, task_id: &str) -> Result<TaskRecord, ErrorData> {
        self.tasks
            .store
            .get(task_id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| unknown_task(task_id))
    }
}

/// The `_meta` key that ties a message to its task.
pub(super) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

pub(super) fn unknown_task(task_id: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "unknown task '{task_id}': no such task, or its time to live has passed; \
             call the tool again for a new one"
        ),
        None,
    )
}

pub(super) fn store_error(error: crate::mcp::McpError) -> ErrorData {
    ErrorData::internal_error(format!("the task store failed: {error}"), None)
}

fn status(state: TaskState) -> TaskStatus {
    match state {
        TaskState::Working => TaskStatus::Working,
        TaskState::Completed => TaskStatus::Completed,
        TaskState::Failed => TaskStatus::Failed,
        TaskState::Cancelled => TaskStatus::Cancelled,
    }
}

/// `status` (the task's status message), with each report also sent to `forward` while
/// `cancel` is down: a cancelled task's progress stops at once.
fn also_forwarded(
    status: ProgressReporter,
    forward: ProgressReporter,
    cancel: CancelFlag,
) -> ProgressReporter {
    ProgressReporter::new(move |update: Progress| {
        status.report(update.progress, update.total, update.message.as_deref());
        if !cancel.is_cancelled() {
            forward.report(update.progress, update.total, update.message.as_deref());
        }
    })
}

pub(super) fn task_of(record: &TaskRecord) -> Task {
    let mut task = Task::new(
        record.task_id.clone(),
        status(record.state),
        iso8601(record.created_at_ms),
        iso8601(record.updated_at_ms),
    )
    .with_ttl_ms(record.ttl_ms)
    .with_poll_interval_ms(record.poll_interval_ms);
    task.status_message = record.status_message.clone();
    task
}

fn object(value: Option<&Value>) -> JsonObject {
    match value {
        Some(Value::Object(map)) => map.clone(),
        _ => JsonObject::new(),
    }
}

fn detailed(record: TaskRecord) -> DetailedTask {
    let task = task_of(&record);
    let payload = match record.state {
        TaskState::Working => TaskPayload::Working,
        TaskState::Cancelled => TaskPayload::Cancelled,
        TaskState::Completed => TaskPayload::Completed {
            result: object(record.result.as_ref()),
        },
        TaskState::Failed => {
            let mut error = object(record.error.as_ref());
            error.entry("code").or_insert_with(|| Value::from(-32603));
            error
                .entry("message")
                .or_insert_with(|| Value::from("the task failed"));
            TaskPayload::Failed { error }
        }
    };
    DetailedTask::new(task, payload)
}
