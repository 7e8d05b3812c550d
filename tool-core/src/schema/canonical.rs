//! Building the canonical schema of a parameters type with schemars.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The canonical schema of a parameters type (normally the struct `#[tool]` generates).
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct Args {
///     /// What to look for.
///     query: String,
///     limit: Option<u32>,
/// }
///
/// let schema = tool_core::schema::canonical_schema::<Args>();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], serde_json::json!(["query"]));
/// assert_eq!(schema["properties"]["query"]["description"], "What to look for.");
/// assert!(schema.get("title").is_none() && schema.get("$schema").is_none());
/// ```
pub fn canonical_schema<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let root = generator.into_root_schema_for::<T>();
    normalize_root(root.to_value())
}

/// Makes a schemars root schema canonical: object root, no `$schema`/`title`, closed (and
/// every nested record closed too, see `close_records`), `properties` always present,
/// `required` present only when non-empty.
pub(crate) fn normalize_root(value: Value) -> Value {
    let mut map = match value {
        Value::Object(map) => map,
        // schemars always returns an object for a struct; anything else is not a parameters
        // type, and the safest canonical form is "no parameters".
        _ => Map::new(),
    };
    let mut out = Map::new();
    out.insert("type".into(), Value::from("object"));
    if let Some(description) = map.remove("description") {
        out.insert("description".into(), description);
    }
    out.insert(
        "properties".into(),
        map.remove("properties")
            .unwrap_or_else(|| Value::Object(Map::new())),
    );
    match map.remove("required") {
        Some(Value::Array(required)) if !required.is_empty() => {
            out.insert("required".into(), Value::Array(required));
        }
        _ => {}
    }
    out.insert("additionalProperties".into(), Value::Bool(false));
    map.remove("$schema");
    map.remove("title");
    map.remove("type");
    map.remove("additionalProperties");
    // Whatever else schemars put at the root ($defs, examples …) follows, in its order.
    out.extend(map);
    let mut out = Value::Object(out);
    close_records(&mut out, false);
    out
}

/// Closes every record below the root: an object schema with `properties` that says nothing
/// about other keys gets `additionalProperties: false`, so the model knows its valid keys and
/// the decoder's nested-key check (`args::ClosedObjects`) rejects the rest.
///
/// Left open: maps and flattened maps (their `additionalProperties` is a schema or `true`),
/// types that opt out with `#[schemars(extend("additionalProperties" = true))]`, objects with
/// `patternProperties`, and a record merged with a flattened enum (`properties` beside
/// `oneOf`), whose keys are spread over the node and its branches: closing either part would
/// reject the other's keys. `flattened` marks such a branch.
fn close_records(node: &mut Value, flattened: bool) {
    let Some(map) = node.as_object_mut() else {
        return;
    };
    let has_properties = map.contains_key("properties");
    let combined = ["allOf", "anyOf", "oneOf"]
        .iter()
        .any(|k| map.contains_key(*k));
    let is_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    if is_object
        && has_properties
        && !flattened
        && !combined
        && !map.contains_key("additionalProperties")
        && !map.contains_key("patternProperties")
    {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (key, child) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                if let Some(children) = child.as_object_mut() {
                    children.values_mut().for_each(|c| close_records(c, false));
                }
            }
            "items" | "additionalProperties" | "not" | "contains" => close_records(child, false),
            "prefixItems" => {
                if let Some(children) = child.as_array_mut() {
                    children.iter_mut().for_each(|c| close_records(c, false));
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                if let Some(children) = child.as_array_mut() {
                    children
                        .iter_mut()
                        .for_each(|c| close_records(c, has_properties));
                }
            }
            _ => {}
        }
    }
}
