//! [`AgentWorkflow`]: the workflow that drives one [`Run`] step by step. It holds the run in
//! memory and makes no I/O, reads no clock and draws no random number: every model turn and
//! every tool result comes from an activity, whose result the history keeps, so a replay on
//! another worker rebuilds the same run without asking the model or running a tool again.

use std::sync::Arc;

use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use temporalio_common::error::{ApplicationFailure, IncomingError};
use temporalio_common::RetryPolicy;
use temporalio_macros::{workflow, workflow_methods};
use temporalio_sdk::{
    ActivityExecutionError, ActivityOptions, SyncWorkflowContext, WorkflowContext,
    WorkflowContextView, WorkflowResult, WorkflowTermination,
};
use tool_core::model::{ModelError, ModelErrorKind, ToolResult, Usage};
use tool_core::runner::{Run, RunError, RunEvent, RunOutcome, Step};
use tool_core::{ToolCall, ToolErrorCode, ToolResponse};

use crate::activities::{AgentActivities, ModelInput, ToolInput};
use crate::agent::{DurableAgent, DurableOptions};
use crate::events::{self, EventPage};
use crate::failure;
use crate::status::{Decision, RunState, WorkflowStatus};

/// What a durable run starts from.
///
/// ```
/// let input = tool_core_temporal::AgentInput::new("Look up the key k1");
/// assert_eq!(serde_json::to_value(&input).unwrap(), serde_json::json!({"prompt": "Look up the key k1"}));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AgentInput {
    /// The user's message.
    pub prompt: String,
}

impl AgentInput {
    /// A run of one user message.
    pub fn new(prompt: impl Into<String>) -> Self {
        AgentInput {
            prompt: prompt.into(),
        }
    }
}

/// How a durable run ended, when it ended well: the workflow's result. A run that fails ends
/// the workflow failed (its failure names the error), and a cancelled one ends it cancelled.
///
/// ```
/// let output: tool_core_temporal::AgentOutput = serde_json::from_value(serde_json::json!({
///     "outcome": {"type": "finished", "text": "done"},
///     "turns": 2,
///     "usage": {"input_tokens": 10, "output_tokens": 3},
/// })).unwrap();
/// assert_eq!(output.answer(), Some("done"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AgentOutput {
    /// How the run ended.
    pub outcome: RunOutcome,
    /// Model turns taken.
    pub turns: u32,
    /// Tokens spent over every turn.
    pub usage: Usage,
}

impl AgentOutput {
    /// The final text, when the model answered with text.
    pub fn answer(&self) -> Option<&str> {
        match &self.outcome {
            RunOutcome::Finished { text } => Some(text),
            _ => None,
        }
    }
}

/// The agent as a Temporal workflow: register it with
/// [`worker_options`](crate::worker_options), start it with
/// [`DurableClient::start`](crate::DurableClient::start).
///
/// Its signal `decide` approves or denies a call waiting for approval; its query `status`
/// reports where the run stands and which calls wait.
#[workflow]
pub struct AgentWorkflow {
    agent: Arc<DurableAgent>,
    state: RunState,
    pending: Vec<String>,
    decisions: Vec<Decision>,
    turns: u32,
    usage: Usage,
    /// The run's events so far (see [`crate::events`]), as the `events` query gives them.
    events: Vec<Value>,
}

impl AgentWorkflow {
    /// The workflow of `agent` (what the worker's factory builds for each run).
    pub(crate) fn new(agent: Arc<DurableAgent>) -> Self {
        AgentWorkflow {
            agent,
            state: RunState::Running,
            pending: Vec::new(),
            decisions: Vec::new(),
            turns: 0,
            usage: Usage::default(),
            events: Vec::new(),
        }
    }
}

/// Adds events to the run's list (derived from what the history records, so the same on
/// every replay).
fn emit(ctx: &WorkflowContext<AgentWorkflow>, events: impl IntoIterator<Item = RunEvent>) {
    ctx.state_mut(|s| {
        s.events
            .extend(events.into_iter().map(|event| events::to_value(&event)));
    });
}

