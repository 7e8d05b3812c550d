//! [`UsageLimits`]: what one run may spend, checked before each step that would spend more.

use serde::{Deserialize, Serialize};

use crate::model::Usage;

use super::error::{RunError, UsageLimit};

/// Caps on one run: model requests, total tokens (input plus output, summed over the run's
/// turns), and tool calls. A run that would cross one ends with
/// [`RunError::UsageLimit`] naming it:
///
/// - requests: before the request that would be one too many;
/// - total tokens: before the next request once the total has reached the cap, and before a
///   turn's calls run when that turn took the total past it (a turn's size is only known
///   after it);
/// - tool calls: before a turn's calls run when they would take the count past the cap.
///
/// The run is left as it was before the step, so raising the limit
/// ([`Run::options_mut`](super::Run::options_mut)) and driving it again continues it.
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel, Usage};
/// use tool_core::runner::{RunError, RunOptions, Runner, UsageLimit, UsageLimits};
/// let turn = ModelTurn { usage: Some(Usage::new(900, 200)), ..ModelTurn::text("Hi!") };
/// let runner = Runner::new(ScriptedModel::new([turn]), tool_core::ToolRegistry::new())
///     .with_options(RunOptions::new().usage_limits(UsageLimits::new().total_tokens(1000)));
/// let mut run = runner.start("Hello");
/// tool_core::block_on(runner.drive(&mut run, &tool_core::CancelFlag::new())).unwrap();
/// assert_eq!(run.usage().total(), 1100); // the one turn was already asked for
/// run.follow_up("Again").unwrap();
/// let error = tool_core::block_on(runner.drive(&mut run, &tool_core::CancelFlag::new())).unwrap_err();
/// let usage = Usage::new(900, 200);
/// assert_eq!(error, RunError::UsageLimit { limit: UsageLimit::TotalTokens(1000), used: 1100, usage });
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct UsageLimits {
    /// At most this many model requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<u32>,
    /// At most this many tokens (input plus output) over the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// At most this many tool calls run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<u32>,
}

impl UsageLimits {
    /// No limits.
    ///
    /// ```
    /// assert!(tool_core::runner::UsageLimits::new().requests.is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Caps the model requests.
    ///
    /// ```
    /// assert_eq!(tool_core::runner::UsageLimits::new().requests(3).requests, Some(3));
    /// ```
    pub fn requests(mut self, limit: u32) -> Self {
        self.requests = Some(limit);
        self
    }

    /// Caps the tokens (input plus output) of the whole run.
    ///
    /// ```
    /// assert_eq!(tool_core::runner::UsageLimits::new().total_tokens(50_000).total_tokens, Some(50_000));
    /// ```
    pub fn total_tokens(mut self, limit: u64) -> Self {
        self.total_tokens = Some(limit);
        self
    }

    /// Caps the tool calls run.
    ///
    /// ```
    /// assert_eq!(tool_core::runner::UsageLimits::new().tool_calls(20).tool_calls, Some(20));
    /// ```
    pub fn tool_calls(mut self, limit: u32) -> Self {
        self.tool_calls = Some(limit);
        self
    }

    /// Before a model request: the request count and the tokens so far.
    pub(crate) fn check_request(&self, requests: u32, usage: Usage) -> Result<(), RunError> {
        if let Some(limit) = self.requests.filter(|&limit| requests >= limit) {
            return Err(RunError::UsageLimit {
                limit: UsageLimit::Requests(limit),
                used: requests.into(),
                usage,
            });
        }
        if let Some(limit) = self.total_tokens.filter(|&limit| usage.total() >= limit) {
            return Err(RunError::UsageLimit {
                limit: UsageLimit::TotalTokens(limit),
                used: usage.total(),
                usage,
            });
        }
        Ok(())
    }

    /// Before a turn's calls run: the calls run so far, this batch, the tokens so far.
    pub(crate) fn check_tools(
        &self,
        made: u32,
        batch: usize,
        usage: Usage,
    ) -> Result<(), RunError> {
        if let Some(limit) = self.total_tokens.filter(|&limit| usage.total() > limit) {
            return Err(RunError::UsageLimit {
                limit: UsageLimit::TotalTokens(limit),
                used: usage.total(),
                usage,
            });
        }
        let after = u64::from(made).saturating_add(batch as u64);
        if let Some(limit) = self.tool_calls.filter(|&limit| after > u64::from(limit)) {
            return Err(RunError::UsageLimit {
                limit: UsageLimit::ToolCalls(limit),
                used: made.into(),
                usage,
            });
        }
        Ok(())
    }
}
