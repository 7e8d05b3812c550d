//! Approval pauses: which calls need a person, and recording their decisions.

use crate::call::ToolCall;
use crate::policy::Approval;
use crate::registry::ToolRegistry;

use super::{last_calls, pending, Phase, Run, Verdict};
use crate::runner::error::RunError;

impl Run {
    /// Records a person's decision on a call waiting for approval. A denial goes back to the
    /// model as a `PERMISSION_DENIED` result with the reason; the call never runs.
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools, Approval, ToolCall};
    ///
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { format!("deleted {path}") }
    /// let registry = tools![delete_file];
    ///
    /// let mut run = Run::new("Clean up", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]), &registry).unwrap();
    /// assert!(matches!(run.step(&registry).unwrap(), Step::AwaitApproval(calls) if calls[0].id == "c1"));
    /// run.decide("c1", Approval::Denied("keep it".into())).unwrap();
    /// let Step::RunTools(batch) = run.step(&registry).unwrap() else { panic!() };
    /// assert!(batch.calls.is_empty());
    /// assert!(batch.denied[0].response.error_message().unwrap().contains("keep it"));
    /// ```
    pub fn decide(&mut self, call_id: &str, decision: Approval) -> Result<(), RunError> {
        let not_pending = || RunError::NotPending {
            call_id: call_id.to_string(),
        };
        let Phase::Approval { verdicts } = &mut self.phase else {
            return Err(not_pending());
        };
        let calls = last_calls(&self.messages);
        let Some(verdict) = verdicts
            .iter_mut()
            .zip(calls)
            .find(|(verdict, call)| call.id == call_id && **verdict == Verdict::Pending)
            .map(|(verdict, _)| verdict)
        else {
            return Err(not_pending());
        };
        *verdict = match decision {
            Approval::Approved => Verdict::Approved,
            Approval::Denied(reason) => Verdict::Denied(reason),
        };
        Ok(())
    }

    /// Approves a waiting call; see [`Run::decide`].
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { format!("deleted {path}") }
    /// let registry = tools![delete_file];
    /// let mut run = Run::new("Clean up", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]), &registry).unwrap();
    /// run.approve("c1").unwrap();
    /// assert!(matches!(run.step(&registry).unwrap(), Step::RunTools(batch) if batch.approved == ["c1"]));
    /// assert!(run.approve("c9").is_err()); // no such call waits
    /// ```
    pub fn approve(&mut self, call_id: &str) -> Result<(), RunError> {
        self.decide(call_id, Approval::Approved)
    }

    /// Denies a waiting call with a reason for the model; see [`Run::decide`].
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools, ToolCall, ToolErrorCode};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { format!("deleted {path}") }
    /// let registry = tools![delete_file];
    /// let mut run = Run::new("Clean up", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]), &registry).unwrap();
    /// run.deny("c1", "the user said no").unwrap();
    /// let Step::RunTools(batch) = run.step(&registry).unwrap() else { panic!() };
    /// assert_eq!(batch.denied[0].response.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// ```
    pub fn deny(&mut self, call_id: &str, reason: impl Into<String>) -> Result<(), RunError> {
        self.decide(call_id, Approval::Denied(reason.into()))
    }

    /// The calls waiting for approval (empty unless the run is paused for them).
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { format!("deleted {path}") }
    /// let registry = tools![delete_file];
    /// let mut run = Run::new("Clean up", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]), &registry).unwrap();
    /// assert_eq!(run.pending_approvals()[0].id, "c1");
    /// run.approve("c1").unwrap();
    /// assert!(run.pending_approvals().is_empty());
    /// ```
    pub fn pending_approvals(&self) -> Vec<&ToolCall> {
        match &self.phase {
            Phase::Approval { verdicts } => pending(verdicts, last_calls(&self.messages)),
            _ => Vec::new(),
        }
    }

    pub(super) fn needs_approval(&self, call: &ToolCall, registry: &ToolRegistry) -> bool {
        let offered = match &self.options.offered {
            Some(names) => names.contains(&call.name),
            None => true,
        };
        // A call the dispatcher will refuse anyway (unknown or not offered) needs no person.
        offered
            && registry
                .definition(&call.name)
                .is_some_and(|d| self.options.approval.requires(d))
    }
}
