//! Approval of destructive tools: the application supplies a hook that sees every call of a
//! tool annotated `destructive` before it runs, and may refuse it with a reason. Tools without
//! the annotation never reach the hook; with no hook installed, destructive tools run as usual.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::{ToolErrorCode, ToolResponse};

/// The hook's verdict on one call.
///
/// ```
/// let verdict = tool_core::Approval::Denied("the user declined".into());
/// assert!(!verdict.is_approved());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Run the call.
    Approved,
    /// Do not run it; the reason is shown to the model.
    Denied(String),
}

impl Approval {
    /// Whether the call may run.
    ///
    /// ```
    /// assert!(tool_core::Approval::Approved.is_approved());
    /// ```
    pub fn is_approved(&self) -> bool {
        matches!(self, Approval::Approved)
    }
}

/// Decides whether a call of a `destructive` tool may run. Any
/// `Fn(&ToolCall, &ToolDefinition) -> Approval` closure is a hook.
///
/// The hook is synchronous so the dispatcher stays executor-agnostic; an application that asks
/// a person should collect the answer before dispatching and let the hook look it up.
///
/// ```
/// use tool_core::{tool, tools, Approval, ToolCall, ToolDefinition, ToolErrorCode};
///
/// /// Deletes a file.
/// #[tool(destructive)]
/// fn delete_file(path: String) -> String { format!("deleted {path}") }
///
/// let registry = tools![delete_file].with_approval_hook(|call: &ToolCall, _: &ToolDefinition| {
///     if call.arguments.contains("/etc") {
///         Approval::Denied("system files are off limits".into())
///     } else {
///         Approval::Approved
///     }
/// });
/// let denied = registry.call_blocking(&ToolCall::new("1", "delete_file", r#"{"path":"/etc/hosts"}"#));
/// assert_eq!(denied.error_code(), Some(ToolErrorCode::PermissionDenied));
/// assert!(denied.error_message().unwrap().contains("system files are off limits"));
/// ```
pub trait ApprovalHook: Send + Sync {
    /// Reviews one call before it runs.
    ///
    /// ```
    /// use tool_core::{Approval, ApprovalHook, ToolCall, ToolDefinition};
    /// struct NoDeletes;
    /// impl ApprovalHook for NoDeletes {
    ///     fn review(&self, call: &ToolCall, _: &ToolDefinition) -> Approval {
    ///         if call.name.starts_with("delete") { Approval::Denied("no deletes today".into()) } else { Approval::Approved }
    ///     }
    /// }
    /// let def = ToolDefinition::new("delete_file", "Deletes a file.", serde_json::json!({"type": "object"}));
    /// let call = ToolCall::new("1", "delete_file", "{}");
    /// assert!(!NoDeletes.review(&call, &def).is_approved());
    /// ```
    fn review(&self, call: &ToolCall, definition: &ToolDefinition) -> Approval;
}

impl<F> ApprovalHook for F
where
    F: Fn(&ToolCall, &ToolDefinition) -> Approval + Send + Sync,
{
    fn review(&self, call: &ToolCall, definition: &ToolDefinition) -> Approval {
        self(call, definition)
    }
}

/// Asks `hook` about a destructive call; `Err` is the `PERMISSION_DENIED` answer. A panicking
/// hook denies: failing closed is the only safe reading of a broken approval step.
pub(crate) fn review(
    hook: &dyn ApprovalHook,
    call: &ToolCall,
    definition: &ToolDefinition,
) -> Result<(), ToolResponse> {
    let verdict = catch_unwind(AssertUnwindSafe(|| hook.review(call, definition)))
        .unwrap_or_else(|_| Approval::Denied("the approval step failed".into()));
    match verdict {
        Approval::Approved => Ok(()),
        Approval::Denied(reason) => Err(ToolResponse::error(
            ToolErrorCode::PermissionDenied,
            format!(
                "The call to '{}' was not approved: {reason}. Do not repeat it unchanged; tell \
                 the user or choose another approach.",
                call.name
            ),
        )),
    }
}
