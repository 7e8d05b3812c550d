//! [`CodeTool`]: the one tool the model sees in code mode.

use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::{CallFuture, Tool, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse};

use crate::declarations;
use crate::engine::Program;
use crate::host::{self, Gate, Setup};
use crate::limits::CodeLimits;

/// The code tool: one tool whose only input, `code`, is JavaScript that calls the
/// registry's tools as `tools.NAME(args)`. Its description holds the TypeScript declarations
/// of those tools. Build it with [`CodeMode`](crate::CodeMode).
///
/// ```
/// use tool_core::{tool, tools, Tool, ToolCall};
/// use tool_core_code::CodeMode;
///
/// /// Adds two integers.
/// #[tool(allowed_callers = "any")]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let code = CodeMode::new(tools![add]).tool();
/// assert_eq!(code.name(), "run_code");
/// assert!(code.description().contains("add(args: { a: number; b: number })"));
/// let registry = tool_core::ToolRegistry::new().with(code);
/// let call = ToolCall::new("1", "run_code", r#"{"code": "return await tools.add({a: 2, b: 3});"}"#);
/// assert_eq!(tool_core::block_on(registry.call(&call)).model_text(), "5");
/// ```
pub struct CodeTool {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) registry: Arc<ToolRegistry>,
    pub(crate) callable: Vec<String>,
    pub(crate) limits: CodeLimits,
    pub(crate) gate: Gate,
}

impl std::fmt::Debug for CodeTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeTool")
            .field("name", &self.name)
            .field("callable", &self.callable)
            .field("limits", &self.limits)
            .finish()
    }
}

impl CodeTool {
    /// The tools a program may call, in the registry's order.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Adds two integers.
    /// #[tool(allowed_callers = "any")]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// /// Deletes everything.
    /// #[tool]
    /// fn wipe() -> &'static str { "gone" }
    /// let code = tool_core_code::CodeMode::new(tools![add, wipe]).tool();
    /// assert_eq!(code.callable(), ["add"]); // `wipe` takes direct calls only
    /// ```
    pub fn callable(&self) -> &[String] {
        &self.callable
    }
}

impl Tool for CodeTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": declarations::CODE_PARAMETER,
                }
            },
            "required": ["code"],
            "additionalProperties": false
        })
    }

    fn timeout_ms(&self) -> Option<u64> {
        // The program's own wall time limit ends it with a better message; a registry-wide
        // default timeout shorter than that would cut it off first.
        Some(
            u64::try_from(self.limits.wall_time.as_millis())
                .unwrap_or(u64::MAX)
                .saturating_add(1000),
        )
    }

    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        let source = match read_source(arguments, &self.limits) {
            Ok(source) => source,
            Err(why) => {
                return CallFuture::ready(ToolResponse::error(ToolErrorCode::InvalidParam, why));
            }
        };
        let setup = Setup {
            registry: &self.registry,
            gate: &self.gate,
            program: Program {
                source,
                callable: self.callable.clone(),
                limits: self.limits,
                cancel: ctx.cancel_flag().cloned(),
            },
            program_id: ctx.call_id().to_string(),
            cancel: ctx.cancel_flag().cloned(),
        };
        CallFuture::new(host::execute(setup))
    }
}

/// The `code` argument, or the message of the `INVALID_PARAM` answer saying what to send.
fn read_source(arguments: &str, limits: &CodeLimits) -> Result<String, String> {
    let invalid = |why: &str| {
        format!("{why}. Send {{\"code\": \"<JavaScript>\"}}: the body of an async function.")
    };
    let value: Value = serde_json::from_str(arguments)
        .map_err(|e| invalid(&format!("The arguments are not JSON ({e})")))?;
    let Some(code) = value.get("code") else {
        return Err(invalid("The argument 'code' is missing"));
    };
    let Some(code) = code.as_str() else {
        return Err(invalid("The argument 'code' must be a string"));
    };
    if code.len() > limits.max_source_bytes {
        return Err(format!(
            "The code is {} bytes, over the limit of {} bytes. Send a shorter program.",
            code.len(),
            limits.max_source_bytes
        ));
    }
    Ok(code.to_string())
}