/// Ends the run failed: its `RunFailed` event, then the workflow's failure naming the error.
fn fail(ctx: &WorkflowContext<AgentWorkflow>, run: &Run, error: RunError) -> WorkflowTermination {
    let termination = run_failed(&error, run);
    emit(
        ctx,
        [RunEvent::RunFailed {
            error,
            usage: run.usage(),
        }],
    );
    ctx.state_mut(|s| {
        s.state = RunState::Failed;
        s.pending.clear();
    });
    termination
}

/// Ends the run cancelled, as a local run's `RunFinished` with the `Cancelled` outcome says.
fn cancelled(ctx: &WorkflowContext<AgentWorkflow>, run: &Run) -> WorkflowTermination {
    emit(
        ctx,
        [RunEvent::RunFinished {
            outcome: RunOutcome::Cancelled,
            usage: run.usage(),
            turns: run.turns(),
        }],
    );
    WorkflowTermination::cancelled()
}

#[workflow_methods(factory_only)]
impl AgentWorkflow {
    /// Drives the run to its end.
    #[run(name = "tool_core.agent")]
    pub async fn run(
        ctx: &mut WorkflowContext<Self>,
        input: AgentInput,
    ) -> WorkflowResult<AgentOutput> {
        let agent = ctx.state(|s| Arc::clone(&s.agent));
        // The run's `invoke_agent` span: opened when the run starts, never when a worker
        // replays it; it ends with the run, or when this worker lets go of it.
        let _span =
            (!ctx.is_replaying()).then(|| agent.spans().open(ctx.run_id(), &**agent.model()));
        let registry = agent.registry();
        let durable = *agent.durable_options();
        let run_id = ctx.workflow_id().to_string();
        let mut run = Run::new(input.prompt, agent.run_options().clone());
        run.use_native_tool_search(agent.model().native_tool_search());
        // Whether the calls waiting now were announced: a run still waiting after a first
        // decision (the others come in later signals) does not announce them again.
        let mut announced = false;
        loop {
            let turn_number = run.turns() + 1;
            let next = match next_step(&mut run, registry, &run_id) {
                Ok(next) => next,
                Err(error) => return Err(fail(ctx, &run, error)),
            };
            match next {
                Next::Model => {
                    announced = false;
                    emit(ctx, [RunEvent::TurnStarted { turn: turn_number }]);
                    let activity = ctx.execute_activity(
                        AgentActivities::model_turn,
                        ModelInput { run: run.clone() },
                        model_options(&durable),
                    );
                    let turn = match activity.await {
                        Ok(turn) => turn,
                        Err(ActivityExecutionError::Cancelled(_)) => {
                            return Err(cancelled(ctx, &run));
                        }
                        Err(error) => return Err(fail(ctx, &run, model_failed(&error))),
                    };
                    emit(ctx, events::turn_events(turn_number, &turn));
                    if let Err(error) = run.record_turn(turn, registry) {
                        return Err(fail(ctx, &run, error));
                    }
                    let (turns, usage) = (run.turns(), run.usage());
                    ctx.state_mut(|s| {
                        s.turns = turns;
                        s.usage = usage;
                    });
                }
                Next::Tools { inputs, denied } => {
                    announced = false;
                    emit(
                        ctx,
                        denied.iter().flat_map(|result| {
                            events::result_events(&result.call_id, &result.name, &result.response)
                        }),
                    );
                    // The turn's calls run at once, on whichever workers take them; their
                    // results come back in call order.
                    let calls = inputs.iter().map(|input| {
                        ctx.execute_activity(
                            AgentActivities::tool_call,
                            input.clone(),
                            tool_options(&durable),
                        )
                    });
                    let mut responses: Vec<ToolResponse> = Vec::new();
                    for result in join_all(calls).await {
                        match result {
                            Ok(response) => responses.push(response),
                            Err(ActivityExecutionError::Cancelled(_)) => {
                                return Err(cancelled(ctx, &run));
                            }
                            // Out of attempts: the model learns that the call did not complete.
                            Err(error) => responses.push(ToolResponse::error(
                                ToolErrorCode::ExecutionError,
                                format!("the call did not complete: {}", failure_message(&error)),
                            )),
                        }
                    }
                    emit(
                        ctx,
                        inputs.iter().zip(&responses).flat_map(|(input, response)| {
                            events::result_events(&input.call.id, &input.call.name, response)
                        }),
                    );
                    if let Err(error) = run.record_results(responses) {
                        return Err(fail(ctx, &run, error));
                    }
                }
                Next::Approval(calls) => {
                    let ids = calls.iter().map(|call| call.id.clone()).collect();
                    if !announced {
                        emit(ctx, [RunEvent::ApprovalRequired { calls }]);
                        announced = true;
                    }
                    ctx.state_mut(|s| {
                        s.state = RunState::WaitingApproval;
                        s.pending = ids;
                    });
                    // No process is held while the run waits: the workflow sleeps in the
                    // server until a signal arrives (or the run is cancelled).
                    if ctx
                        .wait_condition(|s| !s.decisions.is_empty())
                        .await
                        .is_err()
                    {
                        return Err(cancelled(ctx, &run));
                    }
                    let decisions = ctx.state_mut(|s| std::mem::take(&mut s.decisions));
                    for decision in decisions {
                        // A decision on a call that does not wait (a typo, a second decision)
                        // changes nothing.
                        let _ = run.decide(&decision.call_id, decision.approval());
                    }
                    let still: Vec<String> = run
                        .pending_approvals()
                        .iter()
                        .map(|call| call.id.clone())
                        .collect();
                    ctx.state_mut(|s| {
                        if still.is_empty() {
                            s.state = RunState::Running;
                        }
                        s.pending = still;
                    });
                }
                Next::Done(outcome) => {
                    let output = AgentOutput {
                        outcome: outcome.clone(),
                        turns: run.turns(),
                        usage: run.usage(),
                    };
                    emit(
                        ctx,
                        [RunEvent::RunFinished {
                            outcome,
                            usage: output.usage,
                            turns: output.turns,
                        }],
                    );
                    ctx.state_mut(|s| {
                        s.state = RunState::Finished;
                        s.pending.clear();
                    });
                    return Ok(output);
                }
            }
        }
    }

