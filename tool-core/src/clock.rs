//! The dispatcher's stopwatch for `stats.time_ms`.
//!
//! `Instant::now()` costs ~75 ns per read on common virtual machines (measured on the CI
//! machine: two reads were as much as the whole hand-written dispatch of a small tool). On
//! x86_64 the time-stamp counter is read instead (~25 ns there) and converted to milliseconds
//! with a rate calibrated once against `Instant`, when the first tool is registered. Elsewhere,
//! or if calibration gives a nonsensical rate, `Instant` is used.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Counter ticks per millisecond, or `None` when the counter is not used.
static TICKS_PER_MS: OnceLock<Option<f64>> = OnceLock::new();

/// Calibrates the counter if that has not happened yet (spins for about half a millisecond,
/// once per process). Called at registration so no call pays for it.
pub(crate) fn calibrate() {
    TICKS_PER_MS.get_or_init(measure_rate);
}

#[cfg(target_arch = "x86_64")]
fn read_counter() -> u64 {
    // SAFETY: `rdtsc` has no preconditions; it is available on every x86_64 CPU.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(target_arch = "x86_64")]
fn measure_rate() -> Option<f64> {
    let started = Instant::now();
    let first = read_counter();
    while started.elapsed() < Duration::from_micros(500) {
        std::hint::spin_loop();
    }
    let ticks = read_counter().checked_sub(first)? as f64;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let rate = ticks / ms;
    // An invariant counter runs at hundreds of MHz or more; anything else is not trusted.
    (rate.is_finite() && rate > 100_000.0).then_some(rate)
}

#[cfg(not(target_arch = "x86_64"))]
fn measure_rate() -> Option<f64> {
    None
}

/// Measures one call.
pub(crate) enum Stopwatch {
    #[cfg(target_arch = "x86_64")]
    Counter(u64, f64),
    Clock(Instant),
}

impl Stopwatch {
    pub(crate) fn start() -> Self {
        match TICKS_PER_MS.get() {
            #[cfg(target_arch = "x86_64")]
            Some(Some(rate)) => Stopwatch::Counter(read_counter(), *rate),
            _ => Stopwatch::Clock(Instant::now()),
        }
    }

    pub(crate) fn elapsed_ms(&self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // Saturating: a thread that migrated to a core whose counter lags reads 0, not a
            // huge number.
            Stopwatch::Counter(start, rate) => {
                (read_counter().saturating_sub(*start) as f64 / rate) as u64
            }
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
    fn stopwatch_measures_a_sleep_in_milliseconds() {
        calibrate();
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(30));
        let ms = watch.elapsed_ms();
        assert!(
            (30..1000).contains(&ms),
            "measured {ms} ms for a 30 ms sleep"
        );
    }
}
