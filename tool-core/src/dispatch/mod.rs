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
//! For a tool sent to OpenAI strict whose schema has optional properties that do not accept
//! `null`, a `null` the model sends for one of them is taken out of the arguments first, so
//! the tool sees the property absent (only arguments with `null` in them are parsed for it).
//!
//! Then the tool runs with panics contained (`EXECUTION_ERROR`), async tools under their time
//! limit (`TIMEOUT`), retried on transient codes if it has a retry policy; the
//! outcome is reported to the breaker, the output capped if configured, and `stats.time_ms`
//! filled. With nothing configured the added cost is a few predictable branches: no
//! allocation, no lock, no timer.
//!
//! This module is the path only: the registry's state (tools, definitions, settings) lives in
//! `registry`, the mechanisms' settings in `policy`, and imports go one way,
//! `dispatch` -> `registry` -> `policy`.

mod future;
mod guarded;
mod panic;
mod scope;
mod timeout;
#[cfg(feature = "tracing")]
mod trace;

use std::future::Future;
use std::mem::MaybeUninit;
use std::time::Duration;

pub use scope::CallOptions;

use crate::call::{AllowedCallers, Caller, ToolCall, ToolCallRef};
use crate::clock::Stopwatch;
use crate::context::{CallContext, ToolContext};
use crate::executor::{block_on, join_all};
use crate::policy;
use crate::registry::{Entry, ToolRegistry};
use crate::response::{ToolErrorCode, ToolResponse};
use crate::tool::{BoxedCall, CallFuture};
use future::{Dispatch, Pending, State};
use std::task::{Context, Poll};

