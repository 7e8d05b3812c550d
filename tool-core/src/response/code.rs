//! What kind of outcome a call had: its status, and for errors the standard code and message.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Outcome class of a tool call.
///
/// ```
/// use tool_core::ToolStatus;
/// assert_eq!(serde_json::to_string(&ToolStatus::Partial).unwrap(), "\"PARTIAL\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ToolStatus {
    /// The task ran completely as intended.
    Success,
    /// A usable result with a caveat: truncated, a fallback was used, part of the work failed.
    Partial,
    /// No usable result.
    Error,
}

impl ToolStatus {
    /// The wire spelling: `"SUCCESS"`, `"PARTIAL"` or `"ERROR"`.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolStatus::Error.as_str(), "ERROR");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolStatus::Success => "SUCCESS",
            ToolStatus::Partial => "PARTIAL",
            ToolStatus::Error => "ERROR",
        }
    }
}

impl fmt::Display for ToolStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident => $wire:literal, retryable: $retry:literal;)*) => {
        /// The fifteen standard error codes of the `ToolResponse` protocol.
        ///
        /// ```
        /// use tool_core::ToolErrorCode;
        /// assert_eq!(ToolErrorCode::NotFound.as_str(), "NOT_FOUND");
        /// assert_eq!(ToolErrorCode::ALL.len(), 15);
        /// assert!(ToolErrorCode::Timeout.is_retryable());
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
        pub enum ToolErrorCode {
            $($(#[$doc])* $variant,)*
        }

        impl ToolErrorCode {
            /// Every code, in the order the protocol lists them.
            pub const ALL: [ToolErrorCode; 15] = [$(ToolErrorCode::$variant,)*];

            /// The wire spelling, e.g. `"INVALID_PARAM"`.
            pub const fn as_str(self) -> &'static str {
                match self { $(ToolErrorCode::$variant => $wire,)* }
            }

            /// Whether the same call may succeed if tried again later (timeouts, rate limits,
            /// network and availability problems). Retry policies and circuit breakers count
            /// only these.
            pub const fn is_retryable(self) -> bool {
                match self { $(ToolErrorCode::$variant => $retry,)* }
            }
        }
    };
}

error_codes! {
    /// The resource does not exist.
    NotFound => "NOT_FOUND", retryable: false;
    /// The resource already exists.
    AlreadyExists => "ALREADY_EXISTS", retryable: false;
    /// The caller may not do this.
    PermissionDenied => "PERMISSION_DENIED", retryable: false;
    /// An argument is missing, of the wrong type, or out of range.
    InvalidParam => "INVALID_PARAM", retryable: false;
    /// The input is not in the expected format (e.g. not JSON).
    InvalidFormat => "INVALID_FORMAT", retryable: false;
    /// The tool failed while running.
    ExecutionError => "EXECUTION_ERROR", retryable: false;
    /// The tool did not finish in time.
    Timeout => "TIMEOUT", retryable: true;
    /// A conflicting concurrent change (optimistic locking).
    Conflict => "CONFLICT", retryable: false;
    /// The circuit breaker is open: the tool failed repeatedly and is resting.
    CircuitOpen => "CIRCUIT_OPEN", retryable: false;
    /// Too many calls; slow down.
    RateLimit => "RATE_LIMIT", retryable: true;
    /// A network failure.
    NetworkError => "NETWORK_ERROR", retryable: true;
    /// A dependency is unavailable.
    ServiceUnavailable => "SERVICE_UNAVAILABLE", retryable: true;
    /// Some parts succeeded and some failed.
    PartialSuccess => "PARTIAL_SUCCESS", retryable: false;
    /// The tool or an option is deprecated.
    Deprecated => "DEPRECATED", retryable: false;
    /// Anything else.
    Unknown => "UNKNOWN", retryable: false;
}

impl fmt::Display for ToolErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `error_info` of an `ERROR` response.
///
/// ```
/// use tool_core::{ErrorInfo, ToolErrorCode};
/// let info = ErrorInfo { code: ToolErrorCode::Timeout, message: "took over 5s".into() };
/// assert_eq!(serde_json::to_string(&info).unwrap(), r#"{"code":"TIMEOUT","message":"took over 5s"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// The standard code.
    pub code: ToolErrorCode,
    /// What went wrong, where, and what to do about it.
    pub message: String,
}
