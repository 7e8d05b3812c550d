//! The [`Tool`] trait that `#[tool]` implements, and the future a call returns.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::definition::ToolAnnotations;
use crate::response::{ToolErrorCode, ToolResponse};

/// Per-call information the dispatcher hands a tool: the call id and the tool's name.
///
/// ```
/// let ctx = tool_core::ToolContext::new("call_7", "search");
/// assert_eq!(ctx.call_id(), "call_7");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolContext<'a> {
    call_id: &'a str,
    tool_name: &'a str,
}

impl<'a> ToolContext<'a> {
    /// A context for one call.
    pub fn new(call_id: &'a str, tool_name: &'a str) -> Self {
        ToolContext { call_id, tool_name }
    }

    /// The id of the call being served.
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// The name of the tool being called.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolContext::new("1", "search").tool_name(), "search");
    /// ```
    pub fn tool_name(&self) -> &'a str {
        self.tool_name
    }
}

/// A callable tool. `#[tool]` implements it; implement it by hand for tools defined at run time.
///
/// The registry caches what [`Tool::input_schema`] returns, so it may build the schema afresh.
///
/// ```
/// use tool_core::{CallFuture, Tool, ToolContext, ToolResponse};
/// use serde_json::{json, Value};
///
/// struct Echo;
/// impl Tool for Echo {
///     fn name(&self) -> &str { "echo" }
///     fn description(&self) -> &str { "Repeats the arguments back." }
///     fn input_schema(&self) -> Value { json!({"type": "object", "properties": {}}) }
///     fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
///         CallFuture::ready(ToolResponse::success(arguments))
///     }
/// }
///
/// let registry = tool_core::ToolRegistry::new().with(Echo);
/// let reply = registry.call_blocking(&tool_core::ToolCall::new("1", "echo", "{}"));
/// assert_eq!(reply.text, "{}");
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// Behaviour hints; none by default.
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::NONE
    }

    /// A per-tool time limit in milliseconds, if the tool declares one.
    fn timeout_ms(&self) -> Option<u64> {
        None
    }

    /// The canonical JSON Schema of the arguments.
    fn input_schema(&self) -> Value;

    /// Runs the tool on raw JSON arguments. Never panics on bad arguments: a decoding failure
    /// is an `INVALID_PARAM` or `INVALID_FORMAT` response.
    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a>;
}

/// The future of one tool call. Synchronous tools complete without allocating a future.
///
/// ```
/// let f = tool_core::CallFuture::ready(tool_core::ToolResponse::success("ok"));
/// assert!(f.is_ready());
/// ```
pub struct CallFuture<'a>(Inner<'a>);

enum Inner<'a> {
    Ready(Option<ToolResponse>),
    Boxed(Pin<Box<dyn Future<Output = ToolResponse> + Send + 'a>>),
}

impl<'a> CallFuture<'a> {
    /// An already-computed response.
    pub fn ready(response: ToolResponse) -> Self {
        CallFuture(Inner::Ready(Some(response)))
    }

    /// A response still being computed.
    ///
    /// ```
    /// let f = tool_core::CallFuture::new(async { tool_core::ToolResponse::success("later") });
    /// assert!(!f.is_ready());
    /// ```
    pub fn new(future: impl Future<Output = ToolResponse> + Send + 'a) -> Self {
        CallFuture(Inner::Boxed(Box::pin(future)))
    }

    /// Whether the response is already there (a synchronous tool, or a decoding error).
    pub fn is_ready(&self) -> bool {
        matches!(self.0, Inner::Ready(Some(_)))
    }
}

impl Future for CallFuture<'_> {
    type Output = ToolResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResponse> {
        match &mut self.get_mut().0 {
            Inner::Ready(slot) => Poll::Ready(slot.take().unwrap_or_else(|| {
                ToolResponse::error(
                    ToolErrorCode::Unknown,
                    "internal: a tool call future was polled after it completed",
                )
            })),
            Inner::Boxed(future) => future.as_mut().poll(cx),
        }
    }
}
