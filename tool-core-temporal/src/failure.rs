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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use temporalio_sdk::activities::ActivityError;
    use tool_core::model::ModelError;

    fn application(error: ActivityError) -> Box<temporalio_common::error::ApplicationFailure> {
        match error {
            ActivityError::Application(failure) => failure,
            other => panic!("expected an application failure, got {other:?}"),
        }
    }

    #[test]
    fn a_400_is_final() {
        let failure = application(super::model(ModelError::from_status(400, "bad request")));
        assert!(failure.is_non_retryable());
        assert_eq!(failure.type_name(), Some("ModelError.InvalidRequest"));
    }

    #[test]
    fn a_rate_limit_is_retried_after_the_delay_the_provider_asked_for() {
        let error =
            ModelError::from_status(429, "slow down").with_retry_after(Duration::from_secs(7));
        let failure = application(super::model(error));
        assert!(!failure.is_non_retryable());
        assert_eq!(failure.next_retry_delay(), Some(Duration::from_secs(7)));
    }

    #[test]
    fn a_server_error_is_retried_on_the_policy_s_back_off() {
        let failure = application(super::model(ModelError::from_status(503, "overloaded")));
        assert!(!failure.is_non_retryable());
        assert_eq!(failure.next_retry_delay(), None);
    }
}
