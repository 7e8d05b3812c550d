//! Waiting without a runtime: one timer thread for the whole process, so time limits and retry
//! back-offs work under any executor (`block_on`, `call_blocking`, tokio, async-std, ...).
//!
//! Inside a tokio runtime (`tokio` feature) the callers use tokio's timer instead; this one is
//! for everywhere else. The thread starts on the first wait and sleeps on a condition variable
//! until the earliest deadline, so an idle process pays nothing and a waiting one pays one
//! wake-up per deadline. A wait that is dropped early takes its entry out, so abandoned
//! deadlines (a call that finished in time) do not pile up.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

/// The key of one wait: its deadline, then the order of registration for equal deadlines.
type Key = (Instant, u64);

struct Slot {
    fired: bool,
    waker: Option<Waker>,
}

struct Waits {
    pending: BTreeMap<Key, Arc<Mutex<Slot>>>,
    next: u64,
}

struct Timer {
    waits: Mutex<Waits>,
    changed: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves consistent data (every update is a single
    // insert or remove), so a poisoned lock is used as it is.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The process's timer, its thread started on first use; `None` if no thread could be started.
fn timer() -> Option<&'static Timer> {
    static TIMER: OnceLock<Option<&'static Timer>> = OnceLock::new();
    *TIMER.get_or_init(|| {
        let timer: &'static Timer = Box::leak(Box::new(Timer {
            waits: Mutex::new(Waits {
                pending: BTreeMap::new(),
                next: 0,
            }),
            changed: Condvar::new(),
        }));
        std::thread::Builder::new()
            .name("tool-core-timer".into())
            .spawn(move || timer.run())
            .ok()
            .map(|_| timer)
    })
}

impl Timer {
    fn run(&self) {
        let mut waits = lock(&self.waits);
        loop {
            let now = Instant::now();
            let mut due = Vec::new();
            while let Some(entry) = waits.pending.first_entry() {
                if entry.key().0 > now {
                    break;
                }
                due.push(entry.remove());
            }
            if !due.is_empty() {
                // Wake outside the lock: a waker may poll the task, which may register again.
                drop(waits);
                for slot in due {
                    let waker = {
                        let mut slot = lock(&slot);
                        slot.fired = true;
                        slot.waker.take()
                    };
                    if let Some(waker) = waker {
                        waker.wake();
                    }
                }
                waits = lock(&self.waits);
                continue;
            }
            waits = match waits.pending.keys().next() {
                Some(&(deadline, _)) => {
                    let wait = deadline.saturating_duration_since(now);
                    self.changed
                        .wait_timeout(waits, wait)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
                None => self
                    .changed
                    .wait(waits)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}

/// A future that is ready once `duration` has passed since its first poll.
pub(crate) struct Sleep {
    duration: Duration,
    registered: Option<(Key, Arc<Mutex<Slot>>)>,
}

impl Sleep {
    /// A wait of `duration` on the process's timer, or `None` when no timer thread can run
    /// (the caller then decides what "never fires" means for it).
    pub(crate) fn new(duration: Duration) -> Option<Sleep> {
        timer().map(|_| Sleep {
            duration,
            registered: None,
        })
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        if let Some((_, slot)) = &this.registered {
            let mut slot = lock(slot);
            if slot.fired {
                return Poll::Ready(());
            }
            if !slot.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                slot.waker = Some(cx.waker().clone());
            }
            return Poll::Pending;
        }
        let Some(timer) = timer() else {
            return Poll::Ready(());
        };
        let deadline = Instant::now() + this.duration;
        let slot = Arc::new(Mutex::new(Slot {
            fired: false,
            waker: Some(cx.waker().clone()),
        }));
        let mut waits = lock(&timer.waits);
        let key = (deadline, waits.next);
        waits.next += 1;
        let earliest = waits.pending.keys().next().is_none_or(|first| key < *first);
        waits.pending.insert(key, Arc::clone(&slot));
        drop(waits);
        if earliest {
            timer.changed.notify_one();
        }
        this.registered = Some((key, slot));
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if let (Some((key, _)), Some(timer)) = (&self.registered, timer()) {
            lock(&timer.waits).pending.remove(key);
        }
    }
}

/// Waits `duration`: on tokio's timer inside a tokio runtime (`tokio` feature), otherwise on
/// the process's timer thread. Returns at once if neither can run.
pub(crate) async fn sleep(duration: Duration) {
    if duration.is_zero() {
        return;
    }
    #[cfg(feature = "tokio")]
    if tokio::runtime::Handle::try_current().is_ok() {
        tokio::time::sleep(duration).await;
        return;
    }
    if let Some(wait) = Sleep::new(duration) {
        wait.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleep_waits_under_a_plain_executor() {
        let started = Instant::now();
        crate::block_on(sleep(Duration::from_millis(20)));
        assert!(started.elapsed() >= Duration::from_millis(20));
    }

    #[test]
    fn earlier_deadline_registered_later_fires_first() {
        // A long wait is pending when a short one arrives: the thread must wake for the
        // short one, not sleep until the long one.
        let long = std::thread::spawn(|| crate::block_on(sleep(Duration::from_secs(3))));
        std::thread::sleep(Duration::from_millis(20));
        let started = Instant::now();
        crate::block_on(sleep(Duration::from_millis(10)));
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
        drop(long);
    }

    #[test]
    fn dropped_wait_leaves_no_entry() {
        let mut wait = Box::pin(Sleep::new(Duration::from_secs(60)).expect("timer thread"));
        let waker = Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert!(wait.as_mut().poll(&mut cx).is_pending());
        let key = wait
            .registered
            .as_ref()
            .map(|(k, _)| *k)
            .expect("registered");
        let timer = timer().expect("timer thread");
        assert!(lock(&timer.waits).pending.contains_key(&key));
        drop(wait);
        assert!(!lock(&timer.waits).pending.contains_key(&key));
    }
}
