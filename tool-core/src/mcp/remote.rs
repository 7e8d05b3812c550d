//! [`RemoteTool`]: one tool of an MCP server as a [`Tool`] of ours, and the conversion of its
//! results and failures into [`ToolResponse`]s.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, CancelledNotificationParam, ClientRequest, ContentBlock,
    JsonObject, Request, ServerResult,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use rmcp::{Peer, RoleClient};
use serde_json::Value;

use super::client_handlers::{Handlers, MAX_INPUT_ROUNDS};
use super::progress::ProgressRoutes;
use crate::context::{CancelFlag, ProgressReporter, ToolContext};
use crate::definition::ToolAnnotations;
use crate::response::{ToolErrorCode, ToolResponse};
use crate::tool::{CallFuture, Tool};

/// How often a running remote call looks at the caller's [`CancelFlag`] (a plain flag with no
/// waker): short enough that `notifications/cancelled` follows a cancel promptly.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// How long to wait before sending back a round that held only the server's state (no
/// question): the server is still working and asked to be polled.
const STATE_ONLY_PAUSE: Duration = Duration::from_millis(50);

/// A tool of an MCP server, callable through a [`ToolRegistry`](crate::ToolRegistry) like a
/// `#[tool]` one. Get them from [`McpClient::tools`](super::McpClient::tools) or register
/// them all with [`McpClient::register_into`](super::McpClient::register_into).
///
/// A call sends `tools/call` and waits at most the client's call timeout. The server's
/// `isError` result becomes an `EXECUTION_ERROR` response with the server's text,
/// `structuredContent` becomes `data`; a server that is gone is `SERVICE_UNAVAILABLE`, one
/// that answers nonsense `NETWORK_ERROR`, one that does not answer in time `TIMEOUT` (and
/// is sent `notifications/cancelled`). Raising the call's [`CancelFlag`] cancels the remote
/// request; the server's progress reaches the call's [`ProgressReporter`].
#[derive(Clone)]
pub struct RemoteTool {
    pub(crate) name: String,
    pub(crate) remote_name: String,
    pub(crate) server: Arc<str>,
    pub(crate) title: Option<String>,
    pub(crate) description: String,
    pub(crate) input_schema: Value,
    pub(crate) output_schema: Option<Value>,
    pub(crate) annotations: ToolAnnotations,
    pub(crate) icons: Vec<crate::Icon>,
    pub(crate) meta: Option<crate::Meta>,
    pub(crate) timeout: Duration,
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) routes: ProgressRoutes,
    /// What answers a 2026-07-28 server's input requests (none: such a call fails).
    pub(crate) answers: Option<Arc<Handlers>>,
}

impl std::fmt::Debug for RemoteTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteTool")
            .field("name", &self.name)
            .field("remote_name", &self.remote_name)
            .field("server", &self.server)
            .finish()
    }
}

