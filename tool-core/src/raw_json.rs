//! [`RawJson`]: a tool result already serialized to JSON text, kept as written.

use std::fmt;

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Valid JSON text. A tool's result is serialized into one of these exactly once, and the
/// model reads the same string; unlike `Box<RawValue>` it keeps the serializer's buffer, so
/// no shrinking reallocation happens on the dispatch path.
///
/// ```
/// use tool_core::RawJson;
/// let raw = RawJson::from_serialize(&serde_json::json!({"temp_c": 21.5})).unwrap();
/// assert_eq!(raw.get(), r#"{"temp_c":21.5}"#);
/// assert!(RawJson::from_string("{not json".into()).is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawJson(String);

impl RawJson {
    /// Serializes a value.
    ///
    /// ```
    /// let raw = tool_core::RawJson::from_serialize(&vec!["a", "b"]).unwrap();
    /// assert_eq!(raw.get(), r#"["a","b"]"#);
    /// ```
    #[inline]
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Self> {
        serde_json::to_string(value).map(RawJson)
    }

    /// Checks that `text` is one JSON value and keeps it as is.
    ///
    /// ```
    /// use tool_core::RawJson;
    /// assert_eq!(RawJson::from_string("{ \"a\": 1 }".into()).unwrap().get(), "{ \"a\": 1 }"); // kept as written
    /// assert!(RawJson::from_string("1 2".into()).is_err()); // two values
    /// ```
    pub fn from_string(text: String) -> serde_json::Result<Self> {
        serde_json::from_str::<&RawValue>(&text)?;
        Ok(RawJson(text))
    }

    /// The JSON text.
    ///
    /// ```
    /// assert_eq!(tool_core::RawJson::from_serialize(&true).unwrap().get(), "true");
    /// ```
    pub fn get(&self) -> &str {
        &self.0
    }

    /// The JSON text, moved out.
    ///
    /// ```
    /// assert_eq!(tool_core::RawJson::from_serialize(&[1]).unwrap().into_string(), "[1]");
    /// ```
    pub fn into_string(self) -> String {
        self.0
    }

    /// Parses the text into a `serde_json::Value`.
    ///
    /// ```
    /// let raw = tool_core::RawJson::from_serialize(&[1, 2]).unwrap();
    /// assert_eq!(raw.to_value()[1], 2);
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        // The text is valid JSON by construction; `Null` would only appear if that invariant
        // were broken, and is a safer answer than a panic.
        serde_json::from_str(&self.0).unwrap_or(serde_json::Value::Null)
    }
}

impl From<Box<RawValue>> for RawJson {
    fn from(raw: Box<RawValue>) -> Self {
        RawJson(Box::<str>::from(raw).into_string())
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Borrowing as `&RawValue` re-validates the text; that happens only when a whole
        // response is serialized, never on the dispatch path.
        let raw: &RawValue = serde_json::from_str(&self.0).map_err(S::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Through a `Value`, not `Box<RawValue>`: a raw value comes only straight from
        // serde_json's parser, and a response inside a tagged enum (the messages of a stored
        // run) arrives buffered by serde. Keys keep their order (`preserve_order`) and floats
        // round-trip (`float_roundtrip`); only the spacing of the text is not kept.
        let value = serde_json::Value::deserialize(deserializer)?;
        RawJson::from_serialize(&value).map_err(D::Error::custom)
    }
}
