//! `tools/call`: the registry's call with the client as the tool's peer, and on 2026-07-28
//! sessions the rounds of questions (see `mcp::input_required`).

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResponse, CreateTaskResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::results::{call_result, progress_reporter};
use super::tasks::task_of;
use super::McpServer;
use crate::call::ToolCall;
use crate::context::{CallContext, CancelFlag};
use crate::definition::ToolDefinition;
use crate::mcp::gate;
use crate::mcp::input_required::{self, Replay};
use crate::principal::Principal;
use crate::registry::ToolRegistry;

/// The definition of the tool `name`, when it exists and `principal` may call it; else the
/// JSON-RPC error the call gets (`-32602`, nothing runs).
pub(super) fn callable<'a>(
    registry: &'a ToolRegistry,
    name: &str,
    principal: Option<&Principal>,
) -> Result<&'a ToolDefinition, ErrorData> {
    let Some(definition) = registry.definition(name) else {
        let message = registry
            .unknown_tool(name)
            .error_message()
            .unwrap_or("unknown tool")
            .to_owned();
        return Err(ErrorData::invalid_params(message, None));
    };
    if !gate::may_use(registry, name, principal) {
        // Refused before anything runs; the tool was not listed to this caller either.
        return Err(ErrorData::invalid_params(
            format!(
                "tool '{name}' needs the scopes '{}', which the caller's token does not grant; \
                 ask the authorization server for a token with them",
                registry.required_scopes(name).join(" ")
            ),
            None,
        ));
    }
    Ok(definition)
}

impl McpServer {
    pub(super) async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The tool set as it is now; a change while the call runs does not disturb it.
        let served = self.tools.current();
        let registry = &served.registry;
        let principal = gate::principal_of(&context);
        let definition = callable(registry, &request.name, principal.as_ref())?;
        // A task-capable tool called by a client that takes tasks answers with the task.
        if self.as_task(definition, &context)? {
            let arguments = match &request.arguments {
                Some(arguments) => serde_json::to_string(arguments).unwrap_or_else(|_| "{}".into()),
                None => "{}".to_owned(),
            };
            let call = ToolCall::new(context.id.to_string(), request.name.into_owned(), arguments);
            // Boxed, so a plain call's future (which rmcp moves into a task of its own per
            // request) does not carry the task machinery's space: inline, every plain
            // `tools/call` cost 77,000 more instructions under callgrind, most of them memcpy
            // (scripts/mcp_http_wrk.py).
            return Box::pin(self.start_task(
                registry.clone(),
                definition,
                call,
                principal,
                None,
                None,
                None,
            ))
            .await
            .map(|record| CallToolResponse::Task(CreateTaskResult::new(task_of(&record))));
        }
        // On a 2026-07-28 session a retry carries the answers to the tool's questions; they
        // are checked before anything runs.
        let modern = input_required::is_modern(&context);
        let rounds = if modern {
            let binding = input_required::binding(
                "tools/call",
                &request.name,
                request.arguments.as_ref(),
                principal.as_ref(),
            );
            let answers = self.sealer.open(
                &binding,
                request.request_state.as_deref(),
                request.input_responses.as_ref(),
            )?;
            Some((binding, Arc::new(Replay::new(answers))))
        } else {
            None
        };
        let replay = rounds.as_ref().map(|(_, replay)| replay.clone());
        let arguments = match &request.arguments {
            Some(arguments) => serde_json::to_string(arguments).unwrap_or_else(|_| "{}".into()),
            None => "{}".to_owned(),
        };
        let call = ToolCall::new(context.id.to_string(), request.name.into_owned(), arguments);

        let cancel = CancelFlag::new();
        // The tool's way to the client (log, sample, elicit, roots); its log messages go
        // out in order and all before the result.
        let (peer, logs) = crate::mcp::peer::for_call(
            context.peer.clone(),
            self.shared.clone(),
            context.client_capabilities(),
            replay.clone(),
        );
        let mut call_context = CallContext::new()
            .with_cancel(cancel.clone())
            .with_peer(peer);
        if let Some(principal) = principal {
            call_context = call_context.with_extension(principal);
        }
        let mut forwarder = None;
        if let Some(token) = context.meta.get_progress_token() {
            let (reporter, done, forward) = progress_reporter(token, context.peer.clone(), None);
            call_context = call_context.with_progress(reporter);
            forwarder = Some((done, forward));
        }
        // `notifications/cancelled` cancels the request's token; the tool sees it as its flag
        // and decides how to stop (the registry's time limits bound a tool that ignores it).
        // Watching the token beside the call, not in a task of its own, keeps a call that
        // is never cancelled free of a spawn. On a 2026-07-28 session the run ends as soon as
        // the tool asks a question without an answer (all the questions it asked by then, as
        // with `join!`, go out together); the dropped run stops where it waited.
        let response = {
            let running = gate::within(
                self.call_timeout,
                &call.name,
                registry.call_in(&call, &call_context),
            );
            tokio::pin!(running);
            let asked = Replay::asked_in(replay.as_deref());
            tokio::select! {
                biased;
                response = &mut running => Some(response),
                () = asked => None,
                () = context.ct.cancelled() => {
                    cancel.cancel();
                    Some(running.await)
                }
            }
        };
        // Every progress report made during the call reaches the client before the result.
        if let Some((done, forward)) = forwarder {
            drop(done);
            let _ = forward.await;
        }
        drop(call_context);
        logs.wait().await;
        match (response, rounds) {
            (Some(response), _) => {
                // Each era its own shape of a non-object result (see `ServedTools`).
                let output_schema = served.output_schema(definition, modern);
                Ok(call_result(&response, output_schema).into())
            }
            (None, Some((binding, replay))) => {
                Ok(self.sealer.input_required(&binding, &replay)?.into())
            }
            // Only a replay's question ends a run without a response.
            (None, None) => Err(ErrorData::internal_error(
                "the call ended without a result",
                None,
            )),
        }
    }
}
