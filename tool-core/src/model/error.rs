//! [`ModelError`]: why a model request did not produce a turn.

use std::fmt;
use std::time::Duration;

use crate::provider::ProviderError;

/// What kind of failure a [`ModelError`] is; decides the default for
/// [`ModelError::retryable`].
///
/// ```
/// use tool_core::model::ModelErrorKind;
/// assert!(ModelErrorKind::RateLimited.is_retryable());
/// assert!(!ModelErrorKind::InvalidRequest.is_retryable());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModelErrorKind {
    /// No response: the connection failed or was reset before a status arrived.
    Transport,
    /// The request (or the wait for the next streamed event) took too long.
    Timeout,
    /// HTTP 429: too many requests or tokens; see [`ModelError::retry_after`].
    RateLimited,
    /// HTTP 5xx or an "overloaded" error from the provider.
    Server,
    /// HTTP 401 / 403: the key is missing, wrong, or lacks access.
    Auth,
    /// Any other 4xx: the request itself is wrong (unknown model, context too long, bad schema).
    InvalidRequest,
    /// The stream ended before the turn was complete (e.g. cut inside a call). No partial
    /// call is ever handed out.
    Incomplete,
    /// The provider answered with something that does not have the documented shape.
    Malformed,
    /// Anything else (an adapter's own failure).
    Other,
}

impl ModelErrorKind {
    /// Whether sending the same request again may succeed.
    ///
    /// ```
    /// use tool_core::model::ModelErrorKind;
    /// assert!(ModelErrorKind::Server.is_retryable());
    /// assert!(!ModelErrorKind::Auth.is_retryable());
    /// ```
    pub const fn is_retryable(self) -> bool {
        matches!(
            self,
            ModelErrorKind::Transport
                | ModelErrorKind::Timeout
                | ModelErrorKind::RateLimited
                | ModelErrorKind::Server
                | ModelErrorKind::Incomplete
        )
    }

    /// A short name for logs, e.g. `"rate_limited"`.
    ///
    /// ```
    /// assert_eq!(tool_core::model::ModelErrorKind::RateLimited.as_str(), "rate_limited");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ModelErrorKind::Transport => "transport",
            ModelErrorKind::Timeout => "timeout",
            ModelErrorKind::RateLimited => "rate_limited",
            ModelErrorKind::Server => "server",
            ModelErrorKind::Auth => "auth",
            ModelErrorKind::InvalidRequest => "invalid_request",
            ModelErrorKind::Incomplete => "incomplete",
            ModelErrorKind::Malformed => "malformed",
            ModelErrorKind::Other => "other",
        }
    }
}

/// A model request that failed: the kind, the HTTP status if there was one, the provider's
/// own message (or the adapter's), whether retrying may help, and how long the provider asked
/// to wait.
///
/// Adapters retry retryable errors themselves (with back-off and a cap) only before they have
/// yielded any event of the turn: once text has reached the application, a retry would repeat
/// it. The runner never retries a model request after it has run a tool of that turn; it
/// returns the error to the application.
///
/// ```
/// use std::time::Duration;
/// use tool_core::model::{ModelError, ModelErrorKind};
///
/// let err = ModelError::from_status(429, "Rate limit reached for gpt-4o")
///     .with_retry_after(Duration::from_secs(2));
/// assert_eq!(err.kind, ModelErrorKind::RateLimited);
/// assert!(err.retryable);
/// assert_eq!(err.to_string(), "model request failed (rate_limited, HTTP 429): Rate limit reached for gpt-4o; retry after 2s");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// What kind of failure.
    pub kind: ModelErrorKind,
    /// The HTTP status, when the provider answered with one.
    pub status: Option<u16>,
    /// The provider's own error message, unchanged, or the adapter's description.
    pub message: String,
    /// Whether the same request may succeed later.
    pub retryable: bool,
    /// How long the provider asked to wait (`Retry-After`, `retry-after-ms`, `retryDelay`).
    pub retry_after: Option<Duration>,
}

impl ModelError {
    /// An error of `kind`, retryable as the kind says.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind};
    /// let e = ModelError::new(ModelErrorKind::Incomplete, "stream ended inside call 'call_2'");
    /// assert!(e.retryable && e.status.is_none());
    /// ```
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            kind,
            status: None,
            message: message.into(),
            retryable: kind.is_retryable(),
            retry_after: None,
        }
    }

    /// An error for an HTTP status the provider answered with: 429 is `RateLimited`, 408 a
    /// `Timeout`, 401/403 `Auth`, other 4xx `InvalidRequest`, 5xx (and Anthropic's 529) `Server`.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind};
    /// assert_eq!(ModelError::from_status(529, "Overloaded").kind, ModelErrorKind::Server);
    /// assert!(!ModelError::from_status(400, "bad").retryable);
    /// ```
    pub fn from_status(status: u16, message: impl Into<String>) -> Self {
        let kind = match status {
            429 => ModelErrorKind::RateLimited,
            408 => ModelErrorKind::Timeout,
            401 | 403 => ModelErrorKind::Auth,
            400..=499 => ModelErrorKind::InvalidRequest,
            500..=599 => ModelErrorKind::Server,
            _ => ModelErrorKind::Other,
        };
        ModelError {
            status: Some(status),
            ..ModelError::new(kind, message)
        }
    }

    /// Sets how long to wait before retrying.
    ///
    /// ```
    /// use std::time::Duration;
    /// let e = tool_core::model::ModelError::from_status(429, "slow down").with_retry_after(Duration::from_secs(3));
    /// assert_eq!(e.retry_after, Some(Duration::from_secs(3)));
    /// ```
    pub fn with_retry_after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }

    /// Overrides whether the error is retryable (e.g. a 400 the provider marks transient).
    ///
    /// ```
    /// let e = tool_core::model::ModelError::from_status(400, "x").with_retryable(true);
    /// assert!(e.retryable);
    /// ```
    pub fn with_retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model request failed ({}", self.kind.as_str())?;
        if let Some(status) = self.status {
            write!(f, ", HTTP {status}")?;
        }
        write!(f, "): {}", self.message)?;
        if let Some(wait) = self.retry_after {
            write!(f, "; retry after {wait:?}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ModelError {}

/// A response that could not be read is `Malformed`, naming the JSON path.
///
/// ```
/// use tool_core::model::{ModelError, ModelErrorKind};
/// let e: ModelError = tool_core::provider::ProviderError::new("choices", "expected an array").into();
/// assert_eq!((e.kind, e.message.as_str()), (ModelErrorKind::Malformed, "choices: expected an array"));
/// ```
impl From<ProviderError> for ModelError {
    fn from(error: ProviderError) -> Self {
        ModelError::new(ModelErrorKind::Malformed, error.to_string())
    }
}
