//! Model errors as activity failures: the library's own judgement (retryable or not, the
//! delay a rate limit asked for) becomes Temporal's retry decision.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use temporalio_common::error::ApplicationFailure;
use temporalio_sdk::activities::ActivityError;
use tool_core::model::{ModelError, ModelErrorKind};

/// A model error's parts, carried in its failure's details so the workflow can give the
/// run's `RunFailed` event the error a local run would have.
#[derive(Debug, Serialize, Deserialize)]
struct ModelFailure {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
}

/// The kinds a model error can have, to read one back from its name.
const KINDS: [ModelErrorKind; 9] = [
    ModelErrorKind::Transport,
    ModelErrorKind::Timeout,
    ModelErrorKind::RateLimited,
    ModelErrorKind::Server,
    ModelErrorKind::Auth,
    ModelErrorKind::InvalidRequest,
    ModelErrorKind::Incomplete,
    ModelErrorKind::Malformed,
    ModelErrorKind::Other,
];

/// The failure type of a model error: `ModelError.<kind>` (e.g. `ModelError.RateLimited`), so
/// it can be told apart in Temporal's UI and in retry policies.
fn type_name(error: &ModelError) -> String {
    format!("ModelError.{:?}", error.kind())
}

/// A model error as the activity's failure: retried by the activity's retry policy when the
/// library says it is retryable (after the provider's `Retry-After` when it gave one), and
/// final when it is not.
pub(crate) fn model(error: ModelError) -> ActivityError {
    let details = ModelFailure {
        kind: error.kind().as_str().to_string(),
        status: error.status(),
        message: error.message().to_string(),
        retry_after_ms: error
            .retry_after()
            .map(|wait| u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)),
    };
    let failure = ApplicationFailure::builder(error.to_string())
        .type_name(type_name(&error))
        .non_retryable(!error.is_retryable())
        .maybe_next_retry_delay(error.retry_after())
        .details(details)
        .build();
    ActivityError::application(failure)
}

/// The model error a failed model activity carried, rebuilt from its failure's details
/// (`None` when the failure did not come from a model error: a timeout, a lost worker).
pub(crate) fn model_error(failure: &ApplicationFailure) -> Option<ModelError> {
    let details: ModelFailure = failure.details().ok().flatten()?;
    let mut error = match details.status {
        Some(status) => ModelError::from_status(status, details.message),
        None => {
            let kind = KINDS
                .into_iter()
                .find(|kind| kind.as_str() == details.kind)
                .unwrap_or(ModelErrorKind::Other);
            ModelError::new(kind, details.message)
        }
    };
    if let Some(ms) = details.retry_after_ms {
        error = error.with_retry_after(Duration::from_millis(ms));
    }
    Some(error)
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
