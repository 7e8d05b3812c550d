//! [`HttpError`]: why a request got no success response. The model adapters turn it into
//! their own error type; this module knows nothing about models.

use std::fmt;
use std::time::Duration;

/// Why sending a request failed, before any of its body was read.
#[derive(Debug)]
pub(crate) enum HttpError {
    /// No status line: the connection failed (`timeout: false`) or did not answer in time.
    Transport {
        /// Whether it was a time-out.
        timeout: bool,
        /// The error with its sources.
        message: String,
        /// The client's own error, kept so the model error's `source()` can hand it on.
        source: Option<reqwest::Error>,
    },
    /// A non-success status with the provider's own message, and how long it asked to wait.
    Status {
        /// The HTTP status.
        status: u16,
        /// The provider's message (or the body's text).
        message: String,
        /// `Retry-After` (or Gemini's `retryDelay`), when given.
        retry_after: Option<Duration>,
    },
    /// A configured header is not a valid HTTP header.
    BadHeader(String),
    /// The HTTP client could not be built (with the client's own error, when there is one).
    Client(String, Option<reqwest::Error>),
}

impl HttpError {
    /// Whether sending again may succeed: transport failures, 408, 429 and 5xx.
    pub(crate) fn is_retryable(&self) -> bool {
        match self {
            HttpError::Transport { .. } => true,
            HttpError::Status { status, .. } => matches!(status, 408 | 429 | 500..=599),
            HttpError::BadHeader(_) | HttpError::Client(..) => false,
        }
    }

    /// How long the provider asked to wait before sending again.
    pub(crate) fn retry_after(&self) -> Option<Duration> {
        match self {
            HttpError::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Transport { message, .. }
            | HttpError::Status { message, .. }
            | HttpError::BadHeader(message)
            | HttpError::Client(message, _) => f.write_str(message),
        }
    }
}
