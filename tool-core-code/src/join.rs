//! Runs a batch of futures concurrently, results in order: the tool calls one round of a
//! program made.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub(crate) type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// All of `futures`, polled together; their outputs in the order given.
pub(crate) struct JoinAll<'a, T> {
    slots: Vec<Slot<'a, T>>,
}

enum Slot<'a, T> {
    Running(Boxed<'a, T>),
    Done(Option<T>),
}

impl<'a, T> JoinAll<'a, T> {
    pub(crate) fn new(futures: Vec<Boxed<'a, T>>) -> Self {
        JoinAll {
            slots: futures.into_iter().map(Slot::Running).collect(),
        }
    }
}

impl<T: Unpin> Future for JoinAll<'_, T> {
    type Output = Vec<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<T>> {
        // Every field is Unpin (boxed futures), so the pin can be set aside.
        let this = self.get_mut();
        let mut all_done = true;
        for slot in &mut this.slots {
            if let Slot::Running(future) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(output) => *slot = Slot::Done(Some(output)),
                    Poll::Pending => all_done = false,
                }
            }
        }
        if !all_done {
            return Poll::Pending;
        }
        let outputs = this
            .slots
            .iter_mut()
            .filter_map(|slot| match slot {
                Slot::Done(output) => output.take(),
                Slot::Running(_) => None,
            })
            .collect();
        Poll::Ready(outputs)
    }
}
