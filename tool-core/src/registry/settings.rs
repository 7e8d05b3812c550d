//! The registry's dispatch settings: limits, time limits, breakers, retries, approval. They
//! configure state the registry holds; the dispatch path reads it.

use std::sync::Arc;
use std::time::Duration;

use super::{ToolKey, ToolRegistry};
use crate::policy::{ApprovalHook, Breaker, BreakerConfig, CircuitState, Limits, RetryPolicy};

impl ToolRegistry {
    /// Sets the size and depth limits on arguments and the optional output cap.
    ///
    /// ```
    /// use tool_core::{tool, tools, Limits, ToolCall, ToolErrorCode};
    /// /// Echoes.
    /// #[tool]
    /// fn echo(s: String) -> String { s }
    /// let registry = tools![echo].with_limits(Limits { max_argument_bytes: 16, ..Limits::default() });
    /// let r = registry.call_blocking(&ToolCall::new("1", "echo", r#"{"s":"far too long for the limit"}"#));
    /// assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidParam));
    /// ```
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.policy.limits = limits;
        self
    }

    /// The limits in force.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolRegistry::new().limits().max_depth, 64);
    /// ```
    pub fn limits(&self) -> &Limits {
        &self.policy.limits
    }

    /// A time limit for async tools that declare none with `#[tool(timeout_ms = N)]`; exceeding
    /// it is `TIMEOUT`. Enforced under any executor (on tokio's timer inside a tokio runtime).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let r = tool_core::ToolRegistry::new().with_default_timeout(Duration::from_secs(30));
    /// assert_eq!(r.default_timeout(), Some(Duration::from_secs(30)));
    /// ```
    pub fn with_default_timeout(mut self, limit: Duration) -> Self {
        self.policy.default_timeout = Some(limit);
        self
    }

    /// The registry-wide time limit for async tools, if set.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolRegistry::new().default_timeout(), None);
    /// ```
    pub fn default_timeout(&self) -> Option<Duration> {
        self.policy.default_timeout
    }

    /// Gives every tool (including ones registered later) its own circuit breaker.
    ///
    /// ```
    /// use tool_core::{tool, tools, BreakerConfig, CircuitState};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let r = tools![hi].with_circuit_breaker(BreakerConfig::default());
    /// assert_eq!(r.circuit_state("hi"), Some(CircuitState::Closed));
    /// ```
    pub fn with_circuit_breaker(mut self, config: BreakerConfig) -> Self {
        self.policy.breaker = Some(config);
        for entry in &mut self.entries {
            entry.breaker = Some(Arc::new(Breaker::new(config)));
        }
        self
    }

    /// The state of a tool's circuit; `None` for an unknown tool or without a breaker. The
    /// tool is its type or its name (see [`ToolKey`]).
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert_eq!(tools![hi].circuit_state(hi {}), None, "no breaker configured");
    /// ```
    pub fn circuit_state(&self, tool: impl ToolKey) -> Option<CircuitState> {
        let entry = self
            .position(tool.tool_name())
            .and_then(|i| self.entries.get(i))?;
        entry.breaker.as_ref().map(|b| b.state())
    }

    /// Installs the hook that reviews calls of tools annotated `destructive`;
    /// [`CallOptions::approval`](crate::CallOptions::approval) overrides it for one request.
    ///
    /// ```
    /// use tool_core::{tool, tools, Approval, ToolCall, ToolDefinition};
    /// /// Drops a table.
    /// #[tool(destructive)]
    /// fn drop_table(name: String) -> String { name }
    /// let r = tools![drop_table].with_approval_hook(|_: &ToolCall, _: &ToolDefinition| Approval::Approved);
    /// assert!(r.call_blocking(&ToolCall::new("1", "drop_table", r#"{"name":"t"}"#)).is_success());
    /// ```
    pub fn with_approval_hook(mut self, hook: impl ApprovalHook + 'static) -> Self {
        self.policy.approval = Some(Arc::new(hook));
        self
    }

    /// Retries one tool's transient failures under `policy`. The tool is its type (checked
    /// by the compiler) or its name (see [`ToolKey`]).
    ///
    /// # Panics
    ///
    /// If no tool has this name: a programming error caught when the registry is built.
    ///
    /// ```
    /// use tool_core::{tool, tools, RetryPolicy};
    /// /// Fetches a page.
    /// #[tool(idempotent)]
    /// async fn fetch(url: String) -> String { url }
    /// let r = tools![fetch].with_retry(fetch {}, RetryPolicy::new(3));
    /// assert_eq!(r.retry_policy(fetch {}), Some(&RetryPolicy::new(3)));
    /// ```
    #[track_caller]
    pub fn with_retry(mut self, tool: impl ToolKey, policy: RetryPolicy) -> Self {
        let tool = tool.tool_name();
        let index = self.position(tool);
        match index.and_then(|i| self.entries.get_mut(i)) {
            Some(entry) => entry.retry = Some(policy),
            None => panic!("with_retry: no tool named '{tool}' is registered"),
        }
        self
    }

    /// A tool's retry policy, if it has one.
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert_eq!(tools![hi].retry_policy(hi {}), None);
    /// ```
    pub fn retry_policy(&self, tool: impl ToolKey) -> Option<&RetryPolicy> {
        let entry = self
            .position(tool.tool_name())
            .and_then(|i| self.entries.get(i))?;
        entry.retry.as_ref()
    }

    /// Requires the caller to hold every one of `scopes` to see and call `tool` (its type or
    /// its name, see [`ToolKey`]). An MCP
    /// server lists the tool only to a caller whose [`Principal`](crate::Principal) grants
    /// them and refuses a call from anyone else before the tool runs (a caller without a
    /// principal, e.g. on stdio, never sees the tool). Direct calls through
    /// [`ToolRegistry::call`] are the application's own and are not checked.
    ///
    /// # Panics
    ///
    /// If no tool has this name: a programming error caught when the registry is built.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete(path: String) -> String { path }
    /// let r = tools![delete].with_required_scopes(delete {}, ["files:write"]);
    /// assert_eq!(r.required_scopes(delete {}), ["files:write"]);
    /// ```
    #[track_caller]
    pub fn with_required_scopes(
        mut self,
        tool: impl ToolKey,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        let tool = tool.tool_name();
        let index = self.position(tool);
        match index.and_then(|i| self.entries.get_mut(i)) {
            Some(entry) => entry.scopes.extend(scopes.into_iter().map(Into::into)),
            None => panic!("with_required_scopes: no tool named '{tool}' is registered"),
        }
        self
    }

    /// The scopes a caller needs for `tool` (empty for an unknown tool or one without).
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert!(tools![hi].required_scopes(hi {}).is_empty());
    /// ```
    pub fn required_scopes(&self, tool: impl ToolKey) -> &[String] {
        self.position(tool.tool_name())
            .and_then(|i| self.entries.get(i))
            .map_or(&[], |entry| entry.scopes.as_slice())
    }
}
