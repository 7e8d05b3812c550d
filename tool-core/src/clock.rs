//! The dispatcher's stopwatch for `stats.time_ms`.
//!
//! `Instant::now()` costs ~75 ns per read on common virtual machines (measured on the CI
//! machine: two reads were as much as the whole hand-written dispatch of a small tool). On
//! x86_64 the time-stamp counter is read instead (~25 ns there) and converted to milliseconds
//! with a rate calibrated against `Instant`.
//!
//! Calibration costs start-up nothing: registering a tool records one (`Instant`, counter)
//! pair, and the first stopwatch started at least [`CALIBRATION_SPAN`] later divides the two
//! distances. Until then stopwatches use `Instant`. (It used to spin for half a millisecond
//! at the first registration, a third of an MCP server's cold start.) Elsewhere, or if the
//! rate is nonsensical, `Instant` is used.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How far apart the two readings must be for the rate to be trusted: `Instant` reads jitter
/// by well under a microsecond, so 10 ms bounds the error below 0.01%.
const CALIBRATION_SPAN: Duration = Duration::from_millis(10);

/// The first reading of both clocks, taken when the first tool is registered.
#[cfg(target_arch = "x86_64")]
static ANCHOR: OnceLock<(Instant, u64)> = OnceLock::new();

/// Counter ticks per millisecond, or `None` when the counter is not used; unset until
/// calibrated.
static TICKS_PER_MS: OnceLock<Option<f64>> = OnceLock::new();

/// Takes the first reading for calibration if nobody has (two clock reads, once per process).
/// Called at registration.
pub(crate) fn anchor() {
    #[cfg(target_arch = "x86_64")]
    ANCHOR.get_or_init(|| (Instant::now(), read_counter()));
    #[cfg(not(target_arch = "x86_64"))]
    TICKS_PER_MS.get_or_init(|| None);
}

/// Calibrates if the anchor is old enough; `now` is a fresh `Instant` reading.
#[cfg(target_arch = "x86_64")]
#[cold]
fn try_calibrate(now: Instant) {
    let Some(&(then, first)) = ANCHOR.get() else {
        anchor();
        return;
    };
    let span = now.saturating_duration_since(then);
    if span < CALIBRATION_SPAN {
        return;
    }
    TICKS_PER_MS.get_or_init(|| {
        let ticks = read_counter().checked_sub(first)? as f64;
        let rate = ticks / (span.as_secs_f64() * 1000.0);
        // An invariant counter runs at hundreds of MHz or more; anything else is not trusted.
        (rate.is_finite() && rate > 100_000.0).then_some(rate)
    });
}

#[cfg(target_arch = "x86_64")]
fn read_counter() -> u64 {
    // SAFETY: `rdtsc` has no preconditions; it is available on every x86_64 CPU.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// Measures one call. 16 bytes (the rate is read from the static again at the end, not
/// carried): the dispatch future keeps a stopwatch across its await.
pub(crate) enum Stopwatch {
    #[cfg(target_arch = "x86_64")]
    Counter(u64),
    Clock(Instant),
}

impl Stopwatch {
    pub(crate) fn start() -> Self {
        match TICKS_PER_MS.get() {
            #[cfg(target_arch = "x86_64")]
            Some(Some(_)) => Stopwatch::Counter(read_counter()),
            Some(_) => Stopwatch::Clock(Instant::now()),
            None => {
                let now = Instant::now();
                #[cfg(target_arch = "x86_64")]
                try_calibrate(now);
                Stopwatch::Clock(now)
            }
        }
    }

    pub(crate) fn elapsed_ms(&self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // Saturating: a thread that migrated to a core whose counter lags reads 0, not a
            // huge number.
            Stopwatch::Counter(start) => match TICKS_PER_MS.get() {
                // Always set: a `Counter` is only made once the rate is known.
                Some(Some(rate)) => (read_counter().saturating_sub(*start) as f64 / rate) as u64,
                _ => 0,
            },
            Stopwatch::Clock(start) => {
                u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwatch_is_two_words() {
        assert_eq!(std::mem::size_of::<Stopwatch>(), 16);
    }

    #[test]
    fn stopwatch_measures_a_sleep_in_milliseconds() {
        anchor();
        // Before and after calibration (the second watch starts more than 10 ms after the
        // anchor, so it calibrates and uses the counter where there is one).
        for _ in 0..2 {
            let watch = Stopwatch::start();
            std::thread::sleep(Duration::from_millis(30));
            let ms = watch.elapsed_ms();
            assert!(
                (30..1000).contains(&ms),
                "measured {ms} ms for a 30 ms sleep"
            );
        }
        #[cfg(target_arch = "x86_64")]
        assert!(
            matches!(Stopwatch::start(), Stopwatch::Counter(..)),
            "calibrated after more than {CALIBRATION_SPAN:?}"
        );
    }
}
