//! The client of one `tools/call`, as the tool's [`ClientPeer`]: log messages become
//! `notifications/message` (in order, all sent before the call's result), sampling
//! `sampling/createMessage`, elicitation `elicitation/create`, roots `roots/list`.
//! These are handshake-era (2025-11-25 and earlier) server-to-client messages. On a
//! 2026-07-28 session the same questions become input requests of the call's result instead
//! (see `input_required`), and log messages go to `tracing` only.

// Logging and sampling are deprecated by the 2026-07-28 revision (SEP-2577); they are what
// handshake-era clients, most of today's, speak.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ClientCapabilities, ClientResult, CreateMessageRequestParams, ElicitRequestParams,
    LoggingLevel, LoggingMessageNotificationParam, ServerRequest,
};
use rmcp::service::ServiceError;
use rmcp::{Peer, RoleServer};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::input_required::{Kind, Replay, Turn};
use super::peers::Shared;
use crate::catalog::Role as MessageRole;
use crate::peer::{
    ClientPeer, Elicited, LogLevel, PeerError, PeerFuture, Root, SamplingReply, SamplingRequest,
};

pub(super) struct McpPeer {
    peer: Peer<RoleServer>,
    shared: Arc<Shared>,
    /// The call's log queue, opened by its first message: most calls log nothing, and then
    /// cost no channel and no task.
    logs: Mutex<Option<mpsc::UnboundedSender<LoggingMessageNotificationParam>>>,
    /// The task sending the queue's messages, once there is one.
    sending: Arc<Mutex<Option<JoinHandle<()>>>>,
    /// Where that task runs: the runtime that serves the call (a tool may log from a thread
    /// of its own).
    runtime: tokio::runtime::Handle,
    /// What the client declared: at `initialize` (handshake era) or in the request's `_meta`.
    capabilities: Option<ClientCapabilities>,
    /// On a 2026-07-28 session: the call's replayed answers and new questions.
    replay: Option<Arc<Replay>>,
}

/// The end of a call's log messages: see [`LogsSent::wait`].
pub(super) struct LogsSent(Arc<Mutex<Option<JoinHandle<()>>>>);

impl LogsSent {
    /// Returns once every message the call logged has been sent (or the client left); at
    /// once for a call that logged nothing. The sending task ends when the call's peer is
    /// dropped and its queue is empty, so drop the call's context first.
    pub(super) async fn wait(self) {
        let sending = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(sending) = sending {
            let _ = sending.await;
        }
    }
}

/// The peer for one call, and the end of its log messages (sent in order by a task started
/// with the first of them). Must be called inside a tokio runtime.
pub(super) fn for_call(
    peer: Peer<RoleServer>,
    shared: Arc<Shared>,
    capabilities: Option<ClientCapabilities>,
    replay: Option<Arc<Replay>>,
) -> (Arc<McpPeer>, LogsSent) {
    let sending = Arc::new(Mutex::new(None));
    let peer = McpPeer {
        peer,
        shared,
        logs: Mutex::new(None),
        sending: sending.clone(),
        runtime: tokio::runtime::Handle::current(),
        capabilities,
        replay,
    };
    (Arc::new(peer), LogsSent(sending))
}

/// Sends a call's log messages in order until the queue closes.
async fn send_logs(
    sender: Peer<RoleServer>,
    mut queued: mpsc::UnboundedReceiver<LoggingMessageNotificationParam>,
) {
    while let Some(message) = queued.recv().await {
        // A client that left cannot be told; the call still ends normally.
        if sender.notify_logging_message(message).await.is_err() {
            return;
        }
    }
}

fn ours(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn theirs(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

fn failed(error: ServiceError) -> PeerError {
    match error {
        ServiceError::McpError(e) => PeerError::Rejected(e.message.into_owned()),
        other => PeerError::Transport(other.to_string()),
    }
}

impl McpPeer {
    /// The client's capabilities must include `what`.
    fn require(&self, what: &'static str) -> Result<(), PeerError> {
        let declared = self.capabilities.as_ref().is_some_and(|caps| match what {
            "sampling" => caps.sampling.is_some(),
            "elicitation" => caps.elicitation.is_some(),
            _ => caps.roots.is_some(),
        });
        if declared {
            Ok(())
        } else {
            Err(PeerError::Unsupported {
                what,
                why: format!(
                    "the MCP client did not declare the `{what}` capability; use a client that \
                     supports it, or let the tool work without it"
                ),
            })
        }
    }
}

fn sampling_params(request: &SamplingRequest) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                MessageRole::User => "user",
                MessageRole::Assistant => "assistant",
            };
            json!({ "role": role, "content": { "type": "text", "text": m.text } })
        })
        .collect();
    let mut params = json!({ "messages": messages, "maxTokens": request.max_tokens });
    if let Some(system) = &request.system_prompt {
        params["systemPrompt"] = json!(system);
    }
    if let Some(t) = request.temperature {
        params["temperature"] = json!(t);
    }
    let mut preferences = serde_json::Map::new();
    if !request.model_hints.is_empty() {
        let hints: Vec<Value> = request
            .model_hints
            .iter()
            .map(|h| json!({ "name": h }))
            .collect();
        preferences.insert("hints".into(), json!(hints));
    }
    for (key, value) in [
        ("costPriority", request.cost_priority),
        ("speedPriority", request.speed_priority),
        ("intelligencePriority", request.intelligence_priority),
    ] {
        if let Some(v) = value {
            preferences.insert(key.into(), json!(v));
        }
    }
    if !preferences.is_empty() {
        params["modelPreferences"] = Value::Object(preferences);
    }
    params
}

