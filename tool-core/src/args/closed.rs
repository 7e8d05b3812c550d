//! Unknown keys inside nested objects, found with the schema the model was shown.
//!
//! serde rejects an unknown key only in a type declared `deny_unknown_fields`; the parameters
//! struct `#[tool]` generates is, but a user's own nested types (plain derives or
//! `#[tool_type]`) usually are not, and serde then drops `{"opts": {"verbos": true}}`'s key
//! without a word. The canonical schema closes those objects (`additionalProperties: false`),
//! so the model is told the valid keys up front; this module holds the decoder to the same
//! schema: a key is rejected exactly where the schema says the object is closed, and accepted
//! wherever it is open (a map, a flattened map, an explicit opt-out).

//!
//! The check reads the arguments once more, straight from the text, skipping every value
//! under which the schema closes nothing (see `stream`); only a value that must be matched
//! against union branches is read whole into a `serde_json::Value` and walked (see `walk`).

use serde_json::Value;

use super::shape::{self, Node};
use crate::response::{ToolErrorCode, ToolResponse};

/// The closed objects of a parameters type, read once from its canonical schema; see
/// [`decode_tool_arguments`](super::decode_tool_arguments), which the `#[tool]` macro calls.
#[derive(Debug, Clone)]
pub struct ClosedObjects {
    /// The compiled schema; `nodes[0]` is the root.
    nodes: Vec<Node>,
    /// Whether any object below the root is closed; when none is, there is nothing to check
    /// (the root's keys are checked by the parameters struct's `deny_unknown_fields`).
    nested: bool,
}

impl ClosedObjects {
    /// Reads a canonical schema (see [`canonical_schema`](crate::schema::canonical_schema)).
    pub fn from_schema(schema: Value) -> Self {
        let nested = schema.as_object().is_some_and(|root| {
            root.iter()
                .filter(|(k, _)| *k != "additionalProperties")
                .any(|(_, v)| has_closed_object(v))
        });
        let nodes = if nested {
            shape::compile(&schema)
        } else {
            Vec::new()
        };
        ClosedObjects { nodes, nested }
    }

    /// Whether the schema closes any object below the root, i.e. whether
    /// [`check`](Self::check) can ever find something serde did not.
    pub fn has_nested(&self) -> bool {
        self.nested
    }

    /// Checks already-decoded argument JSON for a key the schema does not allow, and returns
    /// the `INVALID_PARAM` response for the first one (in document order): its full path, the
    /// closest valid name and the valid names. Text that is not JSON passes (decoding judges
    /// it).
    #[inline]
    pub fn check(&self, tool: &str, arguments: &str) -> Result<(), ToolResponse> {
        if !self.nested || !has_inner_object(arguments) {
            return Ok(());
        }
        self.check_value(tool, arguments)
    }

    fn check_value(&self, tool: &str, arguments: &str) -> Result<(), ToolResponse> {
        match super::stream::first_unknown(&self.nodes, arguments) {
            None => Ok(()),
            Some(found) => Err(ToolResponse::error(
                ToolErrorCode::InvalidParam,
                format!(
                    "Invalid arguments for '{tool}': {}",
                    super::unknown_parameter(&found.path, &found.key, &found.valid)
                ),
            )),
        }
    }
}

/// Whether the text holds an object below the root (a `{` after the first byte). Inside a
/// string a `{` gives a false positive, which only costs the walk.
fn has_inner_object(arguments: &str) -> bool {
    // Arguments are short: a plain search beats memchr's set-up here.
    arguments
        .as_bytes()
        .get(1..)
        .is_some_and(|rest| rest.contains(&b'{'))
}

