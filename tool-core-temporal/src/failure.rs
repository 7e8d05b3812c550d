//! Model errors as activity failures: the library's own judgement (retryable or not, the
//! delay a rate limit asked for) becomes Temporal's retry decision.

use temporalio_common::error::ApplicationFailure;
use temporalio_sdk::activities::ActivityError;
use tool_core::model::ModelError;

/// The failure type of a model error: `ModelError.<kind>` (e.g. `ModelError.RateLimited`), so
/// it can be told apart in Temporal's UI and in retry policies.
fn type_name(error: &ModelError) -> String {
    format!("ModelError.{:?}", error.kind())
}

/// A model error as the activity's failure: retried by the activity's retry policy when the
/// library says it is retryable (after the provider's `Retry-After` when it gave one), and
/// final when it is not.
pub(crate) fn model(error: ModelError) -> ActivityError {
    let failure = ApplicationFailure::builder(error.to_string())
        .type_name(type_name(&error))
        .non_retryable(!error.is_retryable())
        .maybe_next_retry_delay(error.retry_after())
        .build();
    ActivityError::application(failure)
}

/// A failure that no retry can fix.
pub(crate) fn non_retryable(kind: impl Into<String>, message: impl Into<String>) -> ActivityError {
    let failure = ApplicationFailure::builder(message.into())
        .type_name(kind.into())
        .non_retryable(true)
        .build();
    ActivityError::application(failure)
}
