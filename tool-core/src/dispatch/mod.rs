//! The dispatch path: everything between a model's [`ToolCall`] and the one [`ToolResponse`]
//! it gets back, hardened against hostile input and failing tools.
//!
//! Order of checks for one call, each answering without running the tool when it fails:
//! 1. the name is registered (`NOT_FOUND`), and was offered this turn (`PERMISSION_DENIED`);
//! 2. the argument text is within size and nesting limits (`INVALID_PARAM`);
//! 3. a destructive tool's call is approved by the hook, if one is installed
//!    (`PERMISSION_DENIED`);
//! 4. the tool's circuit is not open (`CIRCUIT_OPEN`), if a breaker is configured.
//!
//! Then the tool runs with panics contained (`EXECUTION_ERROR`), async tools under their time
//! limit (`TIMEOUT`, `tokio` feature), retried on transient codes if it has a retry policy; the
//! outcome is reported to the breaker, the output capped if configured, and `stats.time_ms`
//! filled. With nothing configured the added cost is a few predictable branches: no
//! allocation, no lock, no timer.

mod approval;
mod breaker;
mod limits;
mod panic;
mod retry;
mod scope;
#[cfg(feature = "tokio")]
mod timeout;
#[cfg(feature = "tracing")]
mod trace;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub use approval::{Approval, ApprovalHook};
pub use breaker::{BreakerConfig, CircuitState};
pub use limits::Limits;
pub use retry::RetryPolicy;
pub use scope::CallOptions;

pub(crate) use breaker::Breaker;

/// How far [`ToolRegistry::start`] got: finished, an async tool to await, or a boxed future
/// for the configured mechanisms.
enum Started<'a> {
    Done(ToolResponse),
    Running(panic::CatchUnwind<'a, BoxedCall<'a>>),
    Boxed(Pin<Box<dyn Future<Output = ToolResponse> + Send + 'a>>),
}

use crate::call::ToolCall;
use crate::clock::Stopwatch;
use crate::context::CallContext;
use crate::context::ToolContext;
use crate::executor::join_all;
use crate::registry::{Entry, ToolRegistry};
use crate::response::{ToolErrorCode, ToolResponse};
use crate::tool::BoxedCall;

/// Registry-wide dispatch settings. Cheap to check: every optional mechanism is an `Option`.
#[derive(Clone, Default)]
pub(crate) struct Policy {
    pub(crate) limits: Limits,
    pub(crate) default_timeout: Option<Duration>,
    pub(crate) breaker: Option<BreakerConfig>,
    pub(crate) approval: Option<Arc<dyn ApprovalHook>>,
}

impl ToolRegistry {
    /// Runs one call with per-request options: the tools offered this turn, an approval hook.
    /// Like [`ToolRegistry::call`], it never panics and always answers with one response.
    ///
    /// ```
    /// use tool_core::{tool, tools, CallOptions, ToolCall, ToolErrorCode};
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// /// Subtracts.
    /// #[tool]
    /// fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// let registry = tools![add, sub];
    /// let options = CallOptions::new().offer(&["add"]);
    /// let ok = tool_core::block_on(registry.call_with(&ToolCall::new("1", "add", r#"{"a":1,"b":2}"#), &options));
    /// assert_eq!(ok.model_text(), "3");
    /// let no = tool_core::block_on(registry.call_with(&ToolCall::new("2", "sub", r#"{"a":1,"b":2}"#), &options));
    /// assert_eq!(no.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// ```
    pub async fn call_with(&self, call: &ToolCall, options: &CallOptions<'_>) -> ToolResponse {
        self.dispatch(call, options).await
    }

    /// [`ToolRegistry::call_all`] with per-request options; responses in call order.
    ///
    /// ```
    /// # use tool_core::{tool, tools, CallOptions, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let calls = [ToolCall::new("a", "hi", "{}"), ToolCall::new("b", "hi", "{}")];
    /// let out = tool_core::block_on(tools![hi].call_all_with(&calls, &CallOptions::new().offer(&[])));
    /// assert!(out.iter().all(|r| r.is_error()));
    /// ```
    pub async fn call_all_with(
        &self,
        calls: &[ToolCall],
        options: &CallOptions<'_>,
    ) -> Vec<ToolResponse> {
        join_all(calls.iter().map(|c| self.call_with(c, options))).await
    }

