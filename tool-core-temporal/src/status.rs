//! What a durable run reports: its state, the calls waiting for a person, and the decisions
//! people send it.

use serde::{Deserialize, Serialize};
use tool_core::model::Usage;
use tool_core::Approval;

/// Where a durable run stands.
///
/// ```
/// use tool_core_temporal::RunState;
/// assert_eq!(serde_json::to_string(&RunState::WaitingApproval).unwrap(), r#""waiting_approval""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunState {
    /// Asking the model or running tools.
    Running,
    /// Paused until every waiting call is approved or denied.
    WaitingApproval,
    /// Ended with an answer.
    Finished,
    /// Ended with an error (including a cancelled or terminated run).
    Failed,
}

/// What the workflow's `status` query answers.
///
/// ```
/// let status: tool_core_temporal::WorkflowStatus = serde_json::from_str(
///     r#"{"state":"waiting_approval","pending_approvals":["call_9"],"turns":1,"usage":{"input_tokens":5,"output_tokens":2}}"#,
/// ).unwrap();
/// assert_eq!(status.pending_approvals, ["call_9"]);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct WorkflowStatus {
    /// Where the run stands.
    pub state: RunState,
    /// Ids of the calls waiting for approval, in call order.
    pub pending_approvals: Vec<String>,
    /// Model turns taken so far.
    pub turns: u32,
    /// Tokens spent so far.
    pub usage: Usage,
}

/// A person's decision on a call waiting for approval: the workflow's `decide` signal.
///
/// ```
/// use tool_core_temporal::Decision;
/// let allow = Decision::allow("call_1");
/// let deny = Decision::deny("call_2", "not this account");
/// assert!(allow.allow && !deny.allow);
/// assert_eq!(deny.reason.as_deref(), Some("not this account"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Decision {
    /// The call decided on.
    pub call_id: String,
    /// Whether it may run.
    pub allow: bool,
    /// Why not, for the model (a denial without one says "denied by a person").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Decision {
    /// Lets the call run.
    pub fn allow(call_id: impl Into<String>) -> Self {
        Decision {
            call_id: call_id.into(),
            allow: true,
            reason: None,
        }
    }

    /// Refuses the call; the model gets the library's denial error with `reason`.
    pub fn deny(call_id: impl Into<String>, reason: impl Into<String>) -> Self {
        Decision {
            call_id: call_id.into(),
            allow: false,
            reason: Some(reason.into()),
        }
    }

    /// The decision as the run records it.
    ///
    /// ```
    /// use tool_core::Approval;
    /// assert_eq!(tool_core_temporal::Decision::allow("c1").approval(), Approval::Approved);
    /// ```
    pub fn approval(&self) -> Approval {
        if self.allow {
            Approval::Approved
        } else {
            Approval::Denied(
                self.reason
                    .clone()
                    .unwrap_or_else(|| "denied by a person".to_string()),
            )
        }
    }
}

/// One run as a client sees it: the workflow's state, the calls waiting, and the answer or
/// the error once it has ended.
///
/// ```
/// use tool_core_temporal::{RunState, RunStatus};
/// use tool_core::model::Usage;
/// let status = RunStatus {
///     id: "r1".into(), state: RunState::Finished, pending_approvals: vec![],
///     answer: Some("42".into()), error: None, turns: 2, usage: Usage::new(40, 10),
/// };
/// assert_eq!(
///     serde_json::to_string(&status).unwrap(),
///     r#"{"id":"r1","state":"finished","pending_approvals":[],"answer":"42","turns":2,"usage":{"input_tokens":40,"output_tokens":10,"cached_input_tokens":0,"reasoning_tokens":0}}"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunStatus {
    /// The run's workflow id.
    pub id: String,
    /// Where it stands.
    pub state: RunState,
    /// Calls waiting for approval.
    pub pending_approvals: Vec<String>,
    /// The final text of a finished run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Why a failed run failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Model turns taken (so far, or in all once ended), as a local run's
    /// `RunResult::run.turns()` counts them.
    #[serde(default)]
    pub turns: u32,
    /// Tokens spent (so far, or in all once ended; a failed run's up to its failure), as a
    /// local run's `RunResult::usage` adds them up.
    #[serde(default)]
    pub usage: Usage,
}
