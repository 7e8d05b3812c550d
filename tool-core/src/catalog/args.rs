//! Prompt arguments and URI template variables arrive as strings; [`ArgumentValue`] turns one
//! into the type of the function parameter that receives it.

use super::CatalogError;

/// A parameter type of a `#[prompt]` or `#[resource]` function: parsed from the string the
/// client sent. `Option<T>` makes a prompt argument optional (an absent or empty value is
/// `None`); every other type is required.
///
/// ```
/// use tool_core::catalog::ArgumentValue;
/// assert_eq!(u32::from_argument("days", Some("3")).unwrap(), 3);
/// assert_eq!(<Option<u32>>::from_argument("days", None).unwrap(), None);
/// assert!(u32::from_argument("days", Some("three")).is_err());
/// assert!(!<Option<u32> as ArgumentValue>::REQUIRED);
/// ```
pub trait ArgumentValue: Sized {
    /// Whether the client must send the argument.
    const REQUIRED: bool = true;

    /// Parses the argument `name` from the client's value (`None`: not sent).
    fn from_argument(name: &str, value: Option<&str>) -> Result<Self, CatalogError>;
}

fn required<'v>(name: &str, value: Option<&'v str>) -> Result<&'v str, CatalogError> {
    value.ok_or_else(|| CatalogError::MissingArgument {
        name: name.to_owned(),
    })
}

impl ArgumentValue for String {
    fn from_argument(name: &str, value: Option<&str>) -> Result<Self, CatalogError> {
        required(name, value).map(str::to_owned)
    }
}

impl<T: ArgumentValue> ArgumentValue for Option<T> {
    const REQUIRED: bool = false;

    fn from_argument(name: &str, value: Option<&str>) -> Result<Self, CatalogError> {
        // Form-based clients send every field, empty ones as "": that means "not given".
        match value {
            None | Some("") => Ok(None),
            Some(v) => T::from_argument(name, Some(v)).map(Some),
        }
    }
}

macro_rules! parsed {
    ($($ty:ty => $expected:literal),* $(,)?) => {$(
        impl ArgumentValue for $ty {
            fn from_argument(name: &str, value: Option<&str>) -> Result<Self, CatalogError> {
                let text = required(name, value)?;
                text.trim().parse().map_err(|_| CatalogError::InvalidArgument {
                    name: name.to_owned(),
                    message: format!("expected {}, got {:?}", $expected, text),
                })
            }
        }
    )*};
}

parsed!(
    bool => "`true` or `false`",
    char => "one character",
    i8 => "an integer", i16 => "an integer", i32 => "an integer", i64 => "an integer",
    u8 => "a non-negative integer", u16 => "a non-negative integer",
    u32 => "a non-negative integer", u64 => "a non-negative integer",
    usize => "a non-negative integer", isize => "an integer",
    f32 => "a number", f64 => "a number",
);
