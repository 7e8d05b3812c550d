//! What a tool can know about its call beyond the model's arguments: the call id, the tool's
//! name, values the application provides (a database pool, the caller's identity), a
//! cancellation flag, and where to report progress. Parameters that take these are filled by the dispatcher and never
//! appear in a schema, a definition or a prompt.

mod peer;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::response::{ToolErrorCode, ToolResponse};

/// Typed values the application hands to tools, one per type.
///
/// ```
/// let mut ext = tool_core::Extensions::new();
/// ext.insert(String::from("alice"));
/// assert_eq!(ext.get::<String>().map(String::as_str), Some("alice"));
/// assert!(ext.get::<u32>().is_none());
/// ```
#[derive(Clone, Default)]
pub struct Extensions {
    map: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl Extensions {
    /// No values.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a value, replacing any earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) -> &mut Self {
        self.map.insert(TypeId::of::<T>(), Arc::new(value));
        self
    }

    /// Adds a value and returns `self`, for chaining.
    ///
    /// ```
    /// let ext = tool_core::Extensions::new().with(7u8);
    /// assert_eq!(ext.get::<u8>(), Some(&7));
    /// ```
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.insert(value);
        self
    }

    /// The value of type `T`, if one was added.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.map
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref())
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Adds `other`'s values of the types this set has none of (a composed registry keeps
    /// its own values and gains the added registry's others).
    pub(crate) fn fill_from(&mut self, other: &Extensions) {
        for (type_id, value) in &other.map {
            self.map.entry(*type_id).or_insert_with(|| value.clone());
        }
    }

    /// The shared empty set, so a call without extensions allocates nothing.
    pub(crate) fn empty() -> &'static Extensions {
        static EMPTY: OnceLock<Extensions> = OnceLock::new();
        EMPTY.get_or_init(Extensions::default)
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extensions")
            .field("len", &self.map.len())
            .finish()
    }
}

/// A flag the application raises to ask running tools to stop early. Cheap to clone.
///
/// ```
/// let flag = tool_core::CancelFlag::new();
/// let seen_by_tool = flag.clone();
/// flag.cancel();
/// assert!(seen_by_tool.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag that is not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the flag.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether the flag is raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// One progress update from a running tool: how far it is, out of how much if known, and
/// what it is doing. An MCP server sends it as `notifications/progress`.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Work done so far; increases with every update.
    pub progress: f64,
    /// Total work, if known.
    pub total: Option<f64>,
    /// What the tool is doing now, for a person.
    pub message: Option<String>,
}

/// Where a tool's progress updates go. The application (or the MCP server) gives one per call
/// with [`CallContext::with_progress`]; a tool reports through it with
/// [`ToolContext::report_progress`] or by taking a `ProgressReporter` parameter. Without one,
/// reports go nowhere. Cheap to clone.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use tool_core::{tool, tools, CallContext, ProgressReporter, ToolCall};
///
/// /// Counts to three.
/// #[tool]
/// fn count(progress: ProgressReporter) -> &'static str {
///     for i in 1..=3 {
///         progress.report(i as f64, Some(3.0), None);
///     }
///     "done"
/// }
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let sink = seen.clone();
/// let ctx = CallContext::new()
///     .with_progress(ProgressReporter::new(move |p| sink.lock().unwrap().push(p.progress)));
/// tool_core::block_on(tools![count].call_in(&ToolCall::new("1", "count", "{}"), &ctx));
/// assert_eq!(*seen.lock().unwrap(), [1.0, 2.0, 3.0]);
/// ```
#[derive(Clone, Default)]
pub struct ProgressReporter(Option<Arc<dyn Fn(Progress) + Send + Sync>>);

impl ProgressReporter {
    /// A reporter handing every update to `sink`. `sink` should return quickly (queue the
    /// update, don't send it inline): it runs on the tool's task.
    pub fn new(sink: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        ProgressReporter(Some(Arc::new(sink)))
    }

    /// A reporter that drops every update.
    pub fn none() -> Self {
        ProgressReporter(None)
    }

    /// Whether updates go anywhere (a tool can skip computing them when they don't).
    pub(crate) fn is_active(&self) -> bool {
        self.0.is_some()
    }

    /// Reports progress: `progress` of `total` (if known), with an optional message.
    pub fn report(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(sink) = &self.0 {
            sink(Progress {
                progress,
                total,
                message: message.map(str::to_owned),
            });
        }
    }
}

impl fmt::Debug for ProgressReporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressReporter")
            .field("active", &self.is_active())
            .finish()
    }
}

