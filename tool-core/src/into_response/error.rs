//! [`ToolError`], and how any error a tool returns becomes the code and message the model reads.
//!
//! `ToolError` is an ordinary `std::error::Error`, so it travels inside an `anyhow::Error` or a
//! `Box<dyn Error + Send + Sync>` like any other error and is found again by downcasting: a
//! tool written with `anyhow` picks a code with `Err(ToolError::not_found(..))?` and keeps it
//! through `.context(..)`. The message is the whole chain of causes (`source()`), so the model
//! reads "reading config: file missing" rather than only the outermost context.

use std::any::Any;
use std::error::Error;
use std::fmt;

use crate::response::ToolErrorCode;

/// How many causes of one error are read: a guard against a `source()` chain that never ends
/// (a cycle is a bug in the error type, but it must not hang the call).
const MAX_CHAIN: usize = 32;

/// An error a tool returns on purpose: a standard code and a message for the model.
///
/// The code also tells the runtime whether trying again may help: `TIMEOUT`, `RATE_LIMIT`,
/// `NETWORK_ERROR` and `SERVICE_UNAVAILABLE` are retryable (see
/// [`ToolErrorCode::is_retryable`]), so a [`RetryPolicy`](crate::RetryPolicy) repeats those
/// calls and the model reads that the failure is transient; the other codes are final.
///
/// A tool may return `Result<T, ToolError>`, or any other error type with a `ToolError`
/// somewhere in its chain: the first one found gives the code.
///
/// ```
/// use tool_core::{ToolError, ToolErrorCode};
///
/// fn read(path: &str) -> Result<String, ToolError> {
///     if path.is_empty() {
///         return Err(ToolError::invalid_param("'path' must not be empty"));
///     }
///     // Any other error: `from_error` keeps its message (and its causes') as EXECUTION_ERROR.
///     let n: u32 = "12".parse().map_err(ToolError::from_error)?;
///     Ok(format!("{path}: {n}"))
/// }
/// assert_eq!(read("").unwrap_err().code, ToolErrorCode::InvalidParam);
/// ```
///
/// Your own error type picks its codes with a `From` conversion, which `?` then applies:
///
/// ```
/// use tool_core::{tool, tools, ToolCall, ToolError};
///
/// #[derive(Debug)]
/// enum StoreError { Missing(u64), Busy }
///
/// impl From<StoreError> for ToolError {
///     fn from(e: StoreError) -> Self {
///         match e {
///             StoreError::Missing(id) => ToolError::not_found(format!("no note {id}")),
///             StoreError::Busy => ToolError::unavailable("the store is busy; try again"),
///         }
///     }
/// }
///
/// fn load(id: u64) -> Result<String, StoreError> {
///     Err(StoreError::Missing(id))
/// }
///
/// /// Reads a note.
/// #[tool]
/// fn read_note(id: u64) -> Result<String, ToolError> {
///     Ok(load(id)?)
/// }
///
/// let reply = tools![read_note].call_blocking(&ToolCall::new("1", "read_note", r#"{"id":7}"#));
/// assert_eq!(reply.model_text(), "Error [NOT_FOUND]: no note 7");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    /// The standard code.
    pub code: ToolErrorCode,
    /// What went wrong and what to do about it.
    pub message: String,
}

