//! Tasks on 2025-11-25 sessions (that revision's own: `params.task`, `tasks/get`,
//! `tasks/result`, `tasks/cancel`, `execution.taskSupport`), answered as JSON: the transports
//! route these requests here as custom requests (see `tasks::handshake_era`, which also says
//! why). The tasks are the same as the 2026-07-28 extension's: one store, one worker, the
//! same leases and cancel path; only the wire shapes differ.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CustomRequest, CustomResult, ErrorCode, PaginatedRequestParams,
    ProgressToken, ServerResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{json, Map, Value};

use super::call::callable;
use super::tasks::{store_error, unknown_task, RELATED_TASK};
use super::McpServer;
use crate::call::ToolCall;
use crate::mcp::gate;
use crate::mcp::input_required;
use crate::mcp::tasks::handshake_era::{self, takes_tasks};
use crate::mcp::tasks::time::iso8601;
use crate::mcp::tasks::worker::settle_orphan;
use crate::mcp::tasks::{now_ms, TaskRecord, TaskState, HEARTBEAT};
use crate::task_support::TaskSupport;

/// How often `tasks/result` looks at the store while the task works (it may run on another
/// replica, so there is nothing to wait on but the store).
const RESULT_POLL: Duration = Duration::from_millis(100);

/// The params of a request, as an object (absent params are empty ones).
fn params_of(request: &CustomRequest) -> Result<Map<String, Value>, ErrorData> {
    match &request.params {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(params)) => Ok(params.clone()),
        Some(_) => Err(ErrorData::invalid_params(
            format!("{}: `params` must be an object", request.method),
            None,
        )),
    }
}

/// The `taskId` of a `tasks/*` request.
fn task_id(params: &Map<String, Value>) -> Result<&str, ErrorData> {
    params.get("taskId").and_then(Value::as_str).ok_or_else(|| {
        ErrorData::invalid_params(
            "`params.taskId` is missing: pass the taskId the task-augmented call answered with",
            None,
        )
    })
}

/// A typed result as rmcp would have sent it on this session, as JSON.
fn as_sent(mut result: ServerResult, modern: bool) -> Result<Value, ErrorData> {
    if modern {
        result.fill_missing_cache_hints();
    } else {
        result.strip_result_type_for_legacy_peer();
        result.strip_non_object_output_for_legacy_peer();
    }
    serde_json::to_value(result)
        .map_err(|e| ErrorData::internal_error(format!("the result is not JSON: {e}"), None))
}

