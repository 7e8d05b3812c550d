//! [`RunError`]: why a run stopped without an outcome.

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::model::ModelError;

/// Why a run could not go on. The run's state is left as it was before the failing step, so
/// [`Runner::drive`](super::Runner::drive) can be called again on it (after a model error, or
/// with a higher limit).
///
/// ```
/// let err = tool_core::runner::RunError::MaxTurns { limit: 10 };
/// assert_eq!(err.to_string(), "the run reached its limit of 10 model turns without a final answer; raise RunOptions::max_turns or give the model a way to finish");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The model asked for another turn after `limit` turns.
    MaxTurns {
        /// The limit that was reached.
        limit: u32,
    },
    /// The model's typed answer (see [`RunOptions::output`](super::RunOptions::output)) was
    /// still invalid after the allowed retries.
    OutputInvalid {
        /// Invalid answers given.
        attempts: u32,
        /// What was wrong with the last one.
        message: String,
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
    /// [`RunOptions::offered`](super::RunOptions::offered) names a tool the registry does not
    /// have.
    UnknownOfferedTool {
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
    /// assert_eq!(tool_core::runner::RunError::MaxTurns { limit: 1 }.kind(), "max_turns");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::MaxTurns { .. } => "max_turns",
            RunError::Model(_) => "model",
            RunError::OutputInvalid { .. } => "output_invalid",
            RunError::NoOutput { .. } => "no_output",
            RunError::UnknownOfferedTool { .. } => "unknown_offered_tool",
            RunError::NotPending { .. } => "not_pending",
            RunError::OutOfOrder { .. } => "out_of_order",
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::MaxTurns { limit } => write!(
                f,
                "the run reached its limit of {limit} model turns without a final answer; raise \
                 RunOptions::max_turns or give the model a way to finish"
            ),
            RunError::Model(error) => error.fmt(f),
            RunError::OutputInvalid { attempts, message } => write!(
                f,
                "the model gave {attempts} invalid final answers; the last: {message} Raise \
                 OutputSpec::max_retries or simplify the output type"
            ),
            RunError::NoOutput { reason } => {
                write!(f, "the run ended without its typed answer: {reason}")
            }
            RunError::UnknownOfferedTool { name } => write!(
                f,
                "RunOptions::offered names '{name}', which is not in the registry"
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

/// `{"kind": "...", "message": "...", "retryable": bool}`: what an event stream shows.
impl Serialize for RunError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("RunError", 3)?;
        out.serialize_field("kind", self.kind())?;
        out.serialize_field("message", &self.to_string())?;
        let retryable = matches!(self, RunError::Model(e) if e.is_retryable());
        out.serialize_field("retryable", &retryable)?;
        out.end()
    }
}
