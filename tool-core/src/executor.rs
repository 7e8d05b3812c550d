//! The two executor pieces the core needs without depending on a runtime: `block_on` for
//! synchronous callers and `join_all` for concurrent calls on one task.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs a future to completion on the current thread, parking while it is pending.
///
/// ```
/// assert_eq!(tool_core::block_on(async { 1 + 1 }), 2);
/// ```
pub fn block_on<F: Future>(mut future: F) -> F::Output {
    // The waker is made once per thread: building one per call would cost two allocations on
    // the synchronous dispatch path.
    thread_local! {
        static WAKER: Waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
    }
    // Pinned where it was passed rather than moved into a new local first (`pin!` moves it:
    // a `memcpy`-sized copy of the dispatch future on every synchronous call).
    // SAFETY: `future` is shadowed here and so never moved again; it is dropped in place.
    let mut future = unsafe { Pin::new_unchecked(&mut future) };
    // A synchronous tool's call is ready at its first poll, which needs no waker to wake
    // anyone: polled with the no-op waker, its output is returned from here rather than
    // through the thread-local's closure (a copy of the whole response, and the lookup of
    // the thread-local). A future that is not ready is polled again with the thread's
    // waker, which it registers then (a future keeps the waker of its latest poll).
    if let Poll::Ready(output) = future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        return output;
    }
    WAKER.with(|waker| {
        // Borrowed, not cloned: no reference-count traffic per call.
        let mut cx = Context::from_waker(waker);
        loop {
            match future.as_mut().poll(&mut cx) {
                Poll::Ready(output) => return output,
                Poll::Pending => thread::park(),
            }
        }
    })
}

/// Polls every future on the calling task until all are done; outputs in input order.
pub(crate) async fn join_all<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let mut slots: Vec<Slot<F>> = futures.into_iter().map(Slot::Pending).collect();
    std::future::poll_fn(move |cx| {
        let mut all_done = true;
        for slot in slots.iter_mut() {
            if let Slot::Pending(future) = slot {
                // SAFETY: each future lives in `slots`, which is owned by this closure and
                // never moved or resized after creation, so the pinned futures stay put.
                let future = unsafe { Pin::new_unchecked(future) };
                match future.poll(cx) {
                    Poll::Ready(output) => *slot = Slot::Done(Some(output)),
                    Poll::Pending => all_done = false,
                }
            }
        }
        if !all_done {
            return Poll::Pending;
        }
        Poll::Ready(
            slots
                .iter_mut()
                .filter_map(|slot| match slot {
                    Slot::Done(output) => output.take(),
                    Slot::Pending(_) => None,
                })
                .collect(),
        )
    })
    .await
}

enum Slot<F: Future> {
    Pending(F),
    Done(Option<F::Output>),
}
