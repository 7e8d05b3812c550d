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

/// Makes a schemars root schema canonical: object root, no `$schema`/`title`, closed,
/// `properties` always present, `required` present only when non-empty.
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
    Value::Object(out)
}
