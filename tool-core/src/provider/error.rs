//! [`ProviderError`]: why a provider's JSON could not be read.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// A provider response (or stream event) that does not have the documented shape. Names the
/// JSON path and what was expected, so it can be logged or shown as is; the JSON parser's
/// error is its [`source`](std::error::Error::source) when the text was not JSON at all.
///
/// ```
/// use tool_core::provider::{ChatApi, OpenAiChat};
/// let err = OpenAiChat::read_response(&serde_json::json!({"choices": 3})).unwrap_err();
/// assert_eq!(err.path(), "choices");
/// assert_eq!(err.to_string(), "choices: expected an array, found a number");
/// ```
// Opaque so what an error carries can grow without breaking callers; read it with the methods.
#[derive(Debug, Clone)]
pub struct ProviderError {
    path: String,
    message: String,
    // `Arc` keeps the error `Clone` (a stream hands the same failure to every push after it).
    source: Option<Arc<dyn Error + Send + Sync + 'static>>,
}

impl ProviderError {
    /// Creates an error.
    ///
    /// ```
    /// let e = tool_core::provider::ProviderError::new("content[0]", "unexpected block");
    /// assert_eq!(e.to_string(), "content[0]: unexpected block");
    /// ```
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ProviderError {
            path: path.into(),
            message: message.into(),
            source: None,
        }
    }

    /// Keeps the error that caused this one, returned by
    /// [`source`](std::error::Error::source); the message stays as given.
    ///
    /// ```
    /// use std::error::Error;
    /// let mut stream = tool_core::provider::OpenAiChatStream::new();
    /// let err = stream.push_data("{not json").unwrap_err();
    /// assert!(err.source().unwrap().is::<serde_json::Error>());
    /// ```
    pub fn with_source(mut self, source: impl Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// Where in the provider's JSON, e.g. `choices[0].message.tool_calls[1].id`.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::ProviderError::new("content[0]", "unexpected block").path(), "content[0]");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::ProviderError::new("content[0]", "unexpected block").message(), "unexpected block");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Equal when path and message are equal (JSON parser errors do not implement `PartialEq`).
impl PartialEq for ProviderError {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.message == other.message
    }
}

impl Eq for ProviderError {}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Error for ProviderError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Typed access to provider JSON with paths in the errors.
pub(crate) struct At<'a> {
    pub value: &'a Value,
    pub path: String,
}

impl<'a> At<'a> {
    pub fn root(value: &'a Value) -> Self {
        At {
            value,
            path: String::new(),
        }
    }

    fn join(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// A field that must be present.
    pub fn get(&self, key: &str) -> Result<At<'a>, ProviderError> {
        match self.value.get(key) {
            Some(value) => Ok(At {
                value,
                path: self.join(key),
            }),
            None => Err(ProviderError::new(self.join(key), "missing")),
        }
    }

    /// A field that may be absent or null.
    pub fn opt(&self, key: &str) -> Option<At<'a>> {
        match self.value.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => Some(At {
                value,
                path: self.join(key),
            }),
        }
    }

    pub fn str(&self) -> Result<&'a str, ProviderError> {
        self.value.as_str().ok_or_else(|| self.expected("a string"))
    }

    pub fn array(&self) -> Result<Vec<At<'a>>, ProviderError> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.expected("an array"))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| At {
                value,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    pub fn index(&self, i: usize) -> Result<At<'a>, ProviderError> {
        let items = self.array()?;
        items
            .into_iter()
            .nth(i)
            .ok_or_else(|| ProviderError::new(format!("{}[{i}]", self.path), "missing"))
    }

    pub fn expected(&self, what: &str) -> ProviderError {
        ProviderError::new(
            self.path.clone(),
            format!("expected {what}, found {}", kind(self.value)),
        )
    }
}
