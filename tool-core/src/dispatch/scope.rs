//! Per-request options, and scoping: a model may only call the tools offered in this request.

use crate::context::CallContext;
use crate::policy::ApprovalHook;
use crate::registry::unknown_name;
use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::quoted_list;

/// Options for one request (one model turn), passed to
/// [`ToolRegistry::call_with`](crate::ToolRegistry::call_with) without rebuilding the registry.
///
/// ```
/// use tool_core::{tool, tools, CallOptions, ToolCall, ToolErrorCode};
///
/// /// Reads a file.
/// #[tool(read_only)]
/// fn read_file(path: String) -> String { path }
/// /// Deletes a file.
/// #[tool(destructive)]
/// fn delete_file(path: String) -> String { path }
///
/// let registry = tools![read_file, delete_file];
/// // This turn the model was only offered `read_file`.
/// let options = CallOptions::new().offer(&["read_file"]);
/// let call = ToolCall::new("1", "delete_file", r#"{"path":"a"}"#);
/// let reply = tool_core::block_on(registry.call_with(&call, &options));
/// assert_eq!(reply.error_code(), Some(ToolErrorCode::PermissionDenied));
/// ```
#[derive(Clone, Copy, Default)]
pub struct CallOptions<'a> {
    offered: Option<&'a [&'a str]>,
    approval: Option<&'a dyn ApprovalHook>,
    context: Option<&'a CallContext>,
    /// The calls come from a model's turn: one that does not say who made it was made by
    /// the model directly.
    from_model: bool,
}

impl std::fmt::Debug for CallOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("offered", &self.offered)
            .field("approval", &self.approval.map(|_| "<hook>"))
            .field("context", &self.context)
            .field("from_model", &self.from_model)
            .finish()
    }
}

impl<'a> CallOptions<'a> {
    /// No restrictions beyond the registry's own configuration.
    pub const NONE: CallOptions<'static> = CallOptions {
        offered: None,
        approval: None,
        context: None,
        from_model: false,
    };

    /// The same as [`CallOptions::NONE`].
    ///
    /// ```
    /// assert!(tool_core::CallOptions::new().offered().is_none());
    /// ```
    pub const fn new() -> Self {
        CallOptions {
            offered: None,
            approval: None,
            context: None,
            from_model: false,
        }
    }

    /// Only these tools were offered to the model this turn; a call of any other registered
    /// tool answers `PERMISSION_DENIED` and does not run.
    ///
    /// ```
    /// let o = tool_core::CallOptions::new().offer(&["search"]);
    /// assert_eq!(o.offered(), Some(&["search"][..]));
    /// ```
    pub const fn offer(mut self, names: &'a [&'a str]) -> Self {
        self.offered = Some(names);
        self
    }

    /// The offered subset, if one was set.
    ///
    /// ```
    /// use tool_core::CallOptions;
    /// assert_eq!(CallOptions::new().offer(&["a", "b"]).offered(), Some(&["a", "b"][..]));
    /// assert_eq!(CallOptions::new().offered(), None);
    /// ```
    pub const fn offered(&self) -> Option<&'a [&'a str]> {
        self.offered
    }

    /// Reviews calls of destructive tools with this hook for this request, instead of the
    /// registry's hook.
    ///
    /// ```
    /// use tool_core::{tool, tools, Approval, CallOptions, ToolCall, ToolDefinition, ToolErrorCode};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { path }
    /// let registry = tools![delete_file];
    /// let deny_all = |_: &ToolCall, _: &ToolDefinition| Approval::Denied("read-only session".into());
    /// let options = CallOptions::new().approval(&deny_all);
    /// let call = ToolCall::new("1", "delete_file", r#"{"path":"a"}"#);
    /// let reply = tool_core::block_on(registry.call_with(&call, &options));
    /// assert_eq!(reply.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// assert!(reply.error_message().unwrap().contains("read-only session"));
    /// ```
    pub fn approval(mut self, hook: &'a dyn ApprovalHook) -> Self {
        self.approval = Some(hook);
        self
    }

    /// Hands tools that take context parameters this call's extensions and cancellation flag
    /// (what [`ToolRegistry::call_in`](crate::ToolRegistry::call_in) does).
    ///
    /// ```
    /// use tool_core::{tool, tools, CallContext, CallOptions, Extension, ToolCall};
    /// /// The caller's account number.
    /// #[tool]
    /// fn whoami(account: Extension<u32>) -> u32 { account.0 }
    /// let registry = tools![whoami];
    /// let ctx = CallContext::new().with_extension(42_u32);
    /// let options = CallOptions::new().context(&ctx);
    /// let reply = tool_core::block_on(registry.call_with(&ToolCall::new("1", "whoami", "{}"), &options));
    /// assert_eq!(reply.model_text(), "42");
    /// ```
    pub const fn context(mut self, context: &'a CallContext) -> Self {
        self.context = Some(context);
        self
    }

    /// The calls come from a model's turn: a call without a caller is checked as the model's
    /// direct call, so a tool only programs may call ([`AllowedCallers::Program`]) does not
    /// run for it on an API whose calls never say who made them. The runner sets it; set it
    /// in a driver of your own that dispatches a [`Run`](crate::runner::Run)'s calls (a
    /// durable run's tool activity does).
    ///
    /// [`AllowedCallers::Program`]: crate::AllowedCallers::Program
    ///
    /// ```
    /// use tool_core::{tool, tools, CallOptions, ToolCall, ToolErrorCode};
    ///
    /// /// Sums numbers, for programs the model writes.
    /// #[tool(allowed_callers = "program")]
    /// fn sum(values: Vec<i64>) -> i64 { values.iter().sum() }
    ///
    /// let registry = tools![sum];
    /// let call = ToolCall::new("1", "sum", r#"{"values":[1,2]}"#);
    /// let from_model = tool_core::block_on(registry.call_with(&call, &CallOptions::new().model_calls()));
    /// assert_eq!(from_model.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// ```
    pub const fn model_calls(mut self) -> Self {
        self.from_model = true;
        self
    }

    pub(crate) const fn are_model_calls(&self) -> bool {
        self.from_model
    }

    pub(crate) fn call_context(&self) -> Option<&'a CallContext> {
        self.context
    }

    pub(crate) fn approval_hook(&self) -> Option<&'a dyn ApprovalHook> {
        self.approval
    }
}

