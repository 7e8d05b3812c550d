//! Optional properties in OpenAI's strict mode: there every property is required, so an
//! optional one is made nullable and the model sends `null` where it would have left the
//! property out. This module says which properties those are, writes the nullable form, and
//! takes such `null`s out of the model's arguments again, so a tool reads the property as
//! absent, exactly as its own schema describes it.
//!
//! A property whose own schema already accepts `null` (an `Option` parameter, a type list
//! with `"null"`) keeps its `null`: the tool asked for it.

use serde_json::{Map, Value};

use super::walk::{admits_null, ref_target};

/// Most `$ref` steps followed for one node (a chain of references, not nesting).
const MAX_HOPS: u32 = 32;
/// Deepest schema or value nesting walked; arguments deeper than the registry's limits never
/// get here, and a schema this deep is not one strict mode takes.
const MAX_DEPTH: u32 = 256;

/// The definitions a schema's local `$ref`s point into (`$defs`, or the older `definitions`).
pub(crate) fn defs_of(root: &Map<String, Value>) -> Option<&Map<String, Value>> {
    root.get("$defs")
        .or_else(|| root.get("definitions"))
        .and_then(Value::as_object)
}

/// The node a `$ref` node stands for (the node itself when it is no reference); `None` for a
/// reference that leads nowhere or round in circles.
fn resolve<'s>(
    mut node: &'s Map<String, Value>,
    defs: Option<&'s Map<String, Value>>,
) -> Option<&'s Map<String, Value>> {
    for _ in 0..MAX_HOPS {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            return Some(node);
        };
        node = defs?.get(ref_target(reference)?)?.as_object()?;
    }
    None
}

/// Whether a property's schema already accepts `null`: a `null` type or branch, `null` among
/// its `enum` values or as its `const`, or no constraint on the value at all.
pub(crate) fn accepts_null(node: &Map<String, Value>, defs: Option<&Map<String, Value>>) -> bool {
    let Some(node) = resolve(node, defs) else {
        return false;
    };
    if admits_null(node) || node.get("const").is_some_and(Value::is_null) {
        return true;
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return values.iter().any(Value::is_null);
    }
    const CONSTRAINING: &[&str] = &[
        "type",
        "enum",
        "const",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "properties",
        "items",
    ];
    !CONSTRAINING.iter().any(|k| node.contains_key(*k))
}

/// The strict form of an optional property: the same schema, also accepting `null`. A plain
/// type gets a type list (`["string", "null"]`); an object, an `enum` or a `$ref` becomes an
/// `anyOf` with a `{"type": "null"}` branch, its description kept outside (OpenAI's guide
/// writes both forms).
pub(crate) fn nullable(schema: Value) -> Value {
    let Value::Object(mut node) = schema else {
        return schema;
    };
    let plain = !node.contains_key("enum") && !node.contains_key("$ref");
    match node.get_mut("type") {
        Some(Value::String(t)) if plain && t != "object" => {
            let t = std::mem::take(t);
            node.insert(
                "type".into(),
                Value::Array(vec![Value::String(t), Value::String("null".into())]),
            );
            return Value::Object(node);
        }
        Some(Value::Array(types)) if plain && !types.iter().any(|t| t == "object") => {
            types.push(Value::String("null".into()));
            return Value::Object(node);
        }
        _ => {}
    }
    let null = Value::Object(Map::from_iter([(
        "type".to_string(),
        Value::String("null".into()),
    )]));
    if !node.contains_key("type") && !node.contains_key("enum") {
        if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
            branches.push(null);
            return Value::Object(node);
        }
    }
    let description = node.shift_remove("description");
    let mut out = Map::new();
    out.insert(
        "anyOf".into(),
        Value::Array(vec![Value::Object(node), null]),
    );
    if let Some(description) = description {
        out.insert("description".into(), description);
    }
    Value::Object(out)
}

/// Whether a schema has an optional property that does not accept `null` anywhere (in the
/// root, nested objects, array items, branches or `$defs`): the tools whose strict form
/// changes what the model may send. A quick look over the schema, done once per tool.
pub(crate) fn has_optional_without_null(root: &Value) -> bool {
    let defs = root.as_object().and_then(defs_of);
    any_optional(root, defs, 0)
}

fn any_optional(value: &Value, defs: Option<&Map<String, Value>>, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match value {
        Value::Object(node) => {
            if let Some(properties) = node.get("properties").and_then(Value::as_object) {
                let required = required_of(node);
                let optional = properties.iter().any(|(name, schema)| {
                    !required.iter().any(|r| r == name)
                        && schema.as_object().is_some_and(|s| !accepts_null(s, defs))
                });
                if optional {
                    return true;
                }
            }
            node.values().any(|v| any_optional(v, defs, depth + 1))
        }
        Value::Array(items) => items.iter().any(|v| any_optional(v, defs, depth + 1)),
        _ => false,
    }
}

fn required_of(node: &Map<String, Value>) -> Vec<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The arguments without the `null`s of optional properties that do not accept `null`
/// (at any depth), as JSON text; `None` when there is nothing to take out (then the text is
/// used as it is, byte for byte), or when it is not JSON (the usual decoding reports that).
///
/// Cheap when there is nothing to do: text without `null` is not parsed.
pub(crate) fn strip_optional_nulls(schema: &Value, arguments: &str) -> Option<String> {
    memchr::memmem::find(arguments.as_bytes(), b"null")?;
    let root = schema.as_object()?;
    let mut value: Value = serde_json::from_str(arguments).ok()?;
    let mut strip = Strip {
        defs: defs_of(root),
        removed: false,
    };
    strip.walk(root, &mut value, 0);
    if !strip.removed {
        return None;
    }
    serde_json::to_string(&value).ok()
}