impl ToolRegistry {
    /// Runs one call. Never panics on bad input and never fails: an unknown tool is
    /// `NOT_FOUND`, bad arguments are `INVALID_FORMAT`/`INVALID_PARAM`, a panicking tool is
    /// `EXECUTION_ERROR`, and the tool's own errors come back as it returned them.
    /// `stats.time_ms` is filled. For per-request options use [`ToolRegistry::call_with`].
    ///
    /// Takes a `&ToolCall` or a [`ToolCallRef`] (borrowed strings: nothing is copied to make
    /// the call). Take the model's text out of the answer with
    /// [`ToolResponse::into_model_text`], which moves rather than copies it when it can.
    ///
    /// ```
    /// # use tool_core::{tool, tools, ToolCall, ToolCallRef, ToolErrorCode};
    /// /// Always panics.
    /// #[tool]
    /// fn broken() -> String { panic!("index out of range") }
    /// let registry = tools![broken];
    /// let r = tool_core::block_on(registry.call(&ToolCall::new("1", "broken", "{}")));
    /// assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    /// assert!(r.error_message().unwrap().contains("index out of range"));
    /// let r = tool_core::block_on(registry.call(ToolCallRef::new("2", "broken", "{}")));
    /// assert_eq!(r.error_code(), Some(ToolErrorCode::ExecutionError));
    /// ```
    pub fn call<'a>(
        &'a self,
        call: impl Into<ToolCallRef<'a>>,
    ) -> impl Future<Output = ToolResponse> + Send + 'a {
        self.dispatch(call.into(), &CallOptions::NONE)
    }

    /// [`ToolRegistry::call`] with what the application supplies for this call: extensions
    /// (the caller's identity …) and a cancellation flag, for tools that take context
    /// parameters. [`CallOptions::context`] carries the same together with other options.
    pub async fn call_in<'a>(
        &'a self,
        call: impl Into<ToolCallRef<'a>>,
        context: &'a CallContext,
    ) -> ToolResponse {
        let options = CallOptions::new().context(context);
        self.dispatch(call.into(), &options).await
    }

    /// Runs calls concurrently (interleaved on the calling task, executor-agnostic) and returns
    /// one response per call, in call order.
    ///
    /// ```
    /// # use tool_core::{tool, tools, ToolCall};
    /// /// Doubles a number.
    /// #[tool]
    /// async fn double(x: i32) -> i32 { x * 2 }
    /// let calls = [ToolCall::new("a", "double", r#"{"x":1}"#), ToolCall::new("b", "double", r#"{"x":2}"#)];
    /// let out = tool_core::block_on(tools![double].call_all(&calls));
    /// assert_eq!(out.iter().map(|r| r.model_text().into_owned()).collect::<Vec<_>>(), ["2", "4"]);
    /// ```
    pub async fn call_all(&self, calls: &[ToolCall]) -> Vec<ToolResponse> {
        join_all(calls.iter().map(|c| self.call(c))).await
    }

    /// [`ToolRegistry::call`] for synchronous code: runs the call to completion on this thread.
    /// Async tools that need a specific runtime (e.g. tokio timers) should be called with
    /// `call` from inside that runtime instead.
    ///
    /// ```
    /// # use tool_core::{tool, tools, ToolCallRef};
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let reply = tools![add].call_blocking(ToolCallRef::new("1", "add", r#"{"a":2,"b":3}"#));
    /// assert_eq!(reply.into_model_text(), "5");
    /// ```
    pub fn call_blocking<'a>(&'a self, call: impl Into<ToolCallRef<'a>>) -> ToolResponse {
        block_on(self.call(call))
    }

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
    pub fn call_with<'a>(
        &'a self,
        call: impl Into<ToolCallRef<'a>>,
        options: &'a CallOptions<'a>,
    ) -> impl Future<Output = ToolResponse> + Send + 'a {
        self.dispatch(call.into(), options)
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
                let call = ToolCallRef::new(id, &name, "");
                let mut refusal = match self.admit(call, options) {
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
        self.dispatch(ToolCallRef::new(id, &name, arguments), options)
            .await
    }

    /// The whole dispatch of one call, as a hand-written future ([`Dispatch`]). Shaped for the
    /// plain path: refusals and synchronous tools are answered by `begin` at the first poll,
    /// an async tool's own future is awaited in place, and only configured mechanisms
    /// (breaker, retry, enforced time limit) run in a boxed future, so their state does not
    /// bloat every call's future.
    pub(crate) fn dispatch<'a>(
        &'a self,
        call: ToolCallRef<'a>,
        options: &'a CallOptions<'a>,
    ) -> impl Future<Output = ToolResponse> + Send + 'a {
        #[cfg(feature = "tracing")]
        {
            trace::in_span(call, Dispatch::new(self, call, options))
        }
        #[cfg(not(feature = "tracing"))]
        {
            Dispatch::new(self, call, options)
        }
    }

    /// The last steps for every call: the output cap, if configured, the attachments' size
    /// limits, and `time_ms`. In place: a response is 144 bytes, and every move of it shows on
    /// the plain path. Inlined: as a call of its own, its prologue and epilogue cost about as
    /// much as its work.
    #[inline(always)]
    fn finish(&self, response: &mut ToolResponse, watch: &Stopwatch) {
        if let Some(max) = self.policy.limits.max_output_bytes {
            policy::cap_output(response, max);
        }
        if !response.attachments.is_empty() {
            self.policy.limits.check_attachments(response);
        }
        response.stats.time_ms = Some(watch.elapsed_ms());
    }

    /// The first poll of a call: the checks, then the tool started. A refusal or a
    /// synchronous tool's response comes back at once, finished, from the call that made it;
    /// an async tool or a configured mechanism is left in `state` to await, and polled once
    /// here.
    pub(super) fn begin<'a>(
        &'a self,
        call: ToolCallRef<'a>,
        options: &'a CallOptions<'a>,
        state: &mut State<'a>,
        cx: &mut Context<'_>,
    ) -> Poll<ToolResponse> {
        let watch = Stopwatch::start();
        let entry = match self.admit(call, options) {
            Ok(entry) => entry,
            Err(mut refusal) => {
                self.finish(&mut refusal, &watch);
                return Poll::Ready(refusal);
            }
        };
        // A tool sent strict with optional properties: the model's `null` for one of them
        // means "left out", so it is taken out before the tool runs. The arguments are then a
        // new string, owned by the boxed future that runs the tool on them.
        if let Some(nulls) = &entry.nulls {
            if let Some(arguments) = nulls.strip(call.arguments) {
                let stripped: BoxedCall<'a> =
                    Box::pin(self.run_stripped(entry, call, arguments, options.call_context()));
                *state = State::Waiting {
                    pending: Pending::new(stripped, call.name),
                    watch,
                };
                return self.poll_waiting(state, cx);
            }
        }
        if entry.breaker.is_some() || entry.retry.is_some() {
            let guarded: BoxedCall<'a> =
                Box::pin(self.run_guarded(entry, call, options.call_context()));
            *state = State::Waiting {
                pending: Pending::new(guarded, call.name),
                watch,
            };
            return self.poll_waiting(state, cx);
        }
        let mut slot = MaybeUninit::uninit();
        self.launch_into(entry, call, options.call_context(), &mut slot);
        // SAFETY: `launch_into` initializes the slot on every path.
        if let Some(response) = unsafe { slot.assume_init_mut() }.ready_mut() {
            self.finish(response, &watch);
            // Read out of the slot once, where it lies: the one copy of a synchronous
            // tool's response between `Tool::call` and the caller. SAFETY: the slot has no
            // drop code and is not used again, and a ready `CallFuture` owns nothing else.
            return Poll::Ready(unsafe { std::ptr::read(response) });
        }
        // SAFETY: initialized (above), and read once.
        match unsafe { slot.assume_init() }.into_parts() {
            Ok(response) => Poll::Ready(response),
            Err(future) => {
                *state = State::Waiting {
                    pending: Pending::new(future, call.name),
                    watch,
                };
                self.poll_waiting(state, cx)
            }
        }
    }

    /// Steps 1–3 of the module docs: everything decided from the call alone.
    #[inline]
    fn admit<'s>(
        &'s self,
        call: ToolCallRef<'_>,
        options: &CallOptions<'_>,
    ) -> Result<&'s Entry, ToolResponse> {
        let offered = options.offered();
        let index = self.position(call.name);
        let found = index.and_then(|i| Some((self.entries.get(i)?, self.definitions.get(i)?)));
        let (entry, definition) = match found {
            Some(found) => found,
            None => {
                return Err(match offered {
                    Some(names) => scope::unknown_among_offered(call.name, names),
                    None => self.unknown_tool(call.name),
                })
            }
        };
        if let Some(names) = offered {
            if !names.contains(&call.name) {
                return Err(scope::not_offered(call.name, names));
            }
        }
        match call.caller {
            Some(caller) => definition.allowed_callers().admit(call.name, caller)?,
            // A model's call that does not say who made it (APIs without programs, or a
            // caller field left out) is the model's direct call. Only program-only tools
            // care, so other calls pay one comparison.
            None if definition.allowed_callers() == AllowedCallers::Program
                && options.are_model_calls() =>
            {
                AllowedCallers::Program.admit(call.name, &Caller::Direct)?
            }
            None => {}
        }
        self.policy
            .limits
            .check_arguments(call.name, call.arguments)?;
        if definition.annotations.destructive == Some(true) {
            let hook = options.approval_hook().or(self.policy.approval.as_deref());
            if let Some(hook) = hook {
                // The hook's signature predates borrowed calls; destructive calls under
                // review are rare enough to afford the owned copy.
                policy::review(hook, &call.to_owned_call(), definition)?;
            }
        }
        Ok(entry)
    }

    /// Starts one run of the tool: panics contained (a synchronous tool runs inside
    /// `Tool::call`; an async tool's polls are caught where it is awaited), an async tool
    /// under its time limit where one is enforced.
    fn launch<'a>(
        &'a self,
        entry: &'a Entry,
        call: ToolCallRef<'a>,
        context: Option<&'a CallContext>,
    ) -> CallFuture<'a> {
        let mut slot = MaybeUninit::uninit();
        self.launch_into(entry, call, context, &mut slot);
        // SAFETY: `launch_into` initializes the slot on every path.
        unsafe { slot.assume_init() }
    }

    /// [`ToolRegistry::launch`], writing the tool's `CallFuture` into `slot`, which it
    /// initializes on every path: the tool writes it there from inside `catch_unwind` (not
    /// through the closure's result, one more copy of a response), and the dispatch path
    /// finishes and reads a synchronous response where it lies.
    #[inline(always)]
    fn launch_into<'a>(
        &'a self,
        entry: &'a Entry,
        call: ToolCallRef<'a>,
        context: Option<&'a CallContext>,
        slot: &mut MaybeUninit<CallFuture<'a>>,
    ) {
        let ctx = ToolContext::for_call(call.id, call.name, context, &self.extensions);
        let outcome = panic::catch(call.name, || {
            slot.write(entry.tool.call(call.arguments, ctx));
        });
        match outcome {
            // A synchronous tool's response is ready: no time limit to put on it, and no call
            // to make to find that out (the check is one load, the limit is out of line).
            // SAFETY: the tool wrote the slot (the closure ran to its end).
            Ok(()) if unsafe { slot.assume_init_ref() }.is_ready() => {}
            Ok(()) => self.limit_time(entry, call.name, slot),
            // The tool panicked before the slot was written.
            Err(panicked) => {
                slot.write(CallFuture::ready(panicked));
            }
        }
    }

    /// Puts an async tool's future under its time limit, if one is enforced: the tool's own,
    /// else the registry's default. `slot` holds the tool's `CallFuture`.
    #[inline(never)]
    fn limit_time<'a>(
        &'a self,
        entry: &Entry,
        tool: &'a str,
        slot: &mut MaybeUninit<CallFuture<'a>>,
    ) {
        // SAFETY: the caller passes an initialized slot.
        if unsafe { slot.assume_init_ref() }.is_ready() {
            return;
        }
        let limit = entry
            .tool
            .timeout_ms()
            .map(Duration::from_millis)
            .or(self.policy.default_timeout);
        let Some(limit) = limit else { return };
        // SAFETY: initialized (above); read once, and written again at once.
        let future = unsafe { slot.assume_init_read() };
        slot.write(match future.into_parts() {
            Ok(response) => CallFuture::ready(response),
            Err(future) => {
                CallFuture::new(timeout::with_limit(Pending::new(future, tool), limit, tool))
            }
        });
    }
}

// The `tracing` feature adds the span's state to the future.
#[cfg(all(test, not(feature = "tracing")))]
mod tests {
    use super::*;

    /// The call future is moved into whatever polls it; past 128 bytes that move is a
    /// `memcpy` call on every dispatch.
    #[test]
    fn call_future_stays_within_128_bytes() {
        let registry = ToolRegistry::new();
        let future = registry.call(ToolCallRef::new("1", "f", "{}"));
        assert!(
            std::mem::size_of_val(&future) <= 128,
            "the call future is {} bytes",
            std::mem::size_of_val(&future)
        );
    }
}