/// `PERMISSION_DENIED` for a registered tool that was not offered this turn.
pub(crate) fn not_offered(name: &str, offered: &[&str]) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::PermissionDenied,
        format!(
            "The tool '{name}' is not available in this turn. {}",
            available(offered)
        ),
    )
}

/// `NOT_FOUND` for a name no tool has, listing only what was offered (the rest of the registry
/// is none of the model's business).
pub(crate) fn unknown_among_offered(name: &str, offered: &[&str]) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::NotFound,
        format!(
            "{} {}",
            unknown_name(name, offered.iter().copied()),
            available(offered)
        ),
    )
}

fn available(offered: &[&str]) -> String {
    if offered.is_empty() {
        "No tools are available in this turn.".to_string()
    } else {
        format!("Available tools: {}.", quoted_list(offered.iter().copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::CallOptions;
    use crate::tool::CallFuture;
    use crate::{
        block_on, AllowedCallers, Caller, Tool, ToolCall, ToolContext, ToolErrorCode, ToolRegistry,
        ToolResponse,
    };

    /// A tool that only programs may call.
    struct ProgramOnly;

    impl Tool for ProgramOnly {
        fn name(&self) -> &str {
            "tally"
        }
        fn description(&self) -> &str {
            "Tallies."
        }
        fn input_schema(&self) -> serde_json::Value {
            serde_json::json!({"type": "object", "properties": {}})
        }
        fn allowed_callers(&self) -> AllowedCallers {
            AllowedCallers::Program
        }
        fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
            CallFuture::ready(ToolResponse::success("ran"))
        }
    }

    #[test]
    fn a_models_call_without_a_caller_is_a_direct_call() {
        let registry = ToolRegistry::new().with(ProgramOnly);
        let unsaid = ToolCall::new("1", "tally", "{}");
        let model = CallOptions::new().model_calls();
        let refused = block_on(registry.call_with(&unsaid, &model));
        assert_eq!(refused.error_code(), Some(ToolErrorCode::PermissionDenied));
        let direct = unsaid.clone().with_caller(Caller::Direct);
        let said = block_on(registry.call_with(&direct, &model));
        assert_eq!(refused.model_text(), said.model_text());
        let program = unsaid.clone().with_caller(Caller::program("code", "p1"));
        assert_eq!(
            block_on(registry.call_with(&program, &model)).model_text(),
            "ran"
        );
        // The application's own call, not the model's, is not checked.
        assert_eq!(
            block_on(registry.call_with(&unsaid, &CallOptions::new())).model_text(),
            "ran"
        );
    }
}
