//! Anthropic's code execution tool as the runner of programs that call tools (programmatic
//! tool calling), and the container its programs run in.
//!
//! Shapes from anthropic-sdk-python 2.10 (`CodeExecutionTool20260120Param`,
//! `CodeExecutionTool20250825Param`, `ToolParam.allowed_callers`, `ServerToolCaller20260120`,
//! `Message.container`, `MessageCreateParams.container`) and Anthropic's "Programmatic tool
//! calling" page: the tool is `{"type": "code_execution_20260120", "name": "code_execution"}`;
//! a tool its programs may call names that type in `allowed_callers`; a response that ran code
//! carries `container: {"id", "expires_at"}`, and a later request names the container with
//! `container: "<id>"` (the API refuses to take results for a program's pending calls
//! without it).

use serde_json::{json, Value};

use crate::call::AllowedCallers;
use crate::definition::ToolDefinition;

/// Which version of Anthropic's code execution tool runs the programs Claude writes to call
/// your tools (programmatic tool calling). It is offered, as
/// `{"type": "<version>", "name": "code_execution"}`, whenever a tool allows calls from
/// programs ([`AllowedCallers::Program`] or [`AllowedCallers::Any`]), and those tools name
/// the same version in their `allowed_callers`. Calls made by a program of any version are
/// read the same way (a [`Caller::Program`](crate::Caller::Program) with the version as its
/// kind).
///
/// ```
/// use tool_core::provider::anthropic::CodeExecution;
/// assert_eq!(CodeExecution::default(), CodeExecution::V20260120);
/// assert_eq!(CodeExecution::V20260120.definition(),
///            serde_json::json!({"type": "code_execution_20260120", "name": "code_execution"}));
/// assert_eq!(CodeExecution::V20250825.tool_type(), "code_execution_20250825");
/// ```
// Non-exhaustive: Anthropic versions its server tools by date and adds versions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CodeExecution {
    /// `code_execution_20250825`: the first version that calls tools from its programs.
    V20250825,
    /// `code_execution_20260120`: the current one; the interpreter's state persists across
    /// requests that reuse the container.
    #[default]
    V20260120,
}

impl CodeExecution {
    /// The name Claude calls it by, which its `server_tool_use` blocks carry.
    ///
    /// ```
    /// use tool_core::provider::anthropic::CodeExecution;
    /// assert_eq!(CodeExecution::V20260120.definition()["name"], CodeExecution::NAME);
    /// ```
    pub const NAME: &'static str = "code_execution";

    /// The tool's `type`, with its version date; also the caller type `allowed_callers`
    /// names and a program's calls carry.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::anthropic::CodeExecution::V20260120.tool_type(), "code_execution_20260120");
    /// ```
    pub const fn tool_type(self) -> &'static str {
        match self {
            CodeExecution::V20250825 => "code_execution_20250825",
            CodeExecution::V20260120 => "code_execution_20260120",
        }
    }

    /// The entry of the `tools` array: `{"type", "name"}`.
    ///
    /// ```
    /// let t = tool_core::provider::anthropic::CodeExecution::V20250825.definition();
    /// assert_eq!((t["type"].as_str(), t["name"].as_str()), (Some("code_execution_20250825"), Some("code_execution")));
    /// ```
    pub fn definition(self) -> Value {
        json!({"type": self.tool_type(), "name": Self::NAME})
    }
}

/// Whether any of `defs` may be called from a program, so the code execution tool that runs
/// programs goes into the same `tools` array.
pub(crate) fn programs_wanted(defs: &[ToolDefinition]) -> bool {
    defs.iter()
        .any(|def| def.allowed_callers() != AllowedCallers::Direct)
}

/// The `container` object of a response (`{"id", "expires_at"}`): at the top of a whole
/// response, in a stream's `message_start` message or in its `message_delta`'s `delta`.
/// `None` when there is none or it has no string id.
#[cfg(feature = "http")]
pub(crate) fn container_of(holder: &Value) -> Option<&Value> {
    holder.get("container").filter(|c| {
        c.get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| !id.is_empty())
    })
}

/// The id of a `container` object.
#[cfg(feature = "http")]
pub(crate) fn container_id(container: &Value) -> Option<&str> {
    container.get("id").and_then(Value::as_str)
}
