//! Conversion of a tool function's return value into a [`ToolResponse`].
//!
//! Modelled on axum's `IntoResponse`: many return types, one trait. Implemented for
//! [`ToolResponse`], `String`, `&'static str`, `()`, numbers and `bool`, [`Json<T>`] (fills
//! `data`), and `Result<T, E>` where `E` is a [`ToolError`] or any `std::error::Error`.

use std::fmt;

use serde::Serialize;

use crate::raw_json::RawJson;
use crate::response::{ToolErrorCode, ToolResponse};

/// Turns a tool's return value into a [`ToolResponse`].
///
/// ```
/// use tool_core::{IntoToolResponse, Json, ToolError, ToolErrorCode};
///
/// assert_eq!("hi".into_tool_response().model_text(), "hi");
/// assert_eq!(Json(vec![1, 2]).into_tool_response().model_text(), "[1,2]");
/// let failed: Result<String, ToolError> = Err(ToolError::not_found("no such city"));
/// assert_eq!(failed.into_tool_response().error_code(), Some(ToolErrorCode::NotFound));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool: it does not implement `IntoToolResponse`",
    label = "this return type does not implement `tool_core::IntoToolResponse`",
    note = "return `ToolResponse`, `String`, `&'static str`, `()`, a number, `Json<T>` for any `T: Serialize`, or `Result<T, E>` with one of those and `E: std::error::Error` or `ToolError`"
)]
pub trait IntoToolResponse {
    /// Performs the conversion.
    fn into_tool_response(self) -> ToolResponse;
}

impl IntoToolResponse for ToolResponse {
    fn into_tool_response(self) -> ToolResponse {
        self
    }
}

impl IntoToolResponse for String {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::success(self)
    }
}

impl IntoToolResponse for &'static str {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::success(self)
    }
}

impl IntoToolResponse for () {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::success(String::new())
    }
}

macro_rules! display_as_text {
    ($($ty:ty),*) => {$(
        impl IntoToolResponse for $ty {
            fn into_tool_response(self) -> ToolResponse {
                ToolResponse::success(self.to_string())
            }
        }
    )*};
}
display_as_text!(bool, char, f32, f64);

macro_rules! integer_as_text {
    ($($ty:ty),*) => {$(
        impl IntoToolResponse for $ty {
            fn into_tool_response(self) -> ToolResponse {
                // itoa, as serde_json uses: `to_string` goes through the formatting machinery
                // and costs more than the rest of a small tool's dispatch.
                ToolResponse::success(itoa::Buffer::new().format(self).to_owned())
            }
        }
    )*};
}
integer_as_text!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// Returns any `Serialize` value as the response's `data`, serialized once.
///
/// ```
/// use tool_core::{IntoToolResponse, Json};
/// #[derive(serde::Serialize)]
/// struct Weather { temp_c: f32 }
/// let r = Json(Weather { temp_c: 21.5 }).into_tool_response();
/// assert_eq!(r.model_text(), r#"{"temp_c":21.5}"#);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResponse for Json<T> {
    fn into_tool_response(self) -> ToolResponse {
        // Serialized first, then the response built once around it: building it first and
        // attaching the data moves the whole response twice more on every call.
        match RawJson::from_serialize(&self.0) {
            Ok(data) => ToolResponse::success_with_data(data),
            Err(e) => ToolResponse::unserializable(&e),
        }
    }
}

/// An error a tool returns on purpose: a standard code and a message for the model.
///
/// Any `std::error::Error` converts into one with `?` (as `EXECUTION_ERROR` with its Display
/// text); build one directly to choose the code.
///
/// ```
/// use tool_core::{ToolError, ToolErrorCode};
///
/// fn read(path: &str) -> Result<String, ToolError> {
///     if path.is_empty() {
///         return Err(ToolError::invalid_param("'path' must not be empty"));
///     }
///     let n: u32 = "12".parse()?; // ParseIntError becomes EXECUTION_ERROR
///     Ok(format!("{path}: {n}"))
/// }
/// assert_eq!(read("").unwrap_err().code, ToolErrorCode::InvalidParam);
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
}

macro_rules! shorthand {
    ($($name:ident => $code:ident),* $(,)?) => {
        impl ToolError {$(
            #[doc = concat!("A `", stringify!($code), "` error.")]
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

// `ToolError` deliberately does not implement `std::error::Error` (as `anyhow::Error` does
// not): that is what lets every `E: Error` convert into it with `?` and lets `Result<T, E>`
// have one impl for `ToolError` and one for all other errors without overlapping.
impl<E: std::error::Error> From<E> for ToolError {
    fn from(e: E) -> Self {
        ToolError::execution(e.to_string())
    }
}

impl IntoToolResponse for ToolError {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::error(self.code, self.message)
    }
}

impl<T: IntoToolResponse> IntoToolResponse for Result<T, ToolError> {
    fn into_tool_response(self) -> ToolResponse {
        match self {
            Ok(v) => v.into_tool_response(),
            Err(e) => e.into_tool_response(),
        }
    }
}

impl<T: IntoToolResponse, E: std::error::Error> IntoToolResponse for Result<T, E> {
    fn into_tool_response(self) -> ToolResponse {
        match self {
            Ok(v) => v.into_tool_response(),
            Err(e) => ToolResponse::error(ToolErrorCode::ExecutionError, e.to_string()),
        }
    }
}