/// Per-call information the dispatcher hands a tool.
///
/// Extensions are looked up first among the call's own ([`ToolRegistry::call_in`]), then
/// among the registry's ([`ToolRegistry::with_extension`]).
///
/// [`ToolRegistry::call_in`]: crate::ToolRegistry::call_in
/// [`ToolRegistry::with_extension`]: crate::ToolRegistry::with_extension
///
/// ```
/// let ctx = tool_core::ToolContext::new("call_7", "search");
/// assert_eq!(ctx.call_id(), "call_7");
/// assert_eq!(ctx.tool_name(), "search");
/// assert!(!ctx.is_cancelled());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolContext<'a> {
    call_id: &'a str,
    tool_name: &'a str,
    call_extensions: &'a Extensions,
    registry_extensions: &'a Extensions,
    cancel: Option<&'a CancelFlag>,
    progress: Option<&'a ProgressReporter>,
    idempotency_key: Option<&'a str>,
}

impl<'a> ToolContext<'a> {
    /// A context with no extensions and no cancellation flag.
    pub fn new(call_id: &'a str, tool_name: &'a str) -> Self {
        ToolContext {
            call_id,
            tool_name,
            call_extensions: Extensions::empty(),
            registry_extensions: Extensions::empty(),
            cancel: None,
            progress: None,
            idempotency_key: None,
        }
    }

    /// The context of one dispatched call: the registry's extensions, and the call's own
    /// when the application gave any. (Not `new` + setters: each `Extensions::empty()` is a
    /// once-cell check on every call.)
    #[inline]
    pub(crate) fn for_call(
        call_id: &'a str,
        tool_name: &'a str,
        call: Option<&'a CallContext>,
        registry_extensions: &'a Extensions,
    ) -> Self {
        match call {
            Some(call) => ToolContext {
                call_id,
                tool_name,
                call_extensions: &call.extensions,
                registry_extensions,
                cancel: call.cancel.as_ref(),
                progress: call.progress.as_ref(),
                idempotency_key: call.idempotency_key.as_deref(),
            },
            None => ToolContext {
                call_id,
                tool_name,
                call_extensions: Extensions::empty(),
                registry_extensions,
                cancel: None,
                progress: None,
                idempotency_key: None,
            },
        }
    }

    /// The id of the call being served.
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// The name of the tool being called.
    pub fn tool_name(&self) -> &'a str {
        self.tool_name
    }

    /// The application's value of type `T`: the call's own first, then the registry's.
    ///
    /// ```
    /// let call = tool_core::CallContext::new().with_extension(3u8);
    /// let registry = tool_core::ToolRegistry::new().with_extension(String::from("shared"));
    /// # let _ = (call, registry);
    /// ```
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&'a T> {
        self.call_extensions
            .get::<T>()
            .or_else(|| self.registry_extensions.get::<T>())
    }

    /// Whether the application asked this call to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(CancelFlag::is_cancelled)
    }

    /// The call's cancellation flag, if the application gave one.
    pub fn cancel_flag(&self) -> Option<&'a CancelFlag> {
        self.cancel
    }

    /// Reports progress to whoever asked for it (see [`ProgressReporter`]); does nothing when
    /// nobody did.
    ///
    /// ```
    /// let ctx = tool_core::ToolContext::new("c1", "index");
    /// ctx.report_progress(1.0, Some(10.0), Some("reading files")); // nobody listens: a no-op
    /// ```
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(reporter) = self.progress {
            reporter.report(progress, total, message);
        }
    }

    /// The call's progress reporter, if the application gave one.
    pub fn progress_reporter(&self) -> Option<&'a ProgressReporter> {
        self.progress
    }

    /// A key naming this one call of this one run, the same every time the call is attempted
    /// again (a retry after a crash, a replay of a durable run) and different for every other
    /// call; `None` unless the driver gave one with [`CallContext::with_idempotency_key`]
    /// (a durable run does; a local [`Runner`](crate::runner::Runner) run does not).
    ///
    /// A tool whose effect happens outside (a payment, an e-mail) records the key with its
    /// effect, or hands it to a service that deduplicates on it, and does nothing the second
    /// time it sees the key: it is then exactly-once even though the call itself may be
    /// attempted more than once.
    ///
    /// ```
    /// use tool_core::{tool, tools, CallContext, ToolCall, ToolContext};
    ///
    /// /// Sends a payment.
    /// #[tool]
    /// fn pay(amount: u32, ctx: ToolContext<'_>) -> String {
    ///     // A real tool sends the key along, e.g. as an `Idempotency-Key` header.
    ///     format!("paid {amount} once under {}", ctx.idempotency_key().unwrap_or("no key"))
    /// }
    ///
    /// let registry = tools![pay];
    /// let call = ToolCall::new("call_1", "pay", r#"{"amount":5}"#);
    /// let ctx = CallContext::new().with_idempotency_key("run-7/1/call_1");
    /// let reply = tool_core::block_on(registry.call_in(&call, &ctx));
    /// assert_eq!(reply.model_text(), "paid 5 once under run-7/1/call_1");
    /// assert_eq!(ToolContext::new("call_1", "pay").idempotency_key(), None);
    /// ```
    pub fn idempotency_key(&self) -> Option<&'a str> {
        self.idempotency_key
    }
}

