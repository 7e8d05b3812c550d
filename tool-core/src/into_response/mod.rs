//! Conversion of a tool function's return value into a [`ToolResponse`].
//!
//! Modelled on axum's `IntoResponse`: many return types, one trait. Implemented for
//! [`ToolResponse`], `String`, `&'static str`, `()`, numbers and `bool`, [`Json<T>`] (fills
//! `data`), and `Result<T, E>` for every error type a Rust application uses: a [`ToolError`],
//! `anyhow::Error`, `Box<dyn Error + Send + Sync>`, `String`, `&'static str`, or any
//! `std::error::Error` (a `thiserror` enum, `std::io::Error`, ...), and for results that are
//! not text [`Image`], [`Audio`], [`File`] and [`Attachment`](crate::Attachment), alone or
//! paired with another return value (`(String, Image)`). How an error becomes the
//! code and message the model reads is in the `error` module.

mod error;
mod media;

use std::error::Error;

use serde::Serialize;

pub use error::ToolError;
pub use media::{Audio, File, Image};

use crate::raw_json::RawJson;
use crate::response::ToolResponse;

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
    note = "return `ToolResponse`, `String`, `&'static str`, `()`, a number, `Json<T>` for any `T: Serialize`, an `Image`, `Audio`, `File` or `Attachment` (alone, or after another return value as `(T, Image)`), or `Result<T, E>` with one of those and an error that converts into `Box<dyn Error + Send + Sync>`: `ToolError`, `anyhow::Error`, `String`, `&'static str`, or your own `Error + Send + Sync + 'static`"
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

/// Any error a tool returns: the model reads its message (with the messages of its causes),
/// under the code of the first [`ToolError`] found in its chain, else `EXECUTION_ERROR`.
///
/// The bound is what `?` into a `Box<dyn Error + Send + Sync>` accepts: every
/// `std::error::Error + Send + Sync + 'static` (including [`ToolError`] and `thiserror`
/// enums), `anyhow::Error` (which converts itself into that box), `String` and `&str`. One
/// impl for all of them, so none needs a cargo feature or a wrapper.
///
/// ```
/// use tool_core::{IntoToolResponse, ToolError, ToolErrorCode};
///
/// let failed: Result<u32, Box<dyn std::error::Error + Send + Sync>> =
///     Err("the disk is full".into());
/// assert_eq!(failed.into_tool_response().model_text(), "Error [EXECUTION_ERROR]: the disk is full");
///
/// let coded: Result<u32, ToolError> = Err(ToolError::rate_limit("wait 2 s"));
/// assert_eq!(coded.into_tool_response().error_code(), Some(ToolErrorCode::RateLimit));
/// ```
impl<T, E> IntoToolResponse for Result<T, E>
where
    T: IntoToolResponse,
    E: Into<Box<dyn Error + Send + Sync>> + 'static,
{
    fn into_tool_response(self) -> ToolResponse {
        match self {
            Ok(v) => v.into_tool_response(),
            Err(e) => ToolError::from_error(e).into_tool_response(),
        }
    }
}

impl IntoToolResponse for ToolError {
    fn into_tool_response(self) -> ToolResponse {
        ToolResponse::error(self.code, self.message)
    }
}
