//! What a dialect transform did to a schema, and why a schema could not be made strict.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// One thing a dialect transform changed, or one reason a schema cannot be strict, at a place
/// in the schema (a JSON Pointer fragment such as `#/properties/unit`).
///
/// ```
/// let note = tool_core::schema::SchemaNote::new("#/properties/limit", "moved `default` into the description");
/// assert_eq!(note.to_string(), "#/properties/limit: moved `default` into the description");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct SchemaNote {
    /// Where in the schema (`#` is the root).
    pub path: String,
    /// What happened, in a sentence.
    pub message: String,
}

impl SchemaNote {
    /// Creates a note.
    ///
    /// ```
    /// assert_eq!(tool_core::schema::SchemaNote::new("#", "x").path, "#");
    /// ```
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaNote {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SchemaNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The result of a dialect transform: the schema to send, whether it may be sent with
/// `strict: true`, what was changed, and (when not strict) why not.
///
/// Transforms are pure: the same canonical schema always gives the same bytes.
///
/// ```
/// use serde_json::json;
/// let canonical = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false});
/// let out = tool_core::provider::openai_chat::strict_schema(&canonical);
/// assert!(out.strict);
/// assert!(out.changes.is_empty() && out.not_strict.is_empty());
/// assert_eq!(out.schema, canonical);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DialectSchema {
    /// The schema in the dialect's form.
    pub schema: Value,
    /// Whether the schema satisfies the dialect's strict rules (always `false` for dialects
    /// without a strict mode).
    pub strict: bool,
    /// What the transform changed, in document order.
    pub changes: Vec<SchemaNote>,
    /// Why the schema cannot be strict; empty when `strict` is true.
    pub not_strict: Vec<SchemaNote>,
}

impl DialectSchema {
    /// A human-readable report: one line per change, then one per reason it is not strict.
    ///
    /// ```
    /// let out = tool_core::provider::openai_chat::strict_schema(&serde_json::json!({"type": "object", "properties": {}}));
    /// assert!(out.report().contains("additionalProperties"));
    /// ```
    pub fn report(&self) -> String {
        let mut out = String::new();
        for note in &self.changes {
            out.push_str("changed ");
            out.push_str(&note.to_string());
            out.push('\n');
        }
        for note in &self.not_strict {
            out.push_str("not strict ");
            out.push_str(&note.to_string());
            out.push('\n');
        }
        out
    }
}
