//! [`RunError`]: why a run stopped without an outcome.

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::call::ToolCall;
use crate::model::{ModelError, Usage};

/// Why a run could not go on. The run's state is left as it was before the failing step, so
/// [`Runner::drive`](super::Runner::drive) can be called again on it (after a model error, or
/// with a higher limit).
///
/// The errors a run fails with after it has spent tokens carry the run's usage up to the
/// failure ([`RunError::usage`]), so a failed run can still be billed and reported.
///
/// ```
/// use tool_core::model::Usage;
/// let err = tool_core::runner::RunError::MaxTurns { limit: 10, usage: Usage::new(900, 40) };
/// assert_eq!(err.to_string(), "the run reached its limit of 10 model turns without a final answer; raise RunOptions::max_turns or give the model a way to finish");
/// assert_eq!(err.usage().total(), 940);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The model asked for another turn after `limit` turns.
    MaxTurns {
        /// The limit that was reached.
        limit: u32,
        /// Tokens the run had used when it stopped.
        usage: Usage,
    },
    /// The model's typed answer (see [`RunOptions::output`](super::RunOptions::output)) was
    /// still invalid after the allowed retries.
    OutputInvalid {
        /// Invalid answers given.
        attempts: u32,
        /// What was wrong with the last one: the decoding error (what, and where in the
        /// answer), not the message sent back to the model.
        message: String,
        /// Tokens the run had used, the invalid answers' turns included.
        usage: Usage,
    },
    /// [`Runner::run_typed`](super::Runner::run_typed) ended without the typed answer (the
    /// run paused for approval or was cancelled); use [`Runner::run`](super::Runner::run)
    /// with [`RunOptions::output`](super::RunOptions::output) to keep such a run.
    NoOutput {
        /// How the run ended instead, e.g. "it waits for approval".
        reason: String,
    },
    /// The model request failed; see [`ModelError::is_retryable`].
    Model(ModelError),
    /// The run reached one of its [`UsageLimits`](super::UsageLimits) before the step that
    /// would cross it.
    UsageLimit {
        /// The limit reached.
        limit: UsageLimit,
        /// What the run had used of it.
        used: u64,
        /// Tokens the run had used when it stopped.
        usage: Usage,
    },
    /// The run is paused for approval, so it has no final text yet (from
    /// [`RunResult::final_text`](super::RunResult::final_text)): decide the calls, then resume.
    AwaitingApproval {
        /// The calls waiting, in call order.
        calls: Vec<ToolCall>,
    },
    /// [`RunOptions::offered`](super::RunOptions::offered) names a tool the registry does not
    /// have.
    UnknownOfferedTool {
        /// The name.
        name: String,
    },
    /// The registry has a tool whose name the run needs for a tool of its own: `search_tools`,
    /// which the run offers when some tools are deferred and the model has no tool search
    /// of its own. Rename the registry's tool.
    ReservedToolName {
        /// The name.
        name: String,
    },
    /// An approval decision named a call that is not waiting for one.
    NotPending {
        /// The call id given.
        call_id: String,
    },
    /// A step's input arrived while the run expected something else (e.g. tool results
    /// while it waits for a model turn).
    OutOfOrder {
        /// What was given.
        given: &'static str,
        /// What the run expected.
        expected: &'static str,
    },
}

