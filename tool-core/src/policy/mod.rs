//! What the application configured for dispatch: argument and output limits, time limits,
//! circuit breakers, retries and the approval hook. The registry holds these settings and the
//! per-tool state; the dispatch path (`dispatch`) reads them. Nothing here knows about either,
//! so the modules depend one way: `dispatch` -> `registry` -> `policy`.

mod approval;
mod breaker;
mod limits;
mod retry;

use std::sync::Arc;
use std::time::Duration;

pub use approval::{Approval, ApprovalHook};
pub use breaker::{BreakerConfig, CircuitState};
pub use limits::Limits;
pub use retry::RetryPolicy;

pub(crate) use approval::review;
pub(crate) use breaker::Breaker;
pub(crate) use limits::cap_output;
pub(crate) use retry::run as run_with_retries;

/// Registry-wide dispatch settings. Cheap to check: every optional mechanism is an `Option`.
#[derive(Clone, Default)]
pub(crate) struct Policy {
    pub(crate) limits: Limits,
    pub(crate) default_timeout: Option<Duration>,
    pub(crate) breaker: Option<BreakerConfig>,
    pub(crate) approval: Option<Arc<dyn ApprovalHook>>,
}
