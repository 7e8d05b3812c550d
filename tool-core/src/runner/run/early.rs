//! The run's side of calls that start while the model is still streaming its turn: which
//! calls may, and keeping the results of those that ran before the run paused for approval.

use crate::call::ToolCall;
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

use super::super::options::ApprovalPolicy;
use super::{Phase, Run, Verdict};

/// Which calls of a streamed turn may start as soon as they are complete: those the run would
/// dispatch without a person's approval, other than the final-answer and `stop_at_tool`
/// calls (which are never run). Owned, so the driver holds it while the run is borrowed by
/// the model request.
#[derive(Debug, Clone)]
pub(crate) struct EarlyGate {
    approval: ApprovalPolicy,
    offered: Option<Vec<String>>,
    never: Vec<String>,
    /// The tools the request allows (`ToolChoice::Allowed`); a call of another is refused
    /// when the turn is recorded, so it never starts early.
    allowed: Option<Vec<String>>,
}

impl EarlyGate {
    /// Whether `call` may start before the turn ends.
    pub(crate) fn allows(&self, call: &ToolCall, registry: &ToolRegistry) -> bool {
        if self.never.contains(&call.name)
            || self
                .allowed
                .as_ref()
                .is_some_and(|names| !names.contains(&call.name))
        {
            return false;
        }
        let offered = self
            .offered
            .as_ref()
            .is_none_or(|names| names.contains(&call.name));
        // Same rule as the run's: only offered, known tools can need approval.
        let needs_approval = offered
            && registry
                .definition(&call.name)
                .is_some_and(|d| self.approval.requires(d));
        !needs_approval
    }

    /// The tools offered (for the dispatcher's own check), as the run has them.
    pub(crate) fn offered(&self) -> Option<&[String]> {
        self.offered.as_deref()
    }
}

impl Run {
    /// The gate for calls that start early, or `None` when the run's options turn it off.
    pub(crate) fn early_gate(&self, registry: &ToolRegistry) -> Option<EarlyGate> {
        // A limit on tool calls or tokens is checked against the whole turn (its calls, its
        // usage) before any of them runs, which only the finished turn can tell.
        let limits = &self.options.usage_limits;
        if !self.options.start_calls_early
            || limits.tool_calls.is_some()
            || limits.total_tokens.is_some()
            // The hook's tools change from turn to turn; only the finished turn is checked
            // against the tools it was offered.
            || self.options.prepare_tools.is_some()
        {
            return None;
        }
        let mut never: Vec<String> = self.options.stop_at_tool.iter().cloned().collect();
        if let Some(spec) = &self.options.output {
            never.push(spec.format.name.clone());
        }
        // Whether a deferred tool may run depends on the searches (the run's, or the
        // provider's, whose results arrive with the turn): it waits for the whole turn. So
        // does `search_tools`, which the run answers itself.
        let offered = self.options.offered.as_deref();
        let deferred = registry
            .definitions()
            .iter()
            .filter(|d| d.defer_loading() && offered.is_none_or(|names| names.contains(&d.name)));
        let before = never.len();
        never.extend(deferred.map(|d| d.name.clone()));
        if never.len() > before && !self.native_tool_search {
            never.push(super::super::tool_search::SEARCH_TOOL.to_string());
        }
        Some(EarlyGate {
            approval: self.options.approval.clone(),
            offered: self.options.offered.clone(),
            never,
            allowed: self.allowed_this_turn(),
        })
    }

    /// Keeps the responses of calls of the last turn that already ran (positions in the
    /// turn) while the run waits for approval of others, so they are not run again.
    pub(crate) fn record_ran(&mut self, ran: Vec<(usize, ToolResponse)>) {
        let Phase::Approval { verdicts } = &mut self.phase else {
            return;
        };
        for (position, response) in ran {
            if let Some(verdict) = verdicts.get_mut(position) {
                if *verdict == Verdict::Run {
                    *verdict = Verdict::Ran(response);
                }
            }
        }
    }
}
