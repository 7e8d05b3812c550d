//! [`Dispatch`], the future of one call, written out by hand rather than as an `async fn`.
//!
//! An `async fn` merges the response of a synchronous tool and that of an awaited one into
//! one place before returning it, and every such merge copies the 128-byte response (four
//! copies on the plain path, by callgrind). Here the synchronous path returns the response
//! from the same call that made it (`ToolRegistry::begin`, in tail position), and only an
//! async tool, or a configured mechanism, is kept in the future and awaited.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::CallOptions;
use crate::call::ToolCallRef;
use crate::clock::Stopwatch;
use crate::registry::ToolRegistry;
use crate::response::{ToolErrorCode, ToolResponse};
use crate::tool::BoxedCall;

/// The rest of a call that did not finish at once: an async tool's future, or a boxed future
/// for the configured mechanisms, with panics contained. Small on purpose (two pointers and a
/// name): it is what the dispatch future keeps across an await.
pub(crate) type Pending<'a> = super::panic::CatchUnwind<'a, BoxedCall<'a>>;

/// Where a call is.
pub(crate) enum State<'a> {
    /// Not polled yet.
    Start,
    /// Waiting for an async tool or a mechanism; the stopwatch started at the first poll.
    Waiting {
        pending: Pending<'a>,
        watch: Stopwatch,
    },
    /// Answered.
    Done,
}

/// The future [`ToolRegistry::call`] returns (without the `tracing` feature).
pub(crate) struct Dispatch<'a> {
    registry: &'a ToolRegistry,
    call: ToolCallRef<'a>,
    options: &'a CallOptions<'a>,
    state: State<'a>,
}

impl<'a> Dispatch<'a> {
    pub(super) fn new(
        registry: &'a ToolRegistry,
        call: ToolCallRef<'a>,
        options: &'a CallOptions<'a>,
    ) -> Self {
        Dispatch {
            registry,
            call,
            options,
            state: State::Start,
        }
    }
}

impl Future for Dispatch<'_> {
    type Output = ToolResponse;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResponse> {
        let this = self.get_mut();
        match this.state {
            State::Start => {
                // `begin` sets `Waiting` if something is left to await.
                this.state = State::Done;
                this.registry
                    .begin(this.call, this.options, &mut this.state, cx)
            }
            State::Waiting { .. } => this.registry.poll_waiting(&mut this.state, cx),
            State::Done => Poll::Ready(polled_after_completion()),
        }
    }
}

#[cold]
fn polled_after_completion() -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::Unknown,
        "internal: a tool call future was polled after it completed",
    )
}

impl ToolRegistry {
    /// Polls what a call waits for; on its answer, finishes it and marks the call `Done`.
    pub(super) fn poll_waiting(
        &self,
        state: &mut State<'_>,
        cx: &mut Context<'_>,
    ) -> Poll<ToolResponse> {
        let State::Waiting { pending, watch } = state else {
            return Poll::Ready(polled_after_completion());
        };
        let Poll::Ready(mut response) = Pin::new(pending).poll(cx) else {
            return Poll::Pending;
        };
        self.finish(&mut response, watch);
        *state = State::Done;
        Poll::Ready(response)
    }
}

#[cfg(all(test, not(feature = "tracing")))]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Waker;

    use super::*;
    use crate::{CallFuture, Tool, ToolContext};

    /// Counts its runs.
    struct Counter(Arc<AtomicUsize>);

    impl Tool for Counter {
        fn name(&self) -> &str {
            "count"
        }
        fn description(&self) -> &str {
            "Counts its runs."
        }
        fn input_schema(&self) -> serde_json::Value {
            serde_json::json!({"type": "object", "properties": {}})
        }
        fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
            let n = self.0.fetch_add(1, Ordering::SeqCst) + 1;
            CallFuture::ready(ToolResponse::success(n.to_string()))
        }
    }

    #[test]
    fn a_finished_call_polled_again_answers_an_error_and_does_not_run_the_tool_again() {
        let runs = Arc::new(AtomicUsize::new(0));
        let registry = ToolRegistry::new().with(Counter(Arc::clone(&runs)));
        let mut cx = Context::from_waker(Waker::noop());
        let mut future = std::pin::pin!(registry.call(ToolCallRef::new("1", "count", "{}")));
        let Poll::Ready(first) = future.as_mut().poll(&mut cx) else {
            panic!("a synchronous tool answers at the first poll");
        };
        assert_eq!(first.text, "1");
        assert!(first.stats.time_ms.is_some());
        let Poll::Ready(again) = future.as_mut().poll(&mut cx) else {
            panic!("a finished call answers at once");
        };
        assert_eq!(again.error_code(), Some(ToolErrorCode::Unknown));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }
}
