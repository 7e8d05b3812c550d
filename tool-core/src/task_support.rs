//! [`TaskSupport`]: whether an MCP client may run a tool as a task (a call that answers at
//! once with a handle the client polls), which long tools declare with `#[tool(task)]`.

use serde::{Deserialize, Serialize};

/// Whether a tool may run as an MCP task: the call answers at once with a task handle, and
/// the client polls the task's status, reads its result later or cancels it. Only the MCP
/// server reads it; other providers call the tool as usual.
///
/// `#[tool(task)]` (or `task = "optional"`) makes a tool [`TaskSupport::Optional`],
/// `task = "required"` [`TaskSupport::Required`]; a `Tool` impl overrides
/// [`Tool::task_support`](crate::Tool::task_support), a [`ToolFn`](crate::ToolFn) takes it
/// from its definition ([`ToolDefinition::with_task_support`](crate::ToolDefinition::with_task_support)).
///
/// ```
/// use tool_core::{tool, tools, TaskSupport};
///
/// /// Counts slowly.
/// #[tool(task)]
/// fn count(n: u32) -> String { format!("counted to {n}") }
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![count, add];
/// assert_eq!(registry.definition("count").unwrap().task_support(), TaskSupport::Optional);
/// assert_eq!(registry.definition("add").unwrap().task_support(), TaskSupport::Forbidden);
/// assert_eq!(TaskSupport::Optional.as_str(), "optional");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never a task: the call answers with its result (the default).
    #[default]
    Forbidden,
    /// A task when the client supports tasks, else an ordinary call.
    Optional,
    /// Only as a task: a client that does not support tasks is refused (MCP error `-32021`
    /// on 2026-07-28 sessions, `-32601` on older ones, as the protocol asks).
    Required,
}

impl TaskSupport {
    /// The protocol's name for it: `"forbidden"`, `"optional"` or `"required"`.
    ///
    /// ```
    /// assert_eq!(tool_core::TaskSupport::Required.as_str(), "required");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// Whether a call of the tool may become a task.
    ///
    /// ```
    /// assert!(!tool_core::TaskSupport::Forbidden.allows_task());
    /// ```
    pub fn allows_task(self) -> bool {
        !matches!(self, TaskSupport::Forbidden)
    }
}
