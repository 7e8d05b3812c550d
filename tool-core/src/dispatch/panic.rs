//! Panic isolation: a panicking tool becomes an `EXECUTION_ERROR` response instead of unwinding
//! into the caller, for synchronous tools (which run inside `Tool::call`) and async tools (which
//! run when their future is polled).
//!
//! `catch_unwind` costs nothing until something panics, so this sits on the plain path. It does
//! not help when the application is built with `panic = "abort"`, and the process's panic hook
//! still runs (by default it prints the panic to stderr).

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::response::{ToolErrorCode, ToolResponse};

/// Runs `f`, turning a panic into the response a model should see.
///
/// `AssertUnwindSafe` is sound here in the sense that matters: after a panic the dispatcher
/// touches none of the state the closure borrowed except to read the tool's name.
///
/// Inlined into the dispatch path: as a function of its own it re-copies the tool's context
/// and pays a prologue and an epilogue on every call.
#[inline(always)]
pub(crate) fn catch<T>(tool: &str, f: impl FnOnce() -> T) -> Result<T, ToolResponse> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panicked(tool, payload.as_ref()))
}

/// The `EXECUTION_ERROR` for a tool that panicked, carrying the panic message.
pub(crate) fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolResponse {
    let message = panic_message(payload);
    ToolResponse::error(
        ToolErrorCode::ExecutionError,
        format!(
            "The tool '{tool}' crashed (panicked: {message}). This is a fault in the tool, not \
             in your arguments; do not retry the same call, try another approach."
        ),
    )
}

/// The text of a panic payload: `panic!("...")` gives a `&str` or a `String`.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "a value that is not a message"
    }
}

/// A future that answers with an `EXECUTION_ERROR` if polling the inner future panics.
///
/// After a panic the inner future is never polled again (it may be in a broken state); the
/// wrapper remembers the response and hands it out once.
pub(crate) struct CatchUnwind<'t, F> {
    inner: Option<F>,
    tool: &'t str,
}

impl<'t, F> CatchUnwind<'t, F> {
    pub(crate) fn new(inner: F, tool: &'t str) -> Self {
        CatchUnwind {
            inner: Some(inner),
            tool,
        }
    }
}

impl<F: Future<Output = ToolResponse> + Unpin> Future for CatchUnwind<'_, F> {
    type Output = ToolResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResponse> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(ToolResponse::error(
                ToolErrorCode::Unknown,
                "internal: a tool call future was polled after it completed",
            ));
        };
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(response)) => {
                this.inner = None;
                Poll::Ready(response)
            }
            Err(payload) => {
                // Drop the broken future now; dropping may panic too, which we also contain.
                let broken = this.inner.take();
                let _ = catch_unwind(AssertUnwindSafe(move || drop(broken)));
                Poll::Ready(panicked(this.tool, payload.as_ref()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_and_str_payloads_are_both_read() {
        let a: Box<dyn Any + Send> = Box::new("static");
        let b: Box<dyn Any + Send> = Box::new(String::from("owned"));
        let c: Box<dyn Any + Send> = Box::new(7_u8);
        assert_eq!(panic_message(a.as_ref()), "static");
        assert_eq!(panic_message(b.as_ref()), "owned");
        assert_eq!(panic_message(c.as_ref()), "a value that is not a message");
    }
}