/// What the application supplies for one call: extensions (the caller's identity, a
/// per-request client) and a cancellation flag. Pass it to [`ToolRegistry::call_in`].
///
/// [`ToolRegistry::call_in`]: crate::ToolRegistry::call_in
///
/// ```
/// let flag = tool_core::CancelFlag::new();
/// let ctx = tool_core::CallContext::new().with_extension("user-42".to_string()).with_cancel(flag.clone());
/// assert_eq!(ctx.extensions().get::<String>().unwrap(), "user-42");
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    extensions: Extensions,
    cancel: Option<CancelFlag>,
    progress: Option<ProgressReporter>,
    idempotency_key: Option<String>,
}

impl CallContext {
    /// Nothing supplied.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a typed value for the tools of this call.
    pub fn with_extension<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    /// Gives the call a cancellation flag.
    pub fn with_cancel(mut self, flag: CancelFlag) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Gives the call somewhere to report progress (see [`ProgressReporter`]).
    pub fn with_progress(mut self, reporter: ProgressReporter) -> Self {
        self.progress = Some(reporter);
        self
    }

    /// Gives the call its idempotency key (see [`ToolContext::idempotency_key`]): a driver
    /// that may attempt a call more than once (a durable run) gives every attempt of the same
    /// call the same key.
    ///
    /// ```
    /// let ctx = tool_core::CallContext::new().with_idempotency_key("run-7/1/call_1");
    /// # let _ = ctx;
    /// ```
    pub fn with_idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    /// The call's extensions.
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }
}

/// A parameter the dispatcher fills from the [`ToolContext`] instead of the model's arguments.
///
/// `ToolContext`, [`CallId`], [`Extension<T>`], [`CancelFlag`] and `Option` of any of them are
/// recognised by `#[tool]` automatically; mark a parameter of your own extractor type
/// `#[context]`.
///
/// ```
/// use tool_core::{tool, tools, CallContext, CallId, Extension, ToolCall};
///
/// #[derive(Clone)]
/// struct User(String);
///
/// /// Greets the signed-in user.
/// #[tool]
/// fn greet(greeting: String, user: Extension<User>, call: CallId) -> String {
///     format!("{greeting}, {} ({})", user.0 .0, call.0)
/// }
///
/// let registry = tools![greet];
/// assert!(registry.definitions()[0].input_schema["properties"].get("user").is_none());
/// let ctx = CallContext::new().with_extension(User("Ada".into()));
/// let reply = tool_core::block_on(registry.call_in(&ToolCall::new("c9", "greet", r#"{"greeting":"Hi"}"#), &ctx));
/// assert_eq!(reply.model_text(), "Hi, Ada (c9)");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be supplied by the dispatcher: it does not implement `FromToolContext`",
    label = "the dispatcher does not know how to fill this parameter",
    note = "context parameters can be `ToolContext<'_>`, `CallId`, `Extension<T>`, `CancelFlag`, an `Option` of those, or a type implementing `FromToolContext`; parameters the model sends need no `#[context]`"
)]
pub trait FromToolContext<'a>: Sized {
    /// Extracts the value, or explains (as a response) why it is not available.
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse>;
}

impl<'a> FromToolContext<'a> for ToolContext<'a> {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        Ok(*ctx)
    }
}

/// The id of the call being served, as an injected parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallId(pub String);

impl<'a> FromToolContext<'a> for CallId {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        Ok(CallId(ctx.call_id().to_string()))
    }
}

/// A value of type `T` the application supplied, cloned out of the context. Put an `Arc` in
/// it for shared state.
#[derive(Debug, Clone)]
pub struct Extension<T>(pub T);

impl<'a, T: Clone + Send + Sync + 'static> FromToolContext<'a> for Extension<T> {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        ctx.extension::<T>().cloned().map(Extension).ok_or_else(|| {
            ToolResponse::error(
                ToolErrorCode::ExecutionError,
                format!(
                    "tool '{}' is not available right now: the application did not provide its `{}` (a server-side configuration problem, not a problem with the arguments)",
                    ctx.tool_name(),
                    std::any::type_name::<T>()
                ),
            )
        })
    }
}

impl<'a> FromToolContext<'a> for CancelFlag {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        // Without an application flag the tool gets one that is never raised.
        Ok(ctx.cancel_flag().cloned().unwrap_or_default())
    }
}

impl<'a> FromToolContext<'a> for ProgressReporter {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        // Without an application reporter the tool gets one that drops every update.
        Ok(ctx.progress_reporter().cloned().unwrap_or_default())
    }
}

impl<'a, T: FromToolContext<'a>> FromToolContext<'a> for Option<T> {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        Ok(T::from_context(ctx).ok())
    }
}
