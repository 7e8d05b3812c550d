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

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;
#[cfg(target_arch = "x86_64")]
use std::time::Duration;
use std::time::Instant;

#[cfg(target_arch = "x86_64")]
/// How far apart the two readings must be for the rate to be trusted: `Instant` reads jitter
/// by well under a microsecond, so 10 ms bounds the error below 0.01%.
const CALIBRATION_SPAN: Duration = Duration::from_millis(10);

/// The first reading of both clocks, taken when the first tool is registered.
#[cfg(target_arch = "x86_64")]
static ANCHOR: OnceLock<(Instant, u64)> = OnceLock::new();

/// Counter ticks per millisecond (an integer: at hundreds of millions of ticks per second,
/// rounding changes the result by less than a millionth); [`UNCALIBRATED`] until calibrated,
/// [`UNUSABLE`] when the counter is not to be used.
#[cfg(target_arch = "x86_64")]
static TICKS_PER_MS: AtomicU64 = AtomicU64::new(UNCALIBRATED);
#[cfg(target_arch = "x86_64")]
const UNCALIBRATED: u64 = 0;
#[cfg(target_arch = "x86_64")]
const UNUSABLE: u64 = u64::MAX;

/// Takes the first reading for calibration if nobody has (two clock reads, once per process).
/// Called at registration.
pub(crate) fn anchor() {
    #[cfg(target_arch = "x86_64")]
    ANCHOR.get_or_init(|| (Instant::now(), read_counter()));
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
    let ticks = read_counter().saturating_sub(first) as f64;
    let rate = ticks / (span.as_secs_f64() * 1000.0);
    // An invariant counter runs at hundreds of MHz or more; anything else is not trusted.
    let rate = if rate.is_finite() && rate > 100_000.0 && rate < 1e15 {
        rate as u64
    } else {
        UNUSABLE
    };
    // Racing threads compute nearly the same rate; the first one stays.
    let _ = TICKS_PER_MS.compare_exchange(UNCALIBRATED, rate, Ordering::Relaxed, Ordering::Relaxed);
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
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) fn start() -> Self {
        match TICKS_PER_MS.load(Ordering::Relaxed) {
            UNUSABLE => Stopwatch::Clock(Instant::now()),
            UNCALIBRATED => {
                let now = Instant::now();
                try_calibrate(now);
                Stopwatch::Clock(now)
            }
            _ => Stopwatch::Counter(read_counter()),
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn start() -> Self {
        Stopwatch::Clock(Instant::now())
    }

    #[inline]
    pub(crate) fn elapsed_ms(&self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // Saturating: a thread that migrated to a core whose counter lags reads 0, not a
            // huge number.
            // A `Counter` is only made once the rate is known, so the division is by the rate.
            Stopwatch::Counter(start) => read_counter()
                .saturating_sub(*start)
                .checked_div(TICKS_PER_MS.load(Ordering::Relaxed))
                .unwrap_or(0),
            Stopwatch::Clock(start) => {
                u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