/// A `sampling/createMessage` result as ours.
fn sampling_reply(value: &Value) -> SamplingReply {
    SamplingReply {
        text: reply_text(&value["content"]),
        model: value["model"].as_str().unwrap_or_default().to_owned(),
        stop_reason: value["stopReason"].as_str().map(str::to_owned),
    }
}

/// An `elicitation/create` result as ours.
fn elicited(value: &Value) -> Elicited<Value> {
    match value["action"].as_str() {
        Some("accept") => Elicited::Accepted(
            value
                .get("content")
                .filter(|c| !c.is_null())
                .cloned()
                .unwrap_or_else(|| json!({})),
        ),
        Some("decline") => Elicited::Declined,
        // Cancel, and any action a later revision adds: the user did not answer.
        _ => Elicited::Cancelled,
    }
}

/// A `roots/list` result as ours.
fn roots_of(value: &Value) -> Vec<Root> {
    value["roots"]
        .as_array()
        .map(|roots| {
            roots
                .iter()
                .filter_map(|r| {
                    Some(Root {
                        uri: r.get("uri")?.as_str()?.to_owned(),
                        name: r.get("name").and_then(Value::as_str).map(str::to_owned),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The text of a sampling result's content (one block, or the text blocks of a list).
fn reply_text(content: &Value) -> String {
    match content {
        Value::Array(blocks) => blocks.iter().map(reply_text).collect::<Vec<_>>().join(""),
        block => block
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    }
}

impl McpPeer {
    /// On a 2026-07-28 session: the answer this question got in an earlier round, or (the
    /// question recorded for the client) a wait that lasts until the run is dropped.
    async fn replayed(&self, kind: Kind, params: Value) -> Option<Result<Value, PeerError>> {
        let replay = self.replay.as_ref()?;
        match replay.next(kind, params) {
            Ok(Turn::Answer(answer)) => Some(Ok(answer)),
            Err(e) => Some(Err(e)),
            // The server ends the run once it sees the question; it never resumes here.
            Ok(Turn::Ask) => std::future::pending().await,
        }
    }
}

impl ClientPeer for McpPeer {
    fn log(&self, level: LogLevel, logger: &str, data: Value) {
        if self.replay.is_some() {
            // 2026-07-28 deprecates logging to the client (SEP-2577): the server's own log.
            let text = match &data {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            crate::peer::log_locally(level, logger, &text);
            return;
        }
        if let Some(threshold) = self.shared.level(&self.peer) {
            if level < ours(threshold) {
                return;
            }
        }
        let mut message = LoggingMessageNotificationParam::new(theirs(level), data);
        message.logger = Some(logger.to_owned());
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        let queue = logs.get_or_insert_with(|| {
            let (queue, queued) = mpsc::unbounded_channel();
            let task = self.runtime.spawn(send_logs(self.peer.clone(), queued));
            *self.sending.lock().unwrap_or_else(PoisonError::into_inner) = Some(task);
            queue
        });
        let _ = queue.send(message);
    }

    fn sample(&self, request: SamplingRequest) -> PeerFuture<'_, SamplingReply> {
        Box::pin(async move {
            self.require("sampling")?;
            let params = sampling_params(&request);
            if let Some(answer) = self.replayed(Kind::Sampling, params.clone()).await {
                return Ok(sampling_reply(&answer?));
            }
            let params: CreateMessageRequestParams =
                serde_json::from_value(params).map_err(|e| PeerError::Invalid(e.to_string()))?;
            let result = self.peer.create_message(params).await.map_err(failed)?;
            Ok(sampling_reply(
                &serde_json::to_value(&result).unwrap_or_default(),
            ))
        })
    }

    fn elicit(&self, message: String, schema: Value) -> PeerFuture<'_, Elicited<Value>> {
        Box::pin(async move {
            self.require("elicitation")?;
            let params = json!({ "mode": "form", "message": message, "requestedSchema": schema });
            if let Some(answer) = self.replayed(Kind::Elicitation, params.clone()).await {
                return Ok(elicited(&answer?));
            }
            let params: ElicitRequestParams =
                serde_json::from_value(params).map_err(|e| PeerError::Invalid(e.to_string()))?;
            // rmcp's typed helper sits behind a feature that pulls in `url`; the request
            // itself is plain.
            let request = ServerRequest::ElicitRequest(rmcp::model::ElicitRequest::new(params));
            let result = match self.peer.send_request(request).await.map_err(failed)? {
                ClientResult::ElicitResult(result) => result,
                _ => {
                    return Err(PeerError::Rejected(
                        "the client answered elicitation/create with another kind of result".into(),
                    ))
                }
            };
            Ok(elicited(&serde_json::to_value(&result).unwrap_or_default()))
        })
    }

    fn roots(&self) -> PeerFuture<'_, Vec<Root>> {
        Box::pin(async move {
            self.require("roots")?;
            if let Some(answer) = self.replayed(Kind::Roots, Value::Null).await {
                return Ok(roots_of(&answer?));
            }
            let result = self.peer.list_roots().await.map_err(failed)?;
            Ok(roots_of(&serde_json::to_value(&result).unwrap_or_default()))
        })
    }
}