impl ToolError {
    /// An error with any code.
    ///
    /// ```
    /// let e = tool_core::ToolError::new(tool_core::ToolErrorCode::Conflict, "version changed");
    /// assert_eq!(e.to_string(), "CONFLICT: version changed");
    /// ```
    pub fn new(code: ToolErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
        }
    }

    /// The error the model reads for any error value: the code of the first `ToolError` in
    /// its chain (itself, or a cause found through `source()`), else `EXECUTION_ERROR`; the
    /// message of the error followed by those of its causes, joined with `": "` (a cause
    /// whose text the message already contains is not repeated).
    ///
    /// Accepts what `Box<dyn Error + Send + Sync>` accepts: any `Error + Send + Sync`,
    /// `anyhow::Error`, the box itself, `String` and `&str`. This is how a tool's
    /// `Result<T, E>` becomes a response; call it yourself to use `?` on other errors in a
    /// function returning `Result<T, ToolError>`.
    ///
    /// ```
    /// use tool_core::{ToolError, ToolErrorCode};
    ///
    /// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "config.toml is missing");
    /// let e = ToolError::from_error(io);
    /// assert_eq!((e.code, e.message.as_str()), (ToolErrorCode::ExecutionError, "config.toml is missing"));
    ///
    /// // A ToolError inside a box keeps its code.
    /// let boxed: Box<dyn std::error::Error + Send + Sync> = ToolError::timeout("no answer in 5 s").into();
    /// assert_eq!(ToolError::from_error(boxed).code, ToolErrorCode::Timeout);
    /// ```
    pub fn from_error<E>(error: E) -> ToolError
    where
        E: Into<Box<dyn Error + Send + Sync>> + 'static,
    {
        // A `ToolError` is taken as it is: no box, no formatting (the common case on the
        // error path of a tool that returns `Result<T, ToolError>`).
        let mut slot = Some(error);
        if let Some(tool_error) = (&mut slot as &mut dyn Any).downcast_mut::<Option<ToolError>>() {
            if let Some(e) = tool_error.take() {
                return e;
            }
        }
        match slot {
            Some(error) => ToolError::from_chain(&*error.into()),
            // Unreachable: the slot is only emptied when it held a `ToolError`.
            None => ToolError::execution("the tool failed"),
        }
    }

    /// [`ToolError::from_error`] for an error behind a reference: reads its chain without
    /// taking it.
    ///
    /// ```
    /// use tool_core::{ToolError, ToolErrorCode};
    ///
    /// let e: Box<dyn std::error::Error + Send + Sync> = "bad gateway".into();
    /// assert_eq!(ToolError::from_chain(&*e), ToolError::execution("bad gateway"));
    /// ```
    pub fn from_chain(error: &(dyn Error + 'static)) -> ToolError {
        let mut code = None;
        let mut message = String::new();
        let mut next = Some(error);
        for _ in 0..MAX_CHAIN {
            let Some(error) = next else { break };
            let text = match error.downcast_ref::<ToolError>() {
                Some(tool_error) => {
                    code.get_or_insert(tool_error.code);
                    // Its message, not its Display: the code is shown once, by the response.
                    tool_error.message.clone()
                }
                None => error.to_string(),
            };
            // Many errors print their cause in their own message (`#[error("io: {0}")]`);
            // saying it twice helps nobody.
            if !text.is_empty() && !message.contains(text.as_str()) {
                if !message.is_empty() {
                    message.push_str(": ");
                }
                message.push_str(&text);
            }
            next = error.source();
        }
        if message.is_empty() {
            message.push_str("the tool failed without saying why");
        }
        ToolError::new(code.unwrap_or(ToolErrorCode::ExecutionError), message)
    }
}

macro_rules! shorthand {
    ($($name:ident => $code:ident),* $(,)?) => {
        impl ToolError {$(
            #[doc = concat!("An error with the code [`ToolErrorCode::", stringify!($code), "`].")]
            ///
            /// ```
            #[doc = concat!("let e = tool_core::ToolError::", stringify!($name), "(\"try again\");")]
            #[doc = concat!("assert_eq!(e.code, tool_core::ToolErrorCode::", stringify!($code), ");")]
            /// assert_eq!(e.message, "try again");
            /// ```
            pub fn $name(message: impl Into<String>) -> Self {
                ToolError::new(ToolErrorCode::$code, message)
            }
        )*}
    };
}
shorthand! {
    not_found => NotFound,
    already_exists => AlreadyExists,
    permission_denied => PermissionDenied,
    invalid_param => InvalidParam,
    invalid_format => InvalidFormat,
    execution => ExecutionError,
    timeout => Timeout,
    conflict => Conflict,
    rate_limit => RateLimit,
    network => NetworkError,
    unavailable => ServiceUnavailable,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

// An ordinary error, so it can travel inside `anyhow::Error` and `Box<dyn Error>` and be found
// again by `from_chain`. (The price: no blanket `From<E: Error>`, which would overlap with
// `From<ToolError> for ToolError`; `ToolError::from_error` does that job.)
impl Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer(&'static str, Option<Box<dyn Error + Send + Sync>>);
    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }
    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            self.1.as_deref().map(|e| e as &(dyn Error + 'static))
        }
    }

    #[test]
    fn the_chain_is_joined_and_the_first_tool_error_gives_the_code() {
        let inner = ToolError::rate_limit("quota used up; retry in 60 s");
        let e = Outer("fetching prices", Some(Box::new(inner)));
        let got = ToolError::from_error(e);
        assert_eq!(got.code, ToolErrorCode::RateLimit);
        assert_eq!(got.message, "fetching prices: quota used up; retry in 60 s");
    }

    #[test]
    fn a_cause_already_in_the_message_is_not_repeated() {
        let e = Outer("io: disk full", Some("disk full".into()));
        assert_eq!(ToolError::from_error(e).message, "io: disk full");
    }

    #[test]
    fn an_empty_message_still_says_something() {
        let got = ToolError::from_error("");
        assert_eq!(got.code, ToolErrorCode::ExecutionError);
        assert_eq!(got.message, "the tool failed without saying why");
    }

    #[test]
    fn a_tool_error_passes_through_unchanged() {
        let e = ToolError::conflict("version 3 is newer");
        assert_eq!(ToolError::from_error(e.clone()), e);
    }
}
