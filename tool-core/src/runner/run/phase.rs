//! Where a run stands between steps: its phase, the verdict on each call of the last turn,
//! and how decided verdicts become the calls to dispatch and the results to send back.

use serde::{Deserialize, Serialize};

use crate::call::ToolCall;
use crate::model::{Message, ToolResult};
use crate::response::{ToolErrorCode, ToolResponse};

use super::step::RunOutcome;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub(super) enum Phase {
    /// The next step is a model turn.
    CallModel,
    /// The last turn's calls (those of the last assistant message), one verdict each, some
    /// waiting for a person's decision.
    Approval {
        verdicts: Vec<Verdict>,
    },
    /// The last turn's calls, decided. The calls are read from the last assistant message,
    /// not copied, unless some were denied: then `subset` holds the ones to dispatch.
    RunTools {
        approved: Vec<String>,
        /// Results of denied calls, with their positions in the turn in `denied_at`.
        denied: Vec<ToolResult>,
        denied_at: Vec<usize>,
        subset: Option<Vec<ToolCall>>,
    },
    Done(RunOutcome),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "reason", rename_all = "snake_case")]
pub(super) enum Verdict {
    /// Needs no approval.
    Run,
    Pending,
    Approved,
    Denied(String),
    /// A final answer that does not validate: answered with this message, not run.
    Invalid(String),
    /// Needed no approval and already ran while the model was streaming: its response.
    Ran(ToolResponse),
}

/// The calls of the last assistant turn (empty if the last message is not one).
pub(super) fn last_calls(messages: &[Message]) -> &[ToolCall] {
    match messages.last() {
        Some(Message::Assistant(turn)) => &turn.calls,
        _ => &[],
    }
}

/// The calls still waiting for a decision.
pub(super) fn pending<'a>(verdicts: &[Verdict], calls: &'a [ToolCall]) -> Vec<&'a ToolCall> {
    verdicts
        .iter()
        .zip(calls)
        .filter(|(verdict, _)| **verdict == Verdict::Pending)
        .map(|(_, call)| call)
        .collect()
}

/// Decided calls: which run (approved ones marked), and the denied ones' results.
pub(super) fn plan_tools(verdicts: &[Verdict], calls: &[ToolCall]) -> Phase {
    let mut approved = Vec::new();
    let mut denied = Vec::new();
    let mut denied_at = Vec::new();
    for (position, (verdict, call)) in verdicts.iter().zip(calls).enumerate() {
        match verdict {
            Verdict::Denied(reason) => {
                let response = ToolResponse::error(
                    ToolErrorCode::PermissionDenied,
                    format!(
                        "The call to '{}' was not approved: {reason}. Do not repeat it \
                         unchanged; tell the user or choose another approach.",
                        call.name
                    ),
                );
                denied.push(ToolResult::new(
                    call.id.clone(),
                    call.name.clone(),
                    response,
                ));
                denied_at.push(position);
            }
            Verdict::Invalid(message) => {
                let response = ToolResponse::error(ToolErrorCode::InvalidParam, message.clone());
                denied.push(ToolResult::new(
                    call.id.clone(),
                    call.name.clone(),
                    response,
                ));
                denied_at.push(position);
            }
            Verdict::Ran(response) => {
                denied.push(ToolResult::new(
                    call.id.clone(),
                    call.name.clone(),
                    response.clone(),
                ));
                denied_at.push(position);
            }
            Verdict::Approved => approved.push(call.id.clone()),
            Verdict::Run | Verdict::Pending => {}
        }
    }
    // Only when some calls are denied does the batch differ from the turn's calls.
    let subset = (!denied_at.is_empty()).then(|| {
        calls
            .iter()
            .enumerate()
            .filter(|(position, _)| !denied_at.contains(position))
            .map(|(_, call)| call.clone())
            .collect()
    });
    Phase::RunTools {
        approved,
        denied,
        denied_at,
        subset,
    }
}

/// Whether a turn is a pause, not an answer: no calls, and the provider's `pause_turn` stop
/// (Anthropic stops a long turn so, to be sent back and continued).
pub(super) fn paused(turn: &crate::model::ModelTurn) -> bool {
    use crate::model::StopReason;
    turn.calls.is_empty()
        && matches!(&turn.stop_reason, StopReason::Other(reason) if reason == "pause_turn")
}