fn has_closed_object(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get("additionalProperties") == Some(&Value::Bool(false))
                || map.values().any(has_closed_object)
        }
        Value::Array(items) => items.iter().any(has_closed_object),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn example_closed_objects() {
        use serde_json::json;

        let schema = json!({
            "type": "object",
            "properties": {"opts": {"$ref": "#/$defs/Options"}},
            "additionalProperties": false,
            "$defs": {"Options": {
                "type": "object",
                "properties": {"verbose": {"type": "boolean"}, "width": {"type": "integer"}},
                "additionalProperties": false
            }}
        });
        let closed = ClosedObjects::from_schema(schema);
        assert!(closed
            .check("show", r#"{"opts": {"verbose": true}}"#)
            .is_ok());
        let err = closed
            .check("show", r#"{"opts": {"verbos": true}}"#)
            .unwrap_err();
        assert_eq!(
            err.error_message(),
            Some("Invalid arguments for 'show': unknown parameter 'opts.verbos'. Did you mean 'verbose'? Valid parameters: 'verbose', 'width'.")
        );
    }

    #[test]
    fn example_from_schema() {
        let closed = ClosedObjects::from_schema(serde_json::json!({"type": "object"}));
        assert!(!closed.has_nested());
    }

    #[test]
    fn example_has_nested() {
        use serde_json::json;
        let nested = json!({"type": "object", "properties": {"o": {"type": "object", "properties": {}, "additionalProperties": false}}});
        assert!(ClosedObjects::from_schema(nested).has_nested());
    }

    #[test]
    fn example_check() {
        use serde_json::json;
        let schema = json!({"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": false}}
        }, "additionalProperties": false});
        let closed = ClosedObjects::from_schema(schema);
        let err = closed
            .check("add", r#"{"items": [{"name": "a"}, {"nmae": "b"}]}"#)
            .unwrap_err();
        assert!(err
            .error_message()
            .unwrap()
            .contains("unknown parameter 'items[1].nmae'. Did you mean 'name'?"));
    }

    fn closed_options() -> Value {
        json!({"type": "object", "properties": {"verbose": {"type": "boolean"}}, "additionalProperties": false})
    }

    fn message(schema: Value, args: &str) -> Option<String> {
        ClosedObjects::from_schema(schema)
            .check("t", args)
            .err()
            .and_then(|e| e.error_message().map(str::to_string))
    }

    #[test]
    fn maps_and_explicitly_open_objects_take_any_key() {
        let schema = json!({"type": "object", "properties": {
            "m": {"type": "object", "additionalProperties": closed_options()},
            "open": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": true},
        }, "additionalProperties": false});
        assert_eq!(
            message(
                schema.clone(),
                r#"{"m": {"any": {"verbose": true}}, "open": {"b": 1}}"#
            ),
            None
        );
        let got = message(schema, r#"{"m": {"any": {"verbos": true}}}"#).unwrap();
        assert!(got.contains("unknown parameter 'm.any.verbos'"), "{got}");
    }

    #[test]
    fn a_union_reports_only_when_no_fitting_branch_takes_the_value() {
        let branch = |tag: &str, field: &str| {
            json!({"type": "object", "properties": {"kind": {"const": tag}, field: {"type": "integer"}},
                   "required": ["kind"], "additionalProperties": false})
        };
        let schema = json!({"type": "object", "properties": {"s": {"oneOf": [
            {"type": "string", "enum": ["none"]}, branch("a", "x"), branch("b", "y")
        ]}}, "additionalProperties": false});
        assert_eq!(
            message(schema.clone(), r#"{"s": {"kind": "b", "y": 1}}"#),
            None
        );
        assert_eq!(message(schema.clone(), r#"{"s": "none"}"#), None);
        let got = message(schema, r#"{"s": {"kind": "b", "x": 1}}"#).unwrap();
        assert!(
            got.contains("unknown parameter 's.x'. Valid parameters: 'kind', 'y'."),
            "{got}"
        );
    }

    #[test]
    fn a_self_referencing_schema_ends() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/L"}},
            "$defs": {"L": {"$ref": "#/$defs/L", "additionalProperties": false}}});
        assert_eq!(
            message(schema, r#"{"a": {"b": {}}}"#)
                .as_deref()
                .map(|m| m.contains("'a.b'")),
            Some(true)
        );
    }

    #[test]
    fn nothing_to_check_without_a_nested_closed_object() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false});
        assert!(!ClosedObjects::from_schema(schema).has_nested());
    }
}