/// Whether a stored `CallToolResult` is a tool's error.
fn is_error(result: Option<&Value>) -> bool {
    result
        .and_then(|r| r.get("isError"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// A task as this revision shows it. A tool's error (`isError: true`) is a `failed` task,
/// as the revision asks, whose result `tasks/result` still gives.
fn task_json(record: &TaskRecord) -> Value {
    let (status, message) = match record.state {
        TaskState::Working => ("working", record.status_message.clone()),
        TaskState::Completed if is_error(record.result.as_ref()) => (
            "failed",
            Some("the tool reported an error: tasks/result gives it".to_owned()),
        ),
        TaskState::Completed => ("completed", record.status_message.clone()),
        TaskState::Failed => (
            "failed",
            record
                .error
                .as_ref()
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        ),
        TaskState::Cancelled => ("cancelled", Some("cancelled by request".to_owned())),
    };
    let mut task = json!({
        "taskId": record.task_id,
        "status": status,
        "createdAt": iso8601(record.created_at_ms),
        "lastUpdatedAt": iso8601(record.updated_at_ms),
        "ttl": record.ttl_ms,
        "pollInterval": record.poll_interval_ms,
    });
    if let (Some(message), Some(object)) = (message, task.as_object_mut()) {
        object.insert("statusMessage".to_owned(), Value::from(message));
    }
    task
}

impl McpServer {
    /// The custom requests the transports route here; any other custom method is unknown.
    pub(super) async fn handshake_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let result = match request.method.as_str() {
            handshake_era::CALL => self.task_call(&request, context).await?,
            handshake_era::LIST_TOOLS => self.tools_with_execution(&request, &context)?,
            handshake_era::GET => self.handshake_get(&request, &context).await?,
            handshake_era::CANCEL => self.handshake_cancel(&request, &context).await?,
            handshake_era::RESULT if !input_required::is_modern(&context) => {
                self.handshake_result(&request, &context).await?
            }
            _ => {
                return Err(ErrorData::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    request.method,
                    None,
                ))
            }
        };
        Ok(CustomResult::new(result))
    }

    /// `tools/call` with `params.task`: on a 2025-11-25 session, a task of a tool that may
    /// run as one answers at once with `{task}`; on older sessions (which have no tasks) the
    /// call runs plainly, ignoring `task`, as the revision asks of a server without them.
    async fn task_call(
        &self,
        request: &CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let mut params = params_of(request)?;
        let task = params.remove("task");
        // rmcp keeps a request's `_meta` in the context, also for custom requests.
        let progress: Option<ProgressToken> = context.meta.get_progress_token().or_else(|| {
            params
                .get("_meta")
                .and_then(|meta| meta.get("progressToken"))
                .and_then(|token| serde_json::from_value(token.clone()).ok())
        });
        let call: CallToolRequestParams = serde_json::from_value(Value::Object(params))
            .map_err(|e| ErrorData::invalid_params(format!("tools/call: {e}"), None))?;
        let modern = input_required::is_modern(&context);
        if !takes_tasks(&context) {
            let response = self.call(call, context).await?;
            return as_sent(ServerResult::from(response), modern);
        }
        let served = self.tools.current();
        let principal = gate::principal_of(&context);
        let definition = callable(&served.registry, &call.name, principal.as_ref())?;
        if !definition.task_support().allows_task() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "tool '{}' does not run as a task (its `execution.taskSupport` is \
                     \"forbidden\"): call it without `params.task`",
                    call.name
                ),
                None,
            ));
        }
        let ttl = task
            .as_ref()
            .and_then(|task| task.get("ttl"))
            .and_then(Value::as_u64)
            .map(Duration::from_millis);
        let arguments = match &call.arguments {
            Some(arguments) => serde_json::to_string(arguments).unwrap_or_else(|_| "{}".into()),
            None => "{}".to_owned(),
        };
        let tool_call = ToolCall::new(context.id.to_string(), call.name.to_string(), arguments);
        let progress = progress.map(|token| (token, context.peer.clone()));
        // The tool logs to the client as a plain call's does.
        let (peer, logs) = crate::mcp::peer::for_call(
            context.peer.clone(),
            self.shared.clone(),
            context.client_capabilities(),
            None,
        );
        let record = self
            .start_task(
                served.registry.clone(),
                definition,
                tool_call,
                principal,
                ttl,
                progress,
                Some((peer, logs)),
            )
            .await?;
        Ok(json!({ "task": task_json(&record) }))
    }

    /// `tools/list`, with `execution.taskSupport` on each tool that may run as a task when
    /// the session is 2025-11-25 (the tools of other sessions as rmcp lists them).
    fn tools_with_execution(
        &self,
        request: &CustomRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let params: Option<PaginatedRequestParams> = match &request.params {
            None | Some(Value::Null) => None,
            Some(params) => Some(
                serde_json::from_value(params.clone())
                    .map_err(|e| ErrorData::invalid_params(format!("tools/list: {e}"), None))?,
            ),
        };
        let modern = input_required::is_modern(context);
        let principal = gate::principal_of(context);
        let page = self.page(
            params.as_ref().and_then(|p| p.cursor.as_deref()),
            principal.as_ref(),
            modern,
        )?;
        let mut listed = as_sent(ServerResult::ListToolsResult(page), modern)?;
        if !takes_tasks(context) {
            return Ok(listed);
        }
        let served = self.tools.current();
        let tools = listed.get_mut("tools").and_then(Value::as_array_mut);
        for tool in tools.into_iter().flatten() {
            let support = tool
                .get("name")
                .and_then(Value::as_str)
                .and_then(|name| served.registry.definition(name))
                .map(|definition| definition.task_support())
                .unwrap_or_default();
            let name = match support {
                TaskSupport::Optional => "optional",
                TaskSupport::Required => "required",
                _ => continue,
            };
            if let Some(tool) = tool.as_object_mut() {
                tool.insert("execution".to_owned(), json!({ "taskSupport": name }));
            }
        }
        Ok(listed)
    }

    /// The task as stored now; a working task whose replica stopped renewing it ends
    /// `failed` here.
    async fn settled(&self, task_id: &str) -> Result<TaskRecord, ErrorData> {
        let record = self.find_task(task_id).await?;
        settle_orphan(&*self.tasks.store, record)
            .await
            .map_err(store_error)
    }

    /// `tasks/get`: the task. (A 2026-07-28 request without its request metadata is
    /// answered as that revision's extension answers it.)
    async fn handshake_get(
        &self,
        request: &CustomRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let (id, modern) = self.task_named(request, context)?;
        if modern {
            let result = self
                .get_task_now(rmcp::model::GetTaskParams::new(id))
                .await?;
            return as_sent(ServerResult::GetTaskResult(result), true);
        }
        Ok(task_json(&self.settled(&id).await?))
    }

    /// The task a `tasks/get` or `tasks/cancel` names, and whether the request is a
    /// 2026-07-28 one (then past that revision's extension check).
    fn task_named(
        &self,
        request: &CustomRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<(String, bool), ErrorData> {
        let params = params_of(request)?;
        let id = task_id(&params)?.to_owned();
        let modern = input_required::is_modern(context);
        if modern {
            self.modern_gate(context)?;
        }
        Ok((id, modern))
    }

    /// `tasks/cancel`: a working task becomes `cancelled` before the answer (which is the
    /// task), and its tool is stopped through its cancel flag, here or by its own replica's
    /// next heartbeat. A task that has ended is refused (`-32602`), as the revision asks.
    async fn handshake_cancel(
        &self,
        request: &CustomRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let (id, modern) = self.task_named(request, context)?;
        if modern {
            self.cancel_task_now(rmcp::model::CancelTaskParams::new(id))
                .await?;
            return Ok(json!({}));
        }
        let id = id.as_str();
        let record = self.settled(id).await?;
        if !record.state.is_terminal() {
            let mut cancelled = record.clone();
            cancelled.state = TaskState::Cancelled;
            cancelled.updated_at_ms = now_ms();
            let stored = self
                .tasks
                .store
                .update(&cancelled)
                .await
                .map_err(store_error)?
                .ok_or_else(|| unknown_task(id))?;
            self.tasks.stop_local(id);
            if stored.state == TaskState::Cancelled {
                return Ok(task_json(&stored));
            }
            // It ended on its own in between.
            return Err(already_ended(&stored));
        }
        Err(already_ended(&record))
    }

    /// `tasks/result`: waits until the task has ended, then answers what the call would have:
    /// its `CallToolResult` (tied to the task by `_meta`), or its error.
    async fn handshake_result(
        &self,
        request: &CustomRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let params = params_of(request)?;
        let id = task_id(&params)?;
        let record = loop {
            let record = self.settled(id).await?;
            if record.state.is_terminal() {
                break record;
            }
            tokio::select! {
                () = tokio::time::sleep(RESULT_POLL.min(HEARTBEAT)) => {}
                () = context.ct.cancelled() => {
                    return Err(ErrorData::internal_error("the request was cancelled", None));
                }
            }
        };
        match record.state {
            TaskState::Completed => {
                let mut result = match record.result {
                    Some(Value::Object(result)) => result,
                    _ => Map::new(),
                };
                // Stored as 2026-07-28 sends it; this revision's results have no `resultType`.
                if result.get("resultType").and_then(Value::as_str) == Some("complete") {
                    result.remove("resultType");
                }
                let meta = result
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(RELATED_TASK.to_owned(), json!({ "taskId": record.task_id }));
                }
                Ok(Value::Object(result))
            }
            TaskState::Failed => {
                let error = record.error.unwrap_or(Value::Null);
                let code = error
                    .get("code")
                    .and_then(Value::as_i64)
                    .and_then(|c| i32::try_from(c).ok())
                    .unwrap_or(-32603);
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("the task failed")
                    .to_owned();
                Err(ErrorData::new(ErrorCode(code), message, None))
            }
            _ => Err(ErrorData::internal_error(
                format!("task '{id}' was cancelled before it finished: it has no result"),
                None,
            )),
        }
    }

    /// What rmcp checks before a 2026-07-28 `tasks/*` request: the server offers the
    /// extension and the client declared it.
    fn modern_gate(&self, context: &RequestContext<RoleServer>) -> Result<(), ErrorData> {
        if !self.info().capabilities.supports_tasks() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this server runs no tool as a task",
                None,
            ));
        }
        if context
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks())
        {
            return Ok(());
        }
        Err(ErrorData::missing_required_client_capability(
            rmcp::model::ClientCapabilities::builder()
                .enable_tasks()
                .build(),
        ))
    }
}

/// The refusal of a cancel for a task that has ended.
fn already_ended(record: &TaskRecord) -> ErrorData {
    let status = task_json(record);
    ErrorData::invalid_params(
        format!(
            "task '{}' has already ended ({}): only a working task can be cancelled",
            record.task_id,
            status["status"].as_str().unwrap_or("ended")
        ),
        None,
    )
}
