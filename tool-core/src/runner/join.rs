//! A bounded join: at most `cap` futures polled at a time, outputs in input order.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

/// Runs `futures` on the calling task with at most `cap` in flight (`None`: all), calling
/// `on_done(index, &output)` as each finishes; outputs come back in input order. A future is
/// first polled when its turn comes, so with a cap the later calls have not started while
/// the earlier ones run.
pub(crate) async fn join_bounded<F: Future>(
    futures: Vec<F>,
    cap: Option<usize>,
    mut on_done: impl FnMut(usize, &F::Output),
) -> Vec<F::Output> {
    let total = futures.len();
    let cap = cap.unwrap_or(total).max(1);
    let mut slots: Vec<Option<Pin<Box<F>>>> =
        futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = (0..total).map(|_| None).collect();
    let mut started = 0;
    let mut running = 0;
    let mut finished = 0;
    poll_fn(move |cx| {
        loop {
            while running < cap && started < total {
                started += 1;
                running += 1;
            }
            let mut progressed = false;
            for index in 0..started {
                let Some(Some(future)) = slots.get_mut(index) else {
                    continue;
                };
                if let Poll::Ready(output) = future.as_mut().poll(cx) {
                    on_done(index, &output);
                    if let Some(slot) = outputs.get_mut(index) {
                        *slot = Some(output);
                    }
                    if let Some(slot) = slots.get_mut(index) {
                        *slot = None;
                    }
                    running -= 1;
                    finished += 1;
                    progressed = true;
                }
            }
            if finished == total {
                return Poll::Ready(outputs.iter_mut().filter_map(Option::take).collect());
            }
            // A finished future freed a place: start the next ones in this same poll.
            if !(progressed && started < total) {
                return Poll::Pending;
            }
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Pending once, then ready: lets the join interleave.
    async fn yield_once() {
        let mut yielded = false;
        poll_fn(|cx| {
            if yielded {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await
    }

    #[test]
    fn outputs_keep_input_order_and_the_cap_bounds_concurrency() {
        let live = Cell::new(0);
        let peak = Cell::new(0);
        let futures: Vec<_> = (0..7)
            .map(|i| {
                let (live, peak) = (&live, &peak);
                async move {
                    live.set(live.get() + 1);
                    peak.set(peak.get().max(live.get()));
                    for _ in 0..(7 - i) {
                        yield_once().await;
                    }
                    live.set(live.get() - 1);
                    i
                }
            })
            .collect();
        let mut done = Vec::new();
        let out = crate::block_on(join_bounded(futures, Some(3), |i, _| done.push(i)));
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(peak.get(), 3);
        // Shorter futures (later indexes) finish first among those in flight.
        assert_ne!(done, [0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn an_empty_batch_is_ready_at_once() {
        let out: Vec<u8> = crate::block_on(join_bounded(
            Vec::<std::future::Ready<u8>>::new(),
            None,
            |_, _| {},
        ));
        assert!(out.is_empty());
    }
}