impl RemoteTool {
    /// The name the server knows the tool by (without the local prefix).
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }

    /// Builds one from a `tools/list` entry; `name` is the local (prefixed) name.
    pub(crate) fn from_listed(
        tool: &rmcp::model::Tool,
        name: String,
        server: Arc<str>,
        timeout: Duration,
        peer: Peer<RoleClient>,
        routes: ProgressRoutes,
    ) -> Self {
        let annotations = tool
            .annotations
            .as_ref()
            .map(|a| ToolAnnotations {
                read_only: a.read_only_hint,
                destructive: a.destructive_hint,
                idempotent: a.idempotent_hint,
                open_world: a.open_world_hint,
            })
            .unwrap_or(ToolAnnotations::NONE);
        let listed = serde_json::to_value(tool).unwrap_or_default();
        RemoteTool {
            name,
            remote_name: tool.name.to_string(),
            server,
            // MCP 2025-03-26 had the title among the annotations; later versions at the top.
            title: tool
                .title
                .as_deref()
                .or(tool.annotations.as_ref().and_then(|a| a.title.as_deref()))
                .map(str::to_owned),
            description: tool
                .description
                .as_deref()
                .or(tool.title.as_deref())
                .unwrap_or_default()
                .to_owned(),
            input_schema: Value::Object(JsonObject::clone(&tool.input_schema)),
            output_schema: tool
                .output_schema
                .as_ref()
                .map(|s| Value::Object(JsonObject::clone(s))),
            annotations,
            // Kept as the server lists them, for an application that shows its tools.
            icons: crate::metadata::icons_from(&listed),
            meta: crate::metadata::meta_from(&listed),
            timeout,
            peer,
            routes,
            answers: None,
        }
    }

    /// Answers a 2026-07-28 server's input requests (sampling, elicitation, roots) with
    /// these handlers and retries the call.
    pub(crate) fn answering_with(mut self, answers: Arc<Handlers>) -> Self {
        self.answers = Some(answers);
        self
    }

    /// One `tools/call`, retried with the answers while a 2026-07-28 server asks for input
    /// (at most [`MAX_INPUT_ROUNDS`] rounds).
    async fn call_remote(
        &self,
        arguments: JsonObject,
        cancel: Option<CancelFlag>,
        progress: Option<ProgressReporter>,
    ) -> ToolResponse {
        let mut params = CallToolRequestParams::new(self.remote_name.clone());
        params.arguments = Some(arguments);
        for _ in 0..MAX_INPUT_ROUNDS {
            let outcome = match self.round(params.clone(), &cancel, &progress).await {
                Ok(outcome) => outcome,
                Err(stopped) => return stopped,
            };
            match outcome {
                Ok(ServerResult::CallToolResult(result)) => return from_result(result),
                // The server runs the call as a task (we declare the tasks extension).
                Ok(ServerResult::CreateTaskResult(created)) => {
                    return self.follow_task(created, &cancel, &progress).await
                }
                Ok(ServerResult::InputRequiredResult(asked)) => {
                    let Some(answers) = &self.answers else {
                        return self.failure(ServiceError::UnexpectedResponse);
                    };
                    let has_questions =
                        asked.input_requests.as_ref().is_some_and(|q| !q.is_empty());
                    match answers.fulfil(asked).await {
                        Ok((responses, state)) => {
                            params.input_responses = responses;
                            params.request_state = state;
                        }
                        Err(why) => {
                            return ToolResponse::error(
                                ToolErrorCode::ExecutionError,
                                format!(
                                    "the MCP server '{}' asked for input during the call of '{}' and {why}",
                                    self.server, self.name
                                ),
                            )
                        }
                    }
                    if !has_questions {
                        // Only a state to send back: the server is still working.
                        tokio::time::sleep(STATE_ONLY_PAUSE).await;
                    }
                }
                Ok(_) => return self.failure(ServiceError::UnexpectedResponse),
                Err(e) => return self.failure(e),
            }
        }
        ToolResponse::error(
            ToolErrorCode::ExecutionError,
            format!(
                "the MCP server '{}' kept asking for input during the call of '{}' ({MAX_INPUT_ROUNDS} rounds); the call was given up",
                self.server, self.name
            ),
        )
    }

    /// Sends one round of the call and waits for its answer; `Err` when the caller cancelled
    /// (the server is told) or the request could not be sent.
    async fn round(
        &self,
        params: CallToolRequestParams,
        cancel: &Option<CancelFlag>,
        progress: &Option<ProgressReporter>,
    ) -> Result<Result<ServerResult, ServiceError>, ToolResponse> {
        let request = ClientRequest::CallToolRequest(Request::new(params));
        let handle = match self
            .peer
            .send_cancellable_request(request, PeerRequestOptions::with_timeout(self.timeout))
            .await
        {
            Ok(handle) => handle,
            Err(e) => return Err(self.failure(e)),
        };
        let id = handle.id.clone();
        let _route = progress
            .clone()
            .map(|p| self.routes.add(handle.progress_token.clone(), p));
        let response = handle.await_response();
        tokio::pin!(response);
        loop {
            tokio::select! {
                outcome = &mut response => return Ok(outcome),
                _ = tokio::time::sleep(CANCEL_POLL), if cancel.is_some() => {
                    if cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
                        let notice = CancelledNotificationParam::new(
                            Some(id),
                            Some("cancelled by the caller".into()),
                        );
                        let _ = self.peer.notify_cancelled(notice).await;
                        return Err(ToolResponse::error(
                            ToolErrorCode::ExecutionError,
                            format!("the call of '{}' was cancelled before the MCP server '{}' answered", self.name, self.server),
                        ));
                    }
                }
            }
        }
    }

    /// A failed request as an instructive response.
    pub(super) fn failure(&self, error: ServiceError) -> ToolResponse {
        let (tool, server) = (&self.name, &self.server);
        match error {
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => ToolResponse::error(
                ToolErrorCode::ServiceUnavailable,
                format!(
                    "the MCP server '{server}' behind '{tool}' is not reachable (its connection is closed); the tool cannot run now, use another tool or tell the user"
                ),
            ),
            ServiceError::Timeout { timeout } => ToolResponse::error(
                ToolErrorCode::Timeout,
                format!(
                    "the MCP server '{server}' did not answer the call of '{tool}' within {} ms; it was asked to cancel it. Try again later or with a smaller request",
                    timeout.as_millis()
                ),
            ),
            ServiceError::McpError(e) => {
                let code = match e.code {
                    rmcp::model::ErrorCode::INVALID_PARAMS => ToolErrorCode::InvalidParam,
                    rmcp::model::ErrorCode::METHOD_NOT_FOUND => ToolErrorCode::NotFound,
                    _ => ToolErrorCode::ExecutionError,
                };
                ToolResponse::error(
                    code,
                    format!(
                        "the MCP server '{server}' rejected the call of '{tool}' (JSON-RPC error {}): {}",
                        e.code.0, e.message
                    ),
                )
            }
            ServiceError::Cancelled { reason } => ToolResponse::error(
                ToolErrorCode::ExecutionError,
                format!(
                    "the call of '{tool}' was cancelled ({})",
                    reason.as_deref().unwrap_or("no reason given")
                ),
            ),
            other => ToolResponse::error(
                ToolErrorCode::NetworkError,
                format!(
                    "the MCP server '{server}' gave an answer to the call of '{tool}' that is not a tool result ({other}); try again later"
                ),
            ),
        }
    }
}

