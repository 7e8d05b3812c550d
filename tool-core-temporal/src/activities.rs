//! The activities of a durable run: one model request, one tool call. Each runs on any worker
//! of the task queue, reports a heartbeat every second while it works (so a dead worker's
//! attempt is retried elsewhere within the heartbeat timeout), and its result is recorded in
//! the workflow's history once.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use temporalio_macros::activities;
use temporalio_sdk::activities::{ActivityContext, ActivityError};
use tool_core::model::{ModelError, ModelErrorKind, ModelEvent, ModelTurn};
use tool_core::runner::{ChatSpan, Run, Step};
use tool_core::{
    Approval, CallContext, CallOptions, CancelFlag, ToolCall, ToolDefinition, ToolResponse,
};

use crate::agent::DurableAgent;
use crate::events::{self, LiveEvent};
use crate::failure;
use tracing::Instrument;

/// How often a working activity reports that it is alive.
const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// The input of the model activity: the run as it stands (the request is built from it on
/// the worker, exactly as the workflow would).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelInput {
    /// The run, waiting for a model turn.
    pub run: Run,
}

/// The input of the tool activity: one call of one turn.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ToolInput {
    /// The workflow id of the run.
    pub run_id: String,
    /// The turn (1-based) whose call this is.
    pub turn: u32,
    /// The call, as the model wrote it.
    pub call: ToolCall,
    /// A person approved this call: it runs without the registry's approval hook.
    pub approved: bool,
    /// The tools offered that turn (`None`: all).
    pub offered: Option<Vec<String>>,
}

/// What a tool of a durable run can read from its context with
/// `ctx.extension::<DurableCall>()` (or an `Extension<DurableCall>` parameter): which run and
/// which turn the call belongs to. The call's idempotency key is
/// [`ToolContext::idempotency_key`](tool_core::ToolContext::idempotency_key).
///
/// ```
/// use tool_core::{tool, Extension};
/// use tool_core_temporal::DurableCall;
///
/// /// Says which run called it.
/// #[tool]
/// fn whoami(run: Option<Extension<DurableCall>>) -> String {
///     run.map(|r| r.0.run_id).unwrap_or_else(|| "a local run".into())
/// }
/// # let _ = whoami;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DurableCall {
    /// The workflow id of the run.
    pub run_id: String,
    /// The turn (1-based) of the call.
    pub turn: u32,
}

/// The idempotency key of a call: the run, the turn and the call id. The turn is part of it
/// because some providers number calls per turn, so a call id alone may come back.
///
/// ```
/// assert_eq!(tool_core_temporal::idempotency_key("run-1", 2, "call_a"), "run-1/2/call_a");
/// ```
pub fn idempotency_key(run_id: &str, turn: u32, call_id: &str) -> String {
    format!("{run_id}/{turn}/{call_id}")
}

/// The model request and the tool call as Temporal activities, sharing one [`DurableAgent`].
/// Register it on a worker with [`worker_options`](crate::worker_options) (which does).
pub struct AgentActivities {
    agent: Arc<DurableAgent>,
}

impl AgentActivities {
    /// The activities of `agent`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::model::ScriptedModel;
    /// let agent = Arc::new(tool_core_temporal::DurableAgent::new(ScriptedModel::new([]), tool_core::ToolRegistry::new()));
    /// let _activities = tool_core_temporal::AgentActivities::new(agent);
    /// ```
    pub fn new(agent: Arc<DurableAgent>) -> Self {
        AgentActivities { agent }
    }
}

