//! [`ModelError`]: why a model request did not produce a turn.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::provider::ProviderError;

use super::message::Usage;

/// What kind of failure a [`ModelError`] is; decides the default for
/// [`ModelError::is_retryable`].
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
    /// call is ever handed out. Retryable when the stream broke off; not when the output
    /// limit cut a call (the same request would stop at the same limit).
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
/// own message (or the adapter's), whether retrying may help, how long the provider asked
/// to wait, and the underlying error ([`source`](std::error::Error::source)) when there was
/// one: the transport's error, the [`ProviderError`] of a response that could not be read,
/// the JSON error of a body that did not parse.
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
/// assert_eq!(err.kind(), ModelErrorKind::RateLimited);
/// assert!(err.is_rate_limited() && err.is_retryable());
/// assert_eq!(err.to_string(), "model request failed (rate_limited, HTTP 429): Rate limit reached for gpt-4o; retry after 2s");
/// ```
// Opaque so what an error carries can grow without breaking callers; read it with the methods.
#[derive(Debug, Clone)]
pub struct ModelError {
    kind: ModelErrorKind,
    status: Option<u16>,
    message: String,
    retryable: bool,
    retry_after: Option<Duration>,
    // `Arc` keeps the error `Clone` (a stream hands the same failure to every poll after it).
    source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
    // Tokens the run had used when this request failed, set by the runner and read through
    // `RunError::usage`; not part of the error's identity (equality ignores it).
    run_usage: Usage,
}

impl ModelError {
    /// An error of `kind`, retryable as the kind says.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind};
    /// let e = ModelError::new(ModelErrorKind::Incomplete, "stream ended inside call 'call_2'");
    /// assert!(e.is_retryable() && e.status().is_none());
    /// ```
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> Self {
        ModelError {
            kind,
            status: None,
            message: message.into(),
            retryable: kind.is_retryable(),
            retry_after: None,
            source: None,
            run_usage: Usage::default(),
        }
    }

    /// An error for an HTTP status the provider answered with: 429 is `RateLimited`, 408 a
    /// `Timeout`, 401/403 `Auth`, other 4xx `InvalidRequest`, 5xx (and Anthropic's 529) `Server`.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind};
    /// assert_eq!(ModelError::from_status(529, "Overloaded").kind(), ModelErrorKind::Server);
    /// assert!(!ModelError::from_status(400, "bad").is_retryable());
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
    /// assert_eq!(e.retry_after(), Some(Duration::from_secs(3)));
    /// ```
    pub fn with_retry_after(mut self, wait: Duration) -> Self {
        self.retry_after = Some(wait);
        self
    }

    /// Overrides whether the error is retryable (e.g. a 400 the provider marks transient).
    ///
    /// ```
    /// let e = tool_core::model::ModelError::from_status(400, "x").with_retryable(true);
    /// assert!(e.is_retryable());
    /// ```
    pub fn with_retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }

    /// Keeps the error that caused this one, returned by
    /// [`source`](std::error::Error::source); the message stays as given.
    ///
    /// ```
    /// use std::error::Error;
    /// use tool_core::model::{ModelError, ModelErrorKind};
    ///
    /// let cause = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
    /// let e = ModelError::new(ModelErrorKind::Malformed, "the body is not JSON").with_source(cause);
    /// assert!(e.source().unwrap().is::<serde_json::Error>());
    /// ```
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// What kind of failure this is.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind};
    /// assert_eq!(ModelError::from_status(401, "bad key").kind(), ModelErrorKind::Auth);
    /// ```
    pub fn kind(&self) -> ModelErrorKind {
        self.kind
    }

    /// The HTTP status, when the provider answered with one.
    ///
    /// ```
    /// assert_eq!(tool_core::model::ModelError::from_status(503, "down").status(), Some(503));
    /// ```
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The provider's own error message, unchanged, or the adapter's description.
    ///
    /// ```
    /// assert_eq!(tool_core::model::ModelError::from_status(400, "unknown model").message(), "unknown model");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the same request may succeed later.
    ///
    /// ```
    /// assert!(tool_core::model::ModelError::from_status(503, "down").is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }

    /// How long the provider asked to wait (`Retry-After`, `retry-after-ms`, `retryDelay`).
    ///
    /// ```
    /// assert_eq!(tool_core::model::ModelError::from_status(429, "slow down").retry_after(), None);
    /// ```
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }

    /// Whether the provider refused for too many requests or tokens (HTTP 429).
    ///
    /// ```
    /// assert!(tool_core::model::ModelError::from_status(429, "slow down").is_rate_limited());
    /// ```
    pub fn is_rate_limited(&self) -> bool {
        self.kind == ModelErrorKind::RateLimited
    }

    /// Whether the key is missing, wrong, or lacks access (HTTP 401 / 403).
    ///
    /// ```
    /// assert!(tool_core::model::ModelError::from_status(403, "no access").is_auth());
    /// ```
    pub fn is_auth(&self) -> bool {
        self.kind == ModelErrorKind::Auth
    }

    /// Whether the request or the wait for the next streamed event took too long.
    ///
    /// ```
    /// assert!(tool_core::model::ModelError::from_status(408, "timeout").is_timeout());
    /// ```
    pub fn is_timeout(&self) -> bool {
        self.kind == ModelErrorKind::Timeout
    }

    /// Whether the request itself is wrong (unknown model, context too long, bad schema).
    ///
    /// ```
    /// assert!(tool_core::model::ModelError::from_status(400, "bad schema").is_invalid_request());
    /// ```
    pub fn is_invalid_request(&self) -> bool {
        self.kind == ModelErrorKind::InvalidRequest
    }

    /// The run's tokens when this request failed (see `RunError::usage`).
    pub(crate) fn run_usage(&self) -> Usage {
        self.run_usage
    }

    pub(crate) fn set_run_usage(&mut self, usage: Usage) {
        self.run_usage = usage;
    }
}

/// Equal when everything but the [`source`](std::error::Error::source) and the run's usage
/// is equal (errors rarely implement `PartialEq`).
impl PartialEq for ModelError {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.status == other.status
            && self.message == other.message
            && self.retryable == other.retryable
            && self.retry_after == other.retry_after
    }
}

impl Eq for ModelError {}

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

impl std::error::Error for ModelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// A response that could not be read is `Malformed`, naming the JSON path; the
/// [`ProviderError`] is its source.
///
/// ```
/// use std::error::Error;
/// use tool_core::model::{ModelError, ModelErrorKind};
/// use tool_core::provider::ProviderError;
///
/// let e: ModelError = ProviderError::new("choices", "expected an array").into();
/// assert_eq!((e.kind(), e.message()), (ModelErrorKind::Malformed, "choices: expected an array"));
/// assert!(e.source().unwrap().is::<ProviderError>());
/// ```
impl From<ProviderError> for ModelError {
    fn from(error: ProviderError) -> Self {
        ModelError::new(ModelErrorKind::Malformed, error.to_string()).with_source(error)
    }
}
