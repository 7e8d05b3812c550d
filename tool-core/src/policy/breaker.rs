//! The per-tool circuit breaker: after `failure_threshold` consecutive transient
//! failures (codes for which [`ToolErrorCode::is_retryable`] is true) a tool answers
//! `CIRCUIT_OPEN` without running for `cooldown`; then one probe call is let through
//! (half-open): its success closes the circuit, another transient failure opens it again.
//!
//! Off by default: a registry without [`ToolRegistry::with_circuit_breaker`] keeps no breaker
//! state and takes no lock. Any outcome other than a transient failure (success, a model's bad
//! arguments, a tool's own `NOT_FOUND` …) shows the tool is answering, and resets the count.
//!
//! [`ToolRegistry::with_circuit_breaker`]: crate::ToolRegistry::with_circuit_breaker

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::response::{ToolErrorCode, ToolResponse};

/// Circuit breaker settings, applied to each tool separately.
///
/// ```
/// use std::time::Duration;
/// use tool_core::BreakerConfig;
/// let config = BreakerConfig::default();
/// assert_eq!(config.failure_threshold, 5);
/// assert_eq!(config.cooldown, Duration::from_secs(30));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerConfig {
    /// Consecutive transient failures that open the circuit (at least 1).
    pub failure_threshold: u32,
    /// How long an open circuit rejects calls before letting a probe through.
    pub cooldown: Duration,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            failure_threshold: 5,
            cooldown: Duration::from_secs(30),
        }
    }
}

/// Where a tool's circuit stands, from [`ToolRegistry::circuit_state`].
///
/// [`ToolRegistry::circuit_state`]: crate::ToolRegistry::circuit_state
///
/// ```
/// use tool_core::{tool, tools, BreakerConfig, CircuitState};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let r = tools![hi].with_circuit_breaker(BreakerConfig::default());
/// assert_eq!(r.circuit_state("hi"), Some(CircuitState::Closed));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CircuitState {
    /// Calls run; transient failures are being counted.
    Closed,
    /// Calls are rejected with `CIRCUIT_OPEN` until the cooldown ends.
    Open,
    /// The cooldown is over (or a probe is running): the next result decides.
    HalfOpen,
}

#[derive(Debug)]
enum State {
    Closed {
        failures: u32,
    },
    Open {
        until: Instant,
    },
    /// A probe is running; everyone else is turned away until it reports.
    Probing,
}

/// One tool's breaker.
#[derive(Debug)]
pub(crate) struct Breaker {
    config: BreakerConfig,
    state: Mutex<State>,
}

/// Permission to run one call; reports the outcome back to the breaker.
pub(crate) struct Permit<'a> {
    breaker: &'a Breaker,
    probe: bool,
    reported: bool,
}

impl Breaker {
    pub(crate) fn new(config: BreakerConfig) -> Self {
        Breaker {
            config: BreakerConfig {
                failure_threshold: config.failure_threshold.max(1),
                ..config
            },
            state: Mutex::new(State::Closed { failures: 0 }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The lock is never held across user code, so poisoning cannot leave a torn state.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn state(&self) -> CircuitState {
        match &*self.lock() {
            State::Closed { .. } => CircuitState::Closed,
            State::Open { until } if Instant::now() < *until => CircuitState::Open,
            State::Open { .. } | State::Probing => CircuitState::HalfOpen,
        }
    }

    /// Lets the call run, or answers `CIRCUIT_OPEN`.
    pub(crate) fn acquire(&self, tool: &str) -> Result<Permit<'_>, ToolResponse> {
        let mut state = self.lock();
        let probe = match &*state {
            State::Closed { .. } => false,
            State::Open { until } => {
                let now = Instant::now();
                if now < *until {
                    let wait = until.duration_since(now).as_millis().max(1);
                    return Err(self.open_response(tool, Some(wait)));
                }
                *state = State::Probing;
                true
            }
            State::Probing => return Err(self.open_response(tool, None)),
        };
        Ok(Permit {
            breaker: self,
            probe,
            reported: false,
        })
    }

    fn open_response(&self, tool: &str, wait_ms: Option<u128>) -> ToolResponse {
        let when = match wait_ms {
            Some(ms) if ms >= 1000 => {
                format!(
                    "it will accept a trial call in about {} s",
                    ms.div_ceil(1000)
                )
            }
            Some(ms) => format!("it will accept a trial call in about {ms} ms"),
            None => "a trial call is running now".to_string(),
        };
        ToolResponse::error(
            ToolErrorCode::CircuitOpen,
            format!(
                "The tool '{tool}' is temporarily disabled after {} consecutive failures; {when}. \
                 Do not call it again right now: continue without it or try another tool.",
                self.config.failure_threshold
            ),
        )
    }

    fn record(&self, failed: bool) {
        let mut state = self.lock();
        *state = match (&*state, failed) {
            (_, false) => State::Closed { failures: 0 },
            (State::Closed { failures }, true) if failures + 1 < self.config.failure_threshold => {
                State::Closed {
                    failures: failures + 1,
                }
            }
            // Threshold reached, a failed probe, or a late report while open: (re)open.
            (_, true) => State::Open {
                until: Instant::now() + self.config.cooldown,
            },
        };
    }
}

impl Permit<'_> {
    /// Reports the call's outcome: a transient failure counts, anything else resets.
    pub(crate) fn record(mut self, response: &ToolResponse) {
        self.reported = true;
        let failed = response
            .error_code()
            .is_some_and(ToolErrorCode::is_retryable);
        self.breaker.record(failed);
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        // A probe whose call was cancelled never reports; without this the circuit would stay
        // half-open with a phantom probe forever. Let the next caller probe instead.
        if self.probe && !self.reported {
            *self.breaker.lock() = State::Open {
                until: Instant::now(),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail() -> ToolResponse {
        ToolResponse::error(ToolErrorCode::ServiceUnavailable, "down")
    }

    #[test]
    fn opens_after_threshold_then_probes_after_cooldown() {
        let b = Breaker::new(BreakerConfig {
            failure_threshold: 2,
            cooldown: Duration::from_millis(10),
        });
        b.acquire("t").map(|p| p.record(&fail())).ok();
        assert_eq!(b.state(), CircuitState::Closed);
        b.acquire("t").map(|p| p.record(&fail())).ok();
        assert_eq!(b.state(), CircuitState::Open);
        assert!(b.acquire("t").is_err());
        std::thread::sleep(Duration::from_millis(15));
        let probe = b.acquire("t").ok();
        assert!(probe.is_some());
        assert!(b.acquire("t").is_err(), "only one probe at a time");
        drop(probe);
        assert_eq!(
            b.state(),
            CircuitState::HalfOpen,
            "a dropped probe frees the slot"
        );
        b.acquire("t")
            .map(|p| p.record(&ToolResponse::success("ok")))
            .ok();
        assert_eq!(b.state(), CircuitState::Closed);
    }
}