#[activities]
impl AgentActivities {
    /// Sends the run's next request to the model (streamed, inside this activity) and returns
    /// the finished turn.
    #[activity(name = "tool_core.model_turn")]
    pub async fn model_turn(
        self: Arc<Self>,
        ctx: ActivityContext,
        input: ModelInput,
    ) -> Result<ModelTurn, ActivityError> {
        let agent = &self.agent;
        let registry = agent.registry();
        let mut run = input.run;
        // A stored run does not carry the options' closures: give them back.
        *run.options_mut() = agent.run_options().clone();
        let turn_number = run.turns() + 1;
        let request = match run.step(registry) {
            Ok(Step::CallModel(request)) => request,
            Ok(_) => {
                return Err(failure::non_retryable(
                    "OutOfOrder",
                    "the model activity was given a run that does not wait for a model turn",
                ));
            }
            Err(error) => return Err(failure::non_retryable(error.kind(), error.to_string())),
        };
        let model = agent.model();
        let info = ctx.info();
        let run_id = info.workflow_id.clone().unwrap_or_default();
        let attempt = info.attempt;
        // The run's `invoke_agent` span, when this worker started the run: the request's
        // `chat` span is its child, as in a local run.
        let parent = info
            .workflow_run_id
            .as_deref()
            .and_then(|key| agent.spans().get(key))
            .unwrap_or_else(tracing::Span::none);
        let chat = parent.in_scope(|| ChatSpan::start(&**model, &request, false));
        let sink = agent.event_sink();
        let request_turn = async {
            let mut stream = model.stream(request);
            loop {
                let event =
                    std::future::poll_fn(|cx| chat.in_scope(|| stream.as_mut().poll_next(cx)))
                        .await;
                match event {
                    Some(Ok(ModelEvent::Finished(turn))) => return Ok(turn),
                    Some(Ok(event)) => {
                        if let (Some(sink), Some(event)) = (sink, events::live(event)) {
                            sink(LiveEvent::new(run_id.as_str(), turn_number, attempt, event));
                        }
                    }
                    Some(Err(error)) => return Err(error),
                    None => {
                        return Err(ModelError::new(
                            ModelErrorKind::Incomplete,
                            "the model's stream ended before the turn was finished",
                        ));
                    }
                }
            }
        };
        match heartbeating(&ctx, None, request_turn).await? {
            Ok(turn) => {
                chat.finish(&turn, false);
                Ok(turn)
            }
            Err(error) => {
                chat.fail(&error);
                Err(failure::model(error))
            }
        }
    }

    /// Runs one call with its idempotency key in its context. A tool's own error is a
    /// response like any other (the model reads it), never an activity failure.
    #[activity(name = "tool_core.tool_call")]
    pub async fn tool_call(
        self: Arc<Self>,
        ctx: ActivityContext,
        input: ToolInput,
    ) -> Result<ToolResponse, ActivityError> {
        let registry = self.agent.registry();
        let cancel = CancelFlag::new();
        let context = CallContext::new()
            .with_idempotency_key(idempotency_key(&input.run_id, input.turn, &input.call.id))
            .with_extension(DurableCall {
                run_id: input.run_id.clone(),
                turn: input.turn,
            })
            .with_cancel(cancel.clone());
        let offered: Option<Vec<&str>> = input
            .offered
            .as_ref()
            .map(|names| names.iter().map(String::as_str).collect());
        let mut options = CallOptions::new().context(&context).model_calls();
        if let Some(offered) = &offered {
            options = options.offer(offered);
        }
        // A person approved the call: the registry's hook must not review it again.
        let approve = |_: &ToolCall, _: &ToolDefinition| Approval::Approved;
        if input.approved {
            options = options.approval(&approve);
        }
        // The call's `execute_tool` span (from the dispatch) is a child of the run's
        // `invoke_agent` span when this worker started the run, as in a local run.
        let parent = ctx
            .info()
            .workflow_run_id
            .as_deref()
            .and_then(|key| self.agent.spans().get(key))
            .unwrap_or_else(tracing::Span::none);
        heartbeating(
            &ctx,
            Some(&cancel),
            registry.call_with(&input.call, &options).instrument(parent),
        )
        .await
    }
}

/// Runs `work`, reporting a heartbeat every second; when the workflow cancels the activity,
/// raises `cancel` (so the tool can stop) and gives up on `work`.
async fn heartbeating<F: Future>(
    ctx: &ActivityContext,
    cancel: Option<&CancelFlag>,
    work: F,
) -> Result<F::Output, ActivityError> {
    let mut work = pin!(work);
    let mut ticks = tokio::time::interval(HEARTBEAT_EVERY);
    loop {
        tokio::select! {
            output = &mut work => return Ok(output),
            _ = ticks.tick() => {
                // A failed heartbeat is retried on the next tick; the server's timeout decides.
                let _ = ctx.record_heartbeat(()).await;
            }
            () = ctx.cancelled() => {
                if let Some(cancel) = cancel {
                    cancel.cancel();
                }
                return Err(ActivityError::cancelled());
            }
        }
    }
}
