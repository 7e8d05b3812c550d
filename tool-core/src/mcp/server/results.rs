//! What a call looks like on the wire: a definition as an rmcp tool, a response as a
//! `CallToolResult`, and progress reports forwarded to the client.

use crate::context::{Progress, ProgressReporter};
use crate::response::ToolResponse;
use rmcp::model::{
    CallToolResult, ContentBlock, NotificationMetaObject, ProgressNotificationParam, ProgressToken,
};
use rmcp::RoleServer;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

/// Our response as an MCP result, through the same JSON `provider::mcp::call_result` writes
/// (one rule for both: `structuredContent` only for a success of a tool with an output schema).
pub(super) fn call_result(
    response: &ToolResponse,
    output_schema: Option<&Value>,
) -> CallToolResult {
    let value = crate::provider::mcp::call_result(response, output_schema);
    // `call_result` writes exactly the fields rmcp's `CallToolResult` reads; should that ever
    // change, the model text still reaches the client with the right error flag.
    let mut result: CallToolResult = serde_json::from_value(value).unwrap_or_else(|_| {
        let content = vec![ContentBlock::text(response.model_text())];
        if response.is_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        }
    });
    // 2026-07-28 clients require `resultType` (the JSON above has none); rmcp takes it off
    // again for handshake-era clients, whose results do not carry it.
    result
        .result_type
        .get_or_insert(rmcp::model::ResultType::COMPLETE);
    result
}

/// Forwards a call's progress reports, in order, as `notifications/progress` (each with
/// `meta`, if any). Dropping the returned sender (`done`) makes the task send what is queued
/// and stop, even if the tool kept a clone of the reporter.
pub(super) fn progress_reporter(
    token: ProgressToken,
    peer: rmcp::Peer<RoleServer>,
    meta: Option<NotificationMetaObject>,
) -> (
    ProgressReporter,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Progress>();
    let (done, mut finished) = oneshot::channel::<()>();
    let notify = move |update: Progress| {
        let mut param = ProgressNotificationParam::new(token.clone(), update.progress);
        param.total = update.total;
        param.message = update.message;
        param.meta = meta.clone();
        let peer = peer.clone();
        async move { peer.notify_progress(param).await.is_ok() }
    };
    let forward = tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                Some(update) = rx.recv() => {
                    // A client that left cannot be told; the call itself still ends normally.
                    if !notify(update).await {
                        return;
                    }
                }
                _ = &mut finished => break,
                else => return,
            }
        }
        while let Ok(update) = rx.try_recv() {
            if !notify(update).await {
                return;
            }
        }
    });
    let reporter = ProgressReporter::new(move |update| {
        let _ = tx.send(update);
    });
    (reporter, done, forward)
}
