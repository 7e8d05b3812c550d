//! Anthropic Messages `input_schema`.
//!
//! Rules, from Anthropic's tool use guide ("Specifying client tools") and its tool-use rules: the
//! `input_schema` is a JSON Schema object whose root is `type: object`; the API rejects
//! `oneOf`/`anyOf`/`allOf` at the root. `$defs`/`$ref` are accepted. `strict: true`
//! (strict tool use, Anthropic's structured outputs guide) additionally needs every object
//! closed with `additionalProperties: false` and no recursive definitions.

use serde_json::{Map, Value};

use crate::schema::walk::ref_target;
use crate::schema::{DialectSchema, SchemaNote};

/// The Anthropic `input_schema` for a canonical schema. `strict` says whether the tool may be
/// sent with `strict: true`: every object closed and no recursive `$defs`.
///
/// ```
/// use serde_json::json;
/// let canonical = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false});
/// let out = tool_core::provider::anthropic::input_schema(&canonical);
/// assert_eq!(out.schema, canonical);
/// assert!(out.strict);
/// ```
pub fn input_schema(schema: &Value) -> DialectSchema {
    let mut changes = Vec::new();
    let mut not_strict = Vec::new();
    let mut root = schema.as_object().cloned().unwrap_or_default();
    for key in ["anyOf", "oneOf", "allOf"] {
        if root.shift_remove(key).is_some() {
            changes.push(SchemaNote::new(
                "#",
                format!("removed root `{key}`: the root must be a plain object"),
            ));
        }
    }
    if root.get("type").and_then(Value::as_str) != Some("object") {
        root.insert("type".into(), Value::from("object"));
        changes.push(SchemaNote::new("#", "set the root `type` to `object`"));
    }
    if !root.contains_key("properties") {
        root.insert("properties".into(), Value::Object(Map::new()));
    }
    let mut out = Value::Object(root);
    close_records(&mut out, "#", &mut changes);
    open_objects(&out, "#", &mut not_strict);
    recursive_defs(&out, &mut not_strict);
    DialectSchema {
        strict: not_strict.is_empty(),
        schema: out,
        changes,
        not_strict,
    }
}

/// Closes nested structs (objects with `properties` and no `additionalProperties`): the
/// canonical schema closes only the root, and strict tool use needs every object closed.
/// Maps (`additionalProperties` with a schema) are left open and keep the tool non-strict.
fn close_records(value: &mut Value, path: &str, changes: &mut Vec<SchemaNote>) {
    match value {
        Value::Object(map) => {
            let is_object = map.get("type").is_some_and(|t| t == "object");
            if is_object
                && map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                map.insert("additionalProperties".into(), Value::Bool(false));
                changes.push(SchemaNote::new(path, "added `additionalProperties: false`"));
            }
            for (k, v) in map.iter_mut() {
                close_records(v, &crate::schema::walk::child(path, k), changes);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                close_records(
                    v,
                    &crate::schema::walk::child(path, &i.to_string()),
                    changes,
                );
            }
        }
        _ => {}
    }
}

fn open_objects(value: &Value, path: &str, out: &mut Vec<SchemaNote>) {
    match value {
        Value::Object(map) => {
            let is_object = map.get("type").is_some_and(|t| t == "object");
            if is_object && map.get("additionalProperties") != Some(&Value::Bool(false)) {
                out.push(SchemaNote::new(
                    path,
                    "an object that is not closed (`additionalProperties: false`), e.g. a map",
                ));
            }
            for (k, v) in map {
                open_objects(v, &crate::schema::walk::child(path, k), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                open_objects(v, &crate::schema::walk::child(path, &i.to_string()), out);
            }
        }
        _ => {}
    }
}

/// A definition that can reach itself through `$ref`s.
fn recursive_defs(schema: &Value, out: &mut Vec<SchemaNote>) {
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
        return;
    };
    for name in defs.keys() {
        let mut seen = Vec::new();
        let mut queue = vec![name.clone()];
        while let Some(current) = queue.pop() {
            let mut refs = Vec::new();
            if let Some(def) = defs.get(&current) {
                refs_in(def, &mut refs);
            }
            for r in refs {
                if r == *name {
                    out.push(SchemaNote::new(
                        crate::schema::walk::child("#/$defs", name),
                        "a recursive type; strict tool use does not allow recursion",
                    ));
                    queue.clear();
                    break;
                }
                if !seen.contains(&r) {
                    seen.push(r.clone());
                    queue.push(r);
                }
            }
        }
    }
}

fn refs_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(t) = map.get("$ref").and_then(Value::as_str).and_then(ref_target) {
                out.push(t.to_owned());
            }
            map.values().for_each(|v| refs_in(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs_in(v, out)),
        _ => {}
    }
}
