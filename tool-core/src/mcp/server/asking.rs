//! `prompts/get` and `resources/read` whose functions ask the client questions: the same
//! peer as a tool's (`mcp::peer`) and, on 2026-07-28 sessions, the same rounds of input
//! requests and sealed request state as `tools/call` (`mcp::input_required`), bound to the
//! method, its target (the prompt's name, the resource's URI) and its arguments.

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{InputRequiredResult, InputResponses, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::McpServer;
use crate::context::CallContext;
use crate::mcp::gate;
use crate::mcp::input_required::{self, Replay};

/// How a request that may ask questions ended.
pub(super) enum Asked<T> {
    /// The function finished.
    Done(T),
    /// It asked a question without an answer (2026-07-28): the client answers and retries.
    InputRequired(InputRequiredResult),
}

impl McpServer {
    /// Runs `run` with a context whose peer is the requesting client, as `tools/call` does.
    pub(super) async fn asking<T, F>(
        &self,
        context: &RequestContext<RoleServer>,
        method: &str,
        target: &str,
        arguments: Option<&JsonObject>,
        state: (Option<&str>, Option<&InputResponses>),
        run: impl FnOnce(Arc<CallContext>) -> F,
    ) -> Result<Asked<T>, ErrorData>
    where
        F: Future<Output = Result<T, ErrorData>>,
    {
        let principal = gate::principal_of(context);
        // On a 2026-07-28 session a retry carries the answers; they are checked first.
        let rounds = if input_required::is_modern(context) {
            let binding = input_required::binding(method, target, arguments, principal.as_ref());
            let answers = self.sealer.open(&binding, state.0, state.1)?;
            Some((binding, Arc::new(Replay::new(answers))))
        } else {
            None
        };
        let replay = rounds.as_ref().map(|(_, replay)| replay.clone());
        let (peer, logs) = crate::mcp::peer::for_call(
            context.peer.clone(),
            self.shared.clone(),
            context.client_capabilities(),
            replay.clone(),
        );
        let mut call_context = CallContext::new().with_peer(peer);
        if let Some(principal) = principal {
            call_context = call_context.with_extension(principal);
        }
        let call_context = Arc::new(call_context);
        let outcome = {
            let running = run(call_context.clone());
            tokio::pin!(running);
            let asked = Replay::asked_in(replay.as_deref());
            // The run ends as soon as the function asks a question without an answer; it
            // runs again from the start on the client's retry.
            tokio::select! {
                biased;
                outcome = &mut running => Some(outcome),
                () = asked => None,
                () = context.ct.cancelled() => {
                    return Err(ErrorData::internal_error("the request was cancelled", None));
                }
            }
        };
        drop(call_context);
        logs.wait().await;
        match (outcome, rounds) {
            (Some(outcome), _) => outcome.map(Asked::Done),
            (None, Some((binding, replay))) => Ok(Asked::InputRequired(
                self.sealer.input_required(&binding, &replay)?,
            )),
            (None, None) => Err(ErrorData::internal_error(
                "the request ended without a result",
                None,
            )),
        }
    }
}
