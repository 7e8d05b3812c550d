//! Restricting which tools a turn may call without changing the tools sent
//! ([`ToolChoice::Allowed`]): the run refuses a call outside the set on every API, since
//! some (Anthropic, text-mode models) have no field that enforces it.

use crate::call::ToolCall;
use crate::provider::{AllowedMode, ToolChoice};
use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::quoted_list;

use super::Run;

impl Run {
    /// The tools the calls of the turn being recorded may name (`None`: any offered tool):
    /// the allowed set of the request's `tool_choice`, plus the final-answer tool when typed
    /// output waits for it.
    pub(super) fn allowed_this_turn(&self) -> Option<Vec<String>> {
        let mut names = self.request_tool_choice().allowed_tools()?.to_vec();
        if let Some(spec) = &self.options.output {
            names.push(spec.format.name.clone());
        }
        Some(names)
    }

    /// After a turn, an allowed set that required a call keeps its restriction but no longer
    /// forces a call, like a forced `tool_choice` (unless the options keep it).
    pub(super) fn relax_allowed_choice(&mut self) {
        if let ToolChoice::Allowed { mode, .. } = &mut self.tool_choice {
            if self.options.reset_tool_choice {
                *mode = AllowedMode::Auto;
            }
        }
    }
}

/// The error result for a call of a tool outside `allowed`, or `None` when it may run.
pub(super) fn refuse(allowed: Option<&[String]>, call: &ToolCall) -> Option<ToolResponse> {
    let allowed = allowed?;
    if allowed.contains(&call.name) {
        return None;
    }
    Some(ToolResponse::error(
        ToolErrorCode::PermissionDenied,
        format!(
            "The tool '{}' may not be called in this turn; call only {}, or answer without a tool.",
            call.name,
            if allowed.is_empty() {
                "(no tool is allowed)".to_string()
            } else {
                quoted_list(allowed.iter().map(String::as_str))
            }
        ),
    ))
}