    /// Runs a call whose name and arguments arrive as raw bytes (e.g. straight off a socket).
    /// A name that is not UTF-8 is `NOT_FOUND`; arguments that are not UTF-8 are
    /// `INVALID_FORMAT`, naming the offset of the first bad byte.
    ///
    /// ```
    /// # use tool_core::{tool, tools, CallOptions, ToolErrorCode};
    /// /// Echoes.
    /// #[tool]
    /// fn echo(s: String) -> String { s }
    /// let r = tool_core::block_on(tools![echo].call_bytes("1", b"echo", b"{\"s\":\"\xff\"}", &CallOptions::NONE));
    /// assert_eq!(r.error_code(), Some(ToolErrorCode::InvalidFormat));
    /// ```
    pub async fn call_bytes(
        &self,
        id: &str,
        name: &[u8],
        arguments: &[u8],
        options: &CallOptions<'_>,
    ) -> ToolResponse {
        let watch = Stopwatch::start();
        let name = String::from_utf8_lossy(name);
        let arguments = match std::str::from_utf8(arguments) {
            Ok(text) => text,
            Err(e) => {
                let call = ToolCall::new(id, name.as_ref(), "");
                let mut refusal = match self.admit(&call, options) {
                    Err(refusal) => refusal,
                    Ok(_) => ToolResponse::error(
                        ToolErrorCode::InvalidFormat,
                        format!(
                            "The arguments for '{name}' are not valid UTF-8 (bad byte at offset \
                             {}). Send the arguments as JSON text.",
                            e.valid_up_to()
                        ),
                    ),
                };
                refusal.stats.time_ms = Some(watch.elapsed_ms());
                return refusal;
            }
        };
        self.call_with(&ToolCall::new(id, name.as_ref(), arguments), options)
            .await
    }