    /// Approves or denies a call waiting for approval.
    #[signal(name = "decide")]
    pub fn decide(&mut self, _ctx: &mut SyncWorkflowContext<Self>, decision: Decision) {
        self.decisions.push(decision);
    }

    /// Where the run stands and which calls wait for a person.
    #[query(name = "status")]
    pub fn status(&self, _ctx: &WorkflowContextView) -> WorkflowStatus {
        WorkflowStatus {
            state: self.state,
            pending_approvals: self.pending.clone(),
            turns: self.turns,
            usage: self.usage,
        }
    }

    /// The run's events from index `from` on.
    #[query(name = "events")]
    pub fn events(&self, _ctx: &WorkflowContextView, from: usize) -> EventPage {
        let ended = matches!(self.state, RunState::Finished | RunState::Failed)
            || self.events.last().is_some_and(|last| {
                matches!(last["type"].as_str(), Some("run_finished" | "run_failed"))
            });
        EventPage {
            events: self.events.get(from..).unwrap_or_default().to_vec(),
            next: self.events.len(),
            ended,
        }
    }
}

/// What the workflow does next, read from the run's step (which borrows the run).
enum Next {
    Model,
    Tools {
        inputs: Vec<ToolInput>,
        /// Results the run wrote itself (denied calls): reported before the others.
        denied: Vec<ToolResult>,
    },
    Approval(Vec<ToolCall>),
    Done(RunOutcome),
}