struct Strip<'s> {
    defs: Option<&'s Map<String, Value>>,
    removed: bool,
}

impl<'s> Strip<'s> {
    fn walk(&mut self, node: &'s Map<String, Value>, value: &mut Value, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(node) = resolve(node, self.defs) else {
            return;
        };
        match value {
            Value::Object(map) => {
                if let Some(properties) = node.get("properties").and_then(Value::as_object) {
                    let required = required_of(node);
                    let defs = self.defs;
                    let before = map.len();
                    map.retain(|name, v| {
                        !(v.is_null()
                            && !required.contains(&name.as_str())
                            && properties
                                .get(name)
                                .and_then(Value::as_object)
                                .is_some_and(|s| !accepts_null(s, defs)))
                    });
                    self.removed |= map.len() != before;
                    for (name, v) in map.iter_mut() {
                        if let Some(schema) = properties.get(name).and_then(Value::as_object) {
                            self.walk(schema, v, depth + 1);
                        }
                    }
                }
                if let Some(branch) = self.branch_for(node, map) {
                    self.walk(branch, value, depth + 1);
                }
            }
            Value::Array(items) => {
                if let Some(schema) = node.get("items").and_then(Value::as_object) {
                    for item in items {
                        self.walk(schema, item, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// The one `anyOf`/`oneOf` branch an object value can be: an object schema with every
    /// key of the value among its properties and its `const` (or one-value `enum`) tags
    /// matched. With none or several, nothing in the branches is taken out.
    fn branch_for(
        &self,
        node: &'s Map<String, Value>,
        map: &Map<String, Value>,
    ) -> Option<&'s Map<String, Value>> {
        let mut found = None;
        for key in ["anyOf", "oneOf"] {
            for branch in node
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(branch) = branch.as_object().and_then(|b| resolve(b, self.defs)) else {
                    continue;
                };
                let Some(properties) = branch.get("properties").and_then(Value::as_object) else {
                    continue;
                };
                let fits = map.iter().all(|(name, v)| match properties.get(name) {
                    None => false,
                    Some(schema) => tag_matches(schema, v),
                });
                if fits {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(branch);
                }
            }
        }
        found
    }
}

/// Whether a value fits a property that is a tag (`const`, or a one-value `enum`); any value
/// fits a property that is not one.
fn tag_matches(schema: &Value, value: &Value) -> bool {
    if let Some(tag) = schema.get("const") {
        return tag == value;
    }
    match schema.get("enum").and_then(Value::as_array) {
        Some(values) if values.len() == 1 => values.first() == Some(value),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strips_only_optional_properties_without_null_at_any_depth() {
        let schema = json!({
            "type": "object",
            "properties": {
                "cursor": {"type": "string"},
                "note": {"type": ["string", "null"]},
                "id": {"type": "string"},
                "filter": {"$ref": "#/$defs/Filter"},
                "pages": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}
            },
            "required": ["id"],
            "$defs": {"Filter": {"type": "object", "properties": {"tag": {"type": "string"}}}}
        });
        let out = strip_optional_nulls(
            &schema,
            r#"{"cursor":null,"note":null,"id":null,"filter":{"tag":null},"pages":[{"tag":null},{"tag":"a"}]}"#,
        );
        assert_eq!(
            out.as_deref(),
            Some(r#"{"note":null,"id":null,"filter":{},"pages":[{},{"tag":"a"}]}"#)
        );
        assert_eq!(strip_optional_nulls(&schema, r#"{"cursor":"x"}"#), None);
        assert_eq!(strip_optional_nulls(&schema, r#"{"note":null}"#), None);
        assert_eq!(strip_optional_nulls(&schema, "null"), None);
        assert_eq!(strip_optional_nulls(&schema, "{not json null"), None);
    }

    #[test]
    fn a_branch_is_entered_only_when_the_value_fits_exactly_one() {
        let schema = json!({
            "type": "object",
            "properties": {"shape": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
                {"type": "object", "properties": {"kind": {"const": "square"}, "r": {"type": "number"}}}
            ]}},
            "required": ["shape"]
        });
        let out = strip_optional_nulls(&schema, r#"{"shape":{"kind":"square","r":null}}"#);
        assert_eq!(out.as_deref(), Some(r#"{"shape":{"kind":"square"}}"#));
    }

    #[test]
    fn nullable_forms() {
        assert_eq!(
            nullable(json!({"type": "integer"})),
            json!({"type": ["integer", "null"]})
        );
        assert_eq!(
            nullable(json!({"type": "string", "enum": ["a"], "description": "D"})),
            json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}], "description": "D"})
        );
        assert_eq!(
            nullable(json!({"$ref": "#/$defs/X"})),
            json!({"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]})
        );
        assert_eq!(
            nullable(json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})
        );
    }

    #[test]
    fn finds_optional_properties_without_null() {
        assert!(!has_optional_without_null(&json!({
            "type": "object",
            "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "string"}},
            "required": ["b"]
        })));
        assert!(has_optional_without_null(&json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "required": ["a"],
            "$defs": {"A": {"type": "object", "properties": {"n": {"type": "integer"}}}}
        })));
    }
}