impl RunError {
    /// A short name for logs and event streams, e.g. `"max_turns"`.
    ///
    /// ```
    /// use tool_core::{model::Usage, runner::RunError};
    /// let error = RunError::MaxTurns { limit: 1, usage: Usage::default() };
    /// assert_eq!(error.kind(), "max_turns");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::MaxTurns { .. } => "max_turns",
            RunError::Model(_) => "model",
            RunError::OutputInvalid { .. } => "output_invalid",
            RunError::NoOutput { .. } => "no_output",
            RunError::UsageLimit { .. } => "usage_limit",
            RunError::AwaitingApproval { .. } => "awaiting_approval",
            RunError::UnknownOfferedTool { .. } => "unknown_offered_tool",
            RunError::ReservedToolName { .. } => "reserved_tool_name",
            RunError::NotPending { .. } => "not_pending",
            RunError::OutOfOrder { .. } => "out_of_order",
        }
    }

    /// The HTTP status of the model error inside, if any.
    ///
    /// ```
    /// use tool_core::{model::ModelError, runner::RunError};
    /// assert_eq!(RunError::from(ModelError::from_status(429, "slow down")).status(), Some(429));
    /// let limit = RunError::MaxTurns { limit: 3, usage: tool_core::model::Usage::default() };
    /// assert_eq!(limit.status(), None);
    /// ```
    pub fn status(&self) -> Option<u16> {
        match self {
            RunError::Model(error) => error.status(),
            _ => None,
        }
    }

    /// Whether driving the run again unchanged may succeed: only a retryable model error
    /// (a rate limit, an overloaded server, a broken connection). Limits, approvals and
    /// misuse need a change first.
    ///
    /// ```
    /// use tool_core::{model::ModelError, runner::RunError};
    /// assert!(RunError::from(ModelError::from_status(503, "overloaded")).is_retryable());
    /// assert!(!RunError::from(ModelError::from_status(401, "bad key")).is_retryable());
    /// let limit = RunError::MaxTurns { limit: 3, usage: tool_core::model::Usage::default() };
    /// assert!(!limit.is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        matches!(self, RunError::Model(error) if error.is_retryable())
    }

    /// Tokens the run had used when it failed: every model turn that completed, the turns of
    /// invalid typed answers included. Zero for errors raised before the run spent anything
    /// (misuse, an unknown offered tool) and for a [`RunError::Model`] built outside a run.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelTurn, ScriptedModel, Usage};
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let calls = ModelTurn::with_calls("", vec![ToolCall::new("c1", "hi", "{}")]);
    /// let model = ScriptedModel::from_results([
    ///     Ok(ModelTurn { usage: Some(Usage::new(120, 30)), ..calls }),
    ///     Err(ModelError::from_status(503, "overloaded")),
    /// ]);
    /// let runner = Runner::new(model, tools![hi]);
    /// let error = tool_core::block_on(runner.run("Hello")).unwrap_err();
    /// assert_eq!(error.status(), Some(503));
    /// assert_eq!(error.usage(), Usage::new(120, 30)); // the first turn's tokens
    /// ```
    pub fn usage(&self) -> Usage {
        match self {
            RunError::MaxTurns { usage, .. }
            | RunError::OutputInvalid { usage, .. }
            | RunError::UsageLimit { usage, .. } => *usage,
            RunError::Model(error) => error.run_usage(),
            _ => Usage::default(),
        }
    }

    /// The same error with the run's usage at the failure (the driver knows it; the step
    /// that failed may not have).
    pub(crate) fn with_usage(mut self, total: Usage) -> Self {
        match &mut self {
            RunError::MaxTurns { usage, .. }
            | RunError::OutputInvalid { usage, .. }
            | RunError::UsageLimit { usage, .. } => *usage = total,
            RunError::Model(error) => error.set_run_usage(total),
            _ => {}
        }
        self
    }

    /// The model error inside, if the run failed on one.
    ///
    /// ```
    /// use tool_core::{model::{ModelError, ModelErrorKind}, runner::RunError};
    /// let error = RunError::from(ModelError::from_status(500, "oops"));
    /// assert_eq!(error.model_error().map(|e| e.kind()), Some(ModelErrorKind::Server));
    /// ```
    pub fn model_error(&self) -> Option<&ModelError> {
        match self {
            RunError::Model(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::MaxTurns { limit, .. } => write!(
                f,
                "the run reached its limit of {limit} model turns without a final answer; raise \
                 RunOptions::max_turns or give the model a way to finish"
            ),
            RunError::Model(error) => error.fmt(f),
            RunError::OutputInvalid {
                attempts, message, ..
            } => write!(
                f,
                "the model gave {attempts} invalid final answers; the last: {message}; raise \
                 OutputSpec::max_retries or simplify the output type"
            ),
            RunError::NoOutput { reason } => {
                write!(f, "the run ended without its typed answer: {reason}")
            }
            RunError::UsageLimit { limit, used, .. } => write!(
                f,
                "the run reached its limit of {limit} (used {used}); raise UsageLimits::{} to \
                 let it go on",
                limit.name()
            ),
            RunError::AwaitingApproval { calls } => {
                let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                write!(
                    f,
                    "the run is paused: {} call(s) wait for approval ({}); decide them with \
                     Run::decide, then resume the run",
                    calls.len(),
                    names.join(", ")
                )
            }
            RunError::UnknownOfferedTool { name } => write!(
                f,
                "RunOptions::offered names '{name}', which is not in the registry"
            ),
            RunError::ReservedToolName { name } => write!(
                f,
                "the registry has a tool named '{name}', the name of the tool the run offers to \
                 search deferred tools; rename that tool (or defer no tool)"
            ),
            RunError::NotPending { call_id } => {
                write!(f, "no call with id '{call_id}' is waiting for approval")
            }
            RunError::OutOfOrder { given, expected } => {
                write!(f, "the run was given {given} while it expected {expected}")
            }
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Model(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ModelError> for RunError {
    fn from(error: ModelError) -> Self {
        RunError::Model(error)
    }
}

/// `{"kind": "...", "message": "...", "retryable": bool}`, plus the model error's
/// `"model_kind"`, `"status"` and `"retry_after_ms"` when it has them: what an event stream
/// shows.
///
/// ```
/// use tool_core::{model::ModelError, runner::RunError};
/// let error = RunError::from(ModelError::from_status(429, "Rate limit reached"));
/// let json = serde_json::to_value(&error).unwrap();
/// assert_eq!((json["kind"].as_str(), json["status"].as_u64(), json["retryable"].as_bool()),
///            (Some("model"), Some(429), Some(true)));
/// assert_eq!(json["model_kind"], "rate_limited");
/// ```
impl Serialize for RunError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let model = self.model_error();
        let fields = 3
            + usize::from(model.is_some())
            + usize::from(self.status().is_some())
            + usize::from(model.and_then(ModelError::retry_after).is_some());
        let mut out = s.serialize_struct("RunError", fields)?;
        out.serialize_field("kind", self.kind())?;
        out.serialize_field("message", &self.to_string())?;
        out.serialize_field("retryable", &self.is_retryable())?;
        if let Some(model) = model {
            out.serialize_field("model_kind", model.kind().as_str())?;
        }
        if let Some(status) = self.status() {
            out.serialize_field("status", &status)?;
        }
        if let Some(wait) = model.and_then(ModelError::retry_after) {
            let millis = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
            out.serialize_field("retry_after_ms", &millis)?;
        }
        out.end()
    }
}

/// Which [`UsageLimits`](super::UsageLimits) cap a run reached, with its value.
///
/// ```
/// use tool_core::runner::UsageLimit;
/// assert_eq!(UsageLimit::Requests(3).to_string(), "3 model requests");
/// assert_eq!(UsageLimit::ToolCalls(5).name(), "tool_calls");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum UsageLimit {
    /// [`UsageLimits::requests`](super::UsageLimits::requests).
    Requests(u32),
    /// [`UsageLimits::total_tokens`](super::UsageLimits::total_tokens).
    TotalTokens(u64),
    /// [`UsageLimits::tool_calls`](super::UsageLimits::tool_calls).
    ToolCalls(u32),
}

impl UsageLimit {
    /// The limit's field name in [`UsageLimits`](super::UsageLimits).
    ///
    /// ```
    /// assert_eq!(tool_core::runner::UsageLimit::TotalTokens(10).name(), "total_tokens");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            UsageLimit::Requests(_) => "requests",
            UsageLimit::TotalTokens(_) => "total_tokens",
            UsageLimit::ToolCalls(_) => "tool_calls",
        }
    }
}

impl fmt::Display for UsageLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageLimit::Requests(n) => write!(f, "{n} model requests"),
            UsageLimit::TotalTokens(n) => write!(f, "{n} tokens"),
            UsageLimit::ToolCalls(n) => write!(f, "{n} tool calls"),
        }
    }
}