fn next_step(
    run: &mut Run,
    registry: &tool_core::ToolRegistry,
    run_id: &str,
) -> Result<Next, RunError> {
    let turn = run.turns();
    Ok(match run.step(registry)? {
        Step::CallModel(_) => Next::Model,
        Step::RunTools(batch) => {
            let offered = batch.offered.map(<[String]>::to_vec);
            Next::Tools {
                inputs: batch
                    .calls
                    .iter()
                    .map(|call| ToolInput {
                        run_id: run_id.to_string(),
                        turn,
                        call: call.clone(),
                        approved: batch.approved.contains(&call.id),
                        offered: offered.clone(),
                    })
                    .collect(),
                denied: batch.denied.to_vec(),
            }
        }
        Step::AwaitApproval(calls) => Next::Approval(calls.into_iter().cloned().collect()),
        Step::Done(outcome) => Next::Done(outcome.clone()),
        _ => {
            return Err(RunError::OutOfOrder {
                given: "a step this version of tool-core-temporal does not know",
                expected: "a model turn, tool calls, approval or the end",
            });
        }
    })
}

/// The model activity's options: retried as the error says (see [`crate::failure`]).
fn model_options(durable: &DurableOptions) -> ActivityOptions {
    ActivityOptions::with_start_to_close_timeout(durable.model_timeout)
        .heartbeat_timeout(durable.heartbeat_timeout)
        .retry_policy(retry_policy(durable, durable.model_attempts))
        .build()
}

/// The tool activity's options: an attempt is retried only when it was lost.
fn tool_options(durable: &DurableOptions) -> ActivityOptions {
    ActivityOptions::with_start_to_close_timeout(durable.tool_timeout)
        .heartbeat_timeout(durable.heartbeat_timeout)
        .retry_policy(retry_policy(durable, durable.tool_attempts))
        .build()
}

fn retry_policy(durable: &DurableOptions, attempts: u32) -> RetryPolicy {
    RetryPolicy::builder()
        .initial_interval(durable.retry_interval)
        .maximum_interval(durable.max_retry_interval)
        .maximum_attempts(attempts)
        .build()
}

/// What a failed run's workflow failure carries besides its message: the turns taken and
/// the tokens spent, as a local run's error reports them.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub(crate) struct FailedRun {
    pub(crate) turns: u32,
    pub(crate) usage: Usage,
}

/// Ends the workflow failed, naming the run's error (a model error keeps the type name
/// `Model`, the others their kind).
fn run_failed(error: &RunError, run: &Run) -> WorkflowTermination {
    let (kind, message) = match error {
        RunError::Model(model) => ("Model".to_string(), model.to_string()),
        other => (other.kind().to_string(), other.to_string()),
    };
    ApplicationFailure::builder(message)
        .type_name(kind)
        .non_retryable(true)
        .details(FailedRun {
            turns: run.turns(),
            usage: run.usage(),
        })
        .build()
        .into()
}

/// The run's error for a model activity that failed for good: the model error it carried,
/// or, when it carried none, an error naming the failure (a timeout when its last attempt
/// timed out).
fn model_failed(error: &ActivityExecutionError) -> RunError {
    let kind = match error.cause() {
        Some(IncomingError::Application(failure)) => {
            if let Some(carried) = failure::model_error(failure) {
                return RunError::Model(carried);
            }
            ModelErrorKind::Other
        }
        Some(IncomingError::Timeout(_)) => ModelErrorKind::Timeout,
        _ => ModelErrorKind::Other,
    };
    RunError::Model(ModelError::new(kind, failure_message(error)))
}

/// The innermost message of an activity's failure (the error the activity returned, not
/// Temporal's "activity task failed" around it).
fn failure_message(error: &ActivityExecutionError) -> String {
    let Some(mut failure) = error.failure() else {
        return error.to_string();
    };
    while let Some(cause) = failure.cause.as_deref() {
        failure = cause;
    }
    failure.message.clone()
}
