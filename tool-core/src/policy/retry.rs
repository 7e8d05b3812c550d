//! Optional per-tool retry of transient failures (`TIMEOUT`, `RATE_LIMIT`, `NETWORK_ERROR`,
//! `SERVICE_UNAVAILABLE`: the codes for which [`ToolErrorCode::is_retryable`] is true) with
//! exponential back-off. The number of runs is recorded as the `attempts` statistic
//! ([`Stats::attempts`](crate::Stats::attempts)).

use std::future::Future;
use std::time::Duration;

use crate::response::{ToolErrorCode, ToolResponse};
use crate::timer::sleep;

/// How often and how patiently to retry a tool whose call failed with a transient code.
///
/// Attach one to a tool with [`ToolRegistry::with_retry`](crate::ToolRegistry::with_retry).
/// Only retry tools whose calls are safe to repeat (idempotent, or failing before any effect).
///
/// ```
/// use std::time::Duration;
/// use tool_core::RetryPolicy;
///
/// let policy = RetryPolicy::new(3).backoff(Duration::from_millis(100), Duration::from_secs(2));
/// assert_eq!(policy.max_attempts, 3);
/// assert_eq!(policy.delay_before(2), Duration::from_millis(100));
/// assert_eq!(policy.delay_before(3), Duration::from_millis(200));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total runs including the first; 1 means no retry.
    pub max_attempts: u32,
    /// The wait before the second run; each later wait doubles, up to `max_backoff`.
    pub initial_backoff: Duration,
    /// The longest wait between runs.
    pub max_backoff: Duration,
}

impl RetryPolicy {
    /// Up to `max_attempts` runs, waiting 50 ms, 100 ms, 200 ms … (at most 2 s) between them.
    ///
    /// ```
    /// assert_eq!(tool_core::RetryPolicy::new(0).max_attempts, 1);
    /// ```
    pub fn new(max_attempts: u32) -> Self {
        RetryPolicy {
            max_attempts: max_attempts.max(1),
            initial_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(2),
        }
    }

    /// Sets the first wait and the longest wait.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let p = tool_core::RetryPolicy::new(2).backoff(Duration::ZERO, Duration::ZERO);
    /// assert_eq!(p.delay_before(2), Duration::ZERO);
    /// ```
    pub fn backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max.max(initial);
        self
    }

    /// The wait before run number `attempt` (2 for the first retry).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let p = tool_core::RetryPolicy::new(9).backoff(Duration::from_secs(1), Duration::from_secs(3));
    /// assert_eq!(p.delay_before(5), Duration::from_secs(3));
    /// ```
    pub fn delay_before(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(2).min(31);
        self.initial_backoff
            .saturating_mul(1_u32 << doublings)
            .min(self.max_backoff)
    }
}

/// Runs `attempt` until it succeeds, fails with a non-transient code, or the policy is spent.
/// Records the number of runs as the `attempts` statistic.
pub(crate) async fn run<F, Fut>(policy: &RetryPolicy, mut attempt: F) -> ToolResponse
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ToolResponse>,
{
    let mut runs = 1;
    let mut response = attempt().await;
    while runs < policy.max_attempts && is_transient(&response) {
        runs += 1;
        sleep(policy.delay_before(runs)).await;
        response = attempt().await;
    }
    response.stats = std::mem::take(&mut response.stats).with_attempts(runs);
    response
}

fn is_transient(response: &ToolResponse) -> bool {
    response
        .error_code()
        .is_some_and(ToolErrorCode::is_retryable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = RetryPolicy::new(10).backoff(Duration::from_millis(10), Duration::from_millis(35));
        let waits: Vec<_> = (2..=5).map(|a| p.delay_before(a).as_millis()).collect();
        assert_eq!(waits, [10, 20, 35, 35]);
    }
}