    /// The whole dispatch of one call. Shaped for the plain path: refusals and synchronous
    /// tools finish in [`ToolRegistry::start`] without an await point, an async tool is awaited
    /// in place, and only configured mechanisms (breaker, retry, enforced time limit) run in a
    /// boxed future, so their state does not bloat every call's future.
    ///
    /// Not an `async fn` itself: that would wrap the inner future in one more state machine
    /// and make every call's future larger.
    pub(crate) fn dispatch<'a>(
        &'a self,
        call: &'a ToolCall,
        options: &'a CallOptions<'a>,
    ) -> impl Future<Output = ToolResponse> + Send + 'a {
        #[cfg(feature = "tracing")]
        {
            trace::in_span(call, self.dispatch_untraced(call, options))
        }
        #[cfg(not(feature = "tracing"))]
        {
            self.dispatch_untraced(call, options)
        }
    }

    async fn dispatch_untraced(&self, call: &ToolCall, options: &CallOptions<'_>) -> ToolResponse {
        let watch = Stopwatch::start();
        let mut response = match self.start(call, options) {
            Started::Done(response) => response,
            Started::Running(future) => future.await,
            Started::Boxed(future) => future.await,
        };
        if let Some(max) = self.policy.limits.max_output_bytes {
            limits::cap_output(&mut response, max);
        }
        response.stats.time_ms = Some(watch.elapsed_ms());
        response
    }

    fn start<'a>(&'a self, call: &'a ToolCall, options: &CallOptions<'a>) -> Started<'a> {
        let entry = match self.admit(call, options) {
            Ok(entry) => entry,
            Err(refusal) => return Started::Done(refusal),
        };
        if entry.breaker.is_some() || entry.retry.is_some() {
            return Started::Boxed(Box::pin(self.run_guarded(
                entry,
                call,
                options.call_context(),
            )));
        }
        self.launch(entry, call, options.call_context())
    }

    /// Steps 1–3 of the module docs: everything decided from the call alone.
    fn admit<'s>(
        &'s self,
        call: &ToolCall,
        options: &CallOptions<'_>,
    ) -> Result<&'s Entry, ToolResponse> {
        let offered = options.offered();
        let index = self.position(&call.name);
        let found = index.and_then(|i| Some((self.entries.get(i)?, self.definitions.get(i)?)));
        let (entry, definition) = match found {
            Some(found) => found,
            None => {
                return Err(match offered {
                    Some(names) => scope::unknown_among_offered(&call.name, names),
                    None => self.unknown_tool(&call.name),
                })
            }
        };
        if let Some(names) = offered {
            if !names.contains(&call.name.as_str()) {
                return Err(scope::not_offered(&call.name, names));
            }
        }
        self.policy
            .limits
            .check_arguments(&call.name, &call.arguments)?;
        if definition.annotations.destructive == Some(true) {
            let hook = options.approval_hook().or(self.policy.approval.as_deref());
            if let Some(hook) = hook {
                approval::review(hook, call, definition)?;
            }
        }
        Ok(entry)
    }

    /// A call through the tool's breaker and retry policy.
    async fn run_guarded(
        &self,
        entry: &Entry,
        call: &ToolCall,
        context: Option<&CallContext>,
    ) -> ToolResponse {
        let permit = match &entry.breaker {
            Some(breaker) => match breaker.acquire(&call.name) {
                Ok(permit) => Some(permit),
                Err(open) => return open,
            },
            None => None,
        };
        let response = match &entry.retry {
            None => self.attempt(entry, call, context).await,
            Some(policy) => retry::run(policy, || self.attempt(entry, call, context)).await,
        };
        if let Some(permit) = permit {
            permit.record(&response);
        }
        response
    }

    async fn attempt(
        &self,
        entry: &Entry,
        call: &ToolCall,
        context: Option<&CallContext>,
    ) -> ToolResponse {
        match self.launch(entry, call, context) {
            Started::Done(response) => response,
            Started::Running(future) => future.await,
            Started::Boxed(future) => future.await,
        }
    }

    /// Starts one run of the tool: panics contained, a synchronous result taken at once, an
    /// async tool under its time limit where one is enforced.
    fn launch<'a>(
        &'a self,
        entry: &'a Entry,
        call: &'a ToolCall,
        context: Option<&'a CallContext>,
    ) -> Started<'a> {
        let ctx = ToolContext::new(&call.id, &call.name).with_sources(context, &self.extensions);
        let future = match panic::catch(&call.name, || entry.tool.call(&call.arguments, ctx)) {
            Ok(future) => future,
            Err(crashed) => return Started::Done(crashed),
        };
        // A synchronous tool (or a decoding error) has its response already.
        let future = match future.into_parts() {
            Ok(response) => return Started::Done(response),
            Err(future) => future,
        };
        let guarded = panic::CatchUnwind::new(future, &call.name);
        #[cfg(feature = "tokio")]
        {
            let limit = entry
                .tool
                .timeout_ms()
                .map(Duration::from_millis)
                .or(self.policy.default_timeout);
            // tokio's timer panics outside a runtime (e.g. under `call_blocking`): check first.
            if let Some(limit) = limit {
                if tokio::runtime::Handle::try_current().is_ok() {
                    return Started::Boxed(Box::pin(timeout::with_limit(
                        guarded, limit, &call.name,
                    )));
                }
            }
        }
        Started::Running(guarded)
    }

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

    /// A time limit for async tools that declare none with `#[tool(timeout_ms = N)]`. Needs
    /// the `tokio` feature and a tokio runtime to be enforced; exceeding it is `TIMEOUT`.
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
            entry.breaker = Some(Breaker::new(config));
        }
        self
    }

    /// The state of a tool's circuit; `None` for an unknown tool or without a breaker.
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert_eq!(tools![hi].circuit_state("hi"), None, "no breaker configured");
    /// ```
    pub fn circuit_state(&self, name: &str) -> Option<CircuitState> {
        let entry = self.position(name).and_then(|i| self.entries.get(i))?;
        entry.breaker.as_ref().map(Breaker::state)
    }

    /// Installs the hook that reviews calls of tools annotated `destructive`;
    /// [`CallOptions::approval`] overrides it for one request.
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

    /// Retries one tool's transient failures under `policy`.
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
    /// let r = tools![fetch].with_retry("fetch", RetryPolicy::new(3));
    /// assert_eq!(r.retry_policy("fetch"), Some(&RetryPolicy::new(3)));
    /// ```
    #[track_caller]
    pub fn with_retry(mut self, tool: &str, policy: RetryPolicy) -> Self {
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
    /// assert_eq!(tools![hi].retry_policy("hi"), None);
    /// ```
    pub fn retry_policy(&self, tool: &str) -> Option<&RetryPolicy> {
        let entry = self.position(tool).and_then(|i| self.entries.get(i))?;
        entry.retry.as_ref()
    }
}
