//! [`AgentWorkflow`]: the workflow that drives one [`Run`] step by step. It holds the run in
//! memory and makes no I/O, reads no clock and draws no random number: every model turn and
//! every tool result comes from an activity, whose result the history keeps, so a replay on
//! another worker rebuilds the same run without asking the model or running a tool again.

use std::sync::Arc;

use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use temporalio_common::error::ApplicationFailure;
use temporalio_common::RetryPolicy;
use temporalio_macros::{workflow, workflow_methods};
use temporalio_sdk::{
    ActivityExecutionError, ActivityOptions, SyncWorkflowContext, WorkflowContext,
    WorkflowContextView, WorkflowResult, WorkflowTermination,
};
use tool_core::model::Usage;
use tool_core::runner::{Run, RunOutcome, Step};
use tool_core::{ToolErrorCode, ToolResponse};

use crate::activities::{AgentActivities, ModelInput, ToolInput};
use crate::agent::{DurableAgent, DurableOptions};
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
        }
    }
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
        let registry = agent.registry();
        let durable = *agent.durable_options();
        let run_id = ctx.workflow_id().to_string();
        let mut run = Run::new(input.prompt, agent.run_options().clone());
        run.use_native_tool_search(agent.model().native_tool_search());
        loop {
            let next = next_step(&mut run, registry, &run_id)?;
            match next {
                Next::Model => {
                    let activity = ctx.execute_activity(
                        AgentActivities::model_turn,
                        ModelInput { run: run.clone() },
                        model_options(&durable),
                    );
                    let turn = activity.await.map_err(activity_failed)?;
                    run.record_turn(turn, registry)
                        .map_err(|error| run_failed(error.kind(), &error.to_string()))?;
                    let (turns, usage) = (run.turns(), run.usage());
                    ctx.state_mut(|s| {
                        s.turns = turns;
                        s.usage = usage;
                    });
                }
                Next::Tools(inputs) => {
                    // The turn's calls run at once, on whichever workers take them; their
                    // results come back in call order.
                    let calls = inputs.into_iter().map(|input| {
                        ctx.execute_activity(
                            AgentActivities::tool_call,
                            input,
                            tool_options(&durable),
                        )
                    });
                    let mut responses: Vec<ToolResponse> = Vec::new();
                    for result in join_all(calls).await {
                        match result {
                            Ok(response) => responses.push(response),
                            Err(ActivityExecutionError::Cancelled(_)) => {
                                return Err(WorkflowTermination::cancelled());
                            }
                            // Out of attempts: the model learns that the call did not complete.
                            Err(error) => responses.push(ToolResponse::error(
                                ToolErrorCode::ExecutionError,
                                format!("the call did not complete: {}", failure_message(&error)),
                            )),
                        }
                    }
                    run.record_results(responses)
                        .map_err(|error| run_failed(error.kind(), &error.to_string()))?;
                }
                Next::Approval(ids) => {
                    ctx.state_mut(|s| {
                        s.state = RunState::WaitingApproval;
                        s.pending = ids;
                    });
                    // No process is held while the run waits: the workflow sleeps in the
                    // server until a signal arrives (or the run is cancelled).
                    ctx.wait_condition(|s| !s.decisions.is_empty()).await?;
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
                        outcome,
                        turns: run.turns(),
                        usage: run.usage(),
                    };
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
}

/// What the workflow does next, read from the run's step (which borrows the run).
enum Next {
    Model,
    Tools(Vec<ToolInput>),
    Approval(Vec<String>),
    Done(RunOutcome),
}

fn next_step(
    run: &mut Run,
    registry: &tool_core::ToolRegistry,
    run_id: &str,
) -> WorkflowResult<Next> {
    let turn = run.turns();
    let step = run
        .step(registry)
        .map_err(|error| run_failed(error.kind(), &error.to_string()))?;
    Ok(match step {
        Step::CallModel(_) => Next::Model,
        Step::RunTools(batch) => {
            let offered = batch.offered.map(<[String]>::to_vec);
            Next::Tools(
                batch
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
            )
        }
        Step::AwaitApproval(calls) => {
            Next::Approval(calls.iter().map(|call| call.id.clone()).collect())
        }
        Step::Done(outcome) => Next::Done(outcome.clone()),
        _ => {
            return Err(run_failed(
                "Unsupported",
                "the run asked for a step this version of tool-core-temporal does not know",
            ));
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

/// Ends the workflow failed, naming the run's error.
fn run_failed(kind: &str, message: &str) -> WorkflowTermination {
    ApplicationFailure::builder(message.to_string())
        .type_name(kind.to_string())
        .non_retryable(true)
        .build()
        .into()
}

/// A model activity that failed for good fails the run; a cancelled one cancels it.
fn activity_failed(error: ActivityExecutionError) -> WorkflowTermination {
    match error {
        ActivityExecutionError::Cancelled(_) => WorkflowTermination::cancelled(),
        error => run_failed("Model", &failure_message(&error)),
    }
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