/// The server's result as our response: its text blocks joined by newlines, image and audio
/// content, blob resources and resource links as attachments, other blocks named,
/// `structuredContent` as `data`, `isError` as an error. A text block that only repeats the
/// structured content (as the spec recommends for older clients) is not kept twice, and an
/// error text in our own `Error [CODE]: message` form (a tool-core server) keeps its code.
pub(crate) fn from_result(result: CallToolResult) -> ToolResponse {
    let mut text = String::new();
    let mut attachments = Vec::new();
    for block in &result.content {
        if !matches!(block, ContentBlock::Text(_)) {
            let attachment = serde_json::to_value(block)
                .ok()
                .and_then(|v| crate::provider::mcp::read_block(&v));
            if let Some(attachment) = attachment {
                attachments.push(attachment);
                continue;
            }
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&block_text(block));
    }
    let response = from_text(&result, text);
    attachments
        .into_iter()
        .fold(response, ToolResponse::with_attachment)
}

fn from_text(result: &CallToolResult, mut text: String) -> ToolResponse {
    if result.is_error == Some(true) {
        if let Some((code, message)) = our_error(&text) {
            return ToolResponse::error(code, message);
        }
        let message = if text.is_empty() {
            "the MCP server reported an error without a message".to_owned()
        } else {
            text
        };
        return ToolResponse::error(ToolErrorCode::ExecutionError, message);
    }
    match &result.structured_content {
        Some(data) => {
            let repeats = serde_json::from_str::<Value>(&text).is_ok_and(|t| &t == data);
            if repeats {
                text.clear();
            }
            ToolResponse::success(text).with_data(data)
        }
        None => ToolResponse::success(text),
    }
}

/// `Error [NOT_FOUND]: message` -> the code and the message.
fn our_error(text: &str) -> Option<(ToolErrorCode, &str)> {
    let rest = text.strip_prefix("Error [")?;
    let (code, message) = rest.split_once("]: ")?;
    let code = serde_json::from_value(Value::String(code.to_owned())).ok()?;
    Some((code, message))
}

fn block_text(block: &ContentBlock) -> Cow<'_, str> {
    match block {
        ContentBlock::Text(t) => Cow::Borrowed(t.text.as_str()),
        ContentBlock::Image(i) => Cow::Owned(format!("[image: {}]", i.mime_type)),
        ContentBlock::Audio(a) => Cow::Owned(format!("[audio: {}]", a.mime_type)),
        ContentBlock::Resource(r) => Cow::Owned(match &r.resource {
            rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
            rmcp::model::ResourceContents::BlobResourceContents { uri, .. } => {
                format!("[resource: {uri}]")
            }
            _ => "[resource]".to_owned(),
        }),
        ContentBlock::ResourceLink(link) => Cow::Owned(format!("[resource link: {}]", link.uri)),
        #[allow(unreachable_patterns)]
        _ => Cow::Borrowed("[unsupported content]"),
    }
}

impl Tool for RemoteTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn annotations(&self) -> ToolAnnotations {
        self.annotations
    }

    fn icons(&self) -> Vec<crate::Icon> {
        self.icons.clone()
    }

    fn meta(&self) -> Option<crate::Meta> {
        self.meta.clone()
    }

    fn input_schema(&self) -> Value {
        self.input_schema.clone()
    }

    fn output_schema(&self) -> Option<Value> {
        self.output_schema.clone()
    }

    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        let arguments = match serde_json::from_str::<Value>(arguments) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                return CallFuture::ready(ToolResponse::error(
                    ToolErrorCode::InvalidFormat,
                    format!(
                        "the arguments of '{}' must be a JSON object of its parameters",
                        self.name
                    ),
                ))
            }
            Err(e) => {
                return CallFuture::ready(ToolResponse::error(
                    ToolErrorCode::InvalidFormat,
                    format!(
                        "the arguments of '{}' are not valid JSON ({e}); send a JSON object of its parameters",
                        self.name
                    ),
                ))
            }
        };
        let cancel = ctx.cancel_flag().cloned();
        let progress = ctx.progress_reporter().cloned();
        CallFuture::new(self.call_remote(arguments, cancel, progress))
    }
}
