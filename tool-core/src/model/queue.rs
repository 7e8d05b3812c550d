//! A stream fed by an async block: lets an adapter own data its inner request borrows (the
//! rewritten conversation) for as long as the inner stream runs, without a channel crate.

use std::collections::VecDeque;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use futures_core::Stream;

/// Where the producing block puts items.
pub(crate) struct Queue<T>(Arc<Mutex<VecDeque<T>>>);

impl<T> Queue<T> {
    /// Queues an item and yields, so the consumer takes it before the producer goes on.
    pub(crate) async fn send(&self, item: T) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(item);
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
}

struct QueueStream<'a, T> {
    queue: Arc<Mutex<VecDeque<T>>>,
    producer: Option<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>,
}

impl<T> QueueStream<'_, T> {
    fn pop(&self) -> Option<T> {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
    }
}

impl<T> Stream for QueueStream<'_, T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        if let Some(item) = self.pop() {
            return Poll::Ready(Some(item));
        }
        let Some(producer) = self.producer.as_mut() else {
            return Poll::Ready(None);
        };
        if producer.as_mut().poll(cx).is_ready() {
            self.producer = None;
        }
        match self.pop() {
            Some(item) => Poll::Ready(Some(item)),
            None if self.producer.is_none() => Poll::Ready(None),
            None => Poll::Pending,
        }
    }
}

/// A stream of what `produce` sends; it ends when `produce`'s future completes.
pub(crate) fn queue_stream<'a, T, F, Fut>(produce: F) -> Pin<Box<dyn Stream<Item = T> + Send + 'a>>
where
    T: Send + 'a,
    F: FnOnce(Queue<T>) -> Fut,
    Fut: Future<Output = ()> + Send + 'a,
{
    let queue = Arc::new(Mutex::new(VecDeque::new()));
    let producer = produce(Queue(Arc::clone(&queue)));
    Box::pin(QueueStream {
        queue,
        producer: Some(Box::pin(producer)),
    })
}
