//! Output schemas: the JSON Schema of the structured result a tool returns in `data`.
//!
//! MCP's rules shape it: `outputSchema` must be an object schema (`"type": "object"` at the
//! root) and a result that has one carries its `data` as `structuredContent`. A type whose
//! schema is not an object at the root (a list, a number, an enum) gets a wrapper schema
//! `{"result": <its schema>}` marked `"x-fastmcp-wrap-result": true`, and its `structuredContent` is
//! `{"result": data}`; its value still reaches the model as plain text.

use std::marker::PhantomData;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

use crate::into_response::Json;

/// The key that marks a wrapped output schema: a result whose type is not an object at the
/// root (an integer, a list, an enum) is sent as `structuredContent: {"result": value}` under
/// an object schema carrying `"x-fastmcp-wrap-result": true`, FastMCP's convention, so
/// FastMCP clients unwrap it and any client can validate it.
pub(crate) const WRAP_RESULT_KEY: &str = "x-fastmcp-wrap-result";

/// The output schema of `T`: schemars' JSON Schema 2020-12 without `$schema` and `title`.
/// MCP wants an object at the root; any other `T` is wrapped as `{"result": T}` (marked
/// `"x-fastmcp-wrap-result": true`, FastMCP's convention, its `$defs` moved to the wrapper).
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// struct Forecast { city: String, temp_c: f32 }
///
/// let schema = tool_core::output_schema_of::<Forecast>().unwrap();
/// assert_eq!(schema["type"], "object");
/// assert_eq!(schema["required"], serde_json::json!(["city", "temp_c"]));
///
/// let wrapped = tool_core::output_schema_of::<i64>().unwrap();
/// assert_eq!(wrapped["properties"]["result"]["type"], "integer");
/// assert_eq!(wrapped["required"], serde_json::json!(["result"]));
/// assert_eq!(wrapped["x-fastmcp-wrap-result"], true);
/// ```
pub fn output_schema_of<T: JsonSchema>() -> Option<Value> {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let Value::Object(mut map) = generator.into_root_schema_for::<T>().to_value() else {
        return None;
    };
    map.remove("$schema");
    map.remove("title");
    if map.get("type").and_then(Value::as_str) == Some("object") {
        return Some(Value::Object(map));
    }
    let defs = map.remove("$defs");
    let mut wrapper = serde_json::Map::new();
    wrapper.insert("type".into(), "object".into());
    wrapper.insert(
        "properties".into(),
        serde_json::json!({ "result": Value::Object(map) }),
    );
    wrapper.insert("required".into(), serde_json::json!(["result"]));
    wrapper.insert(WRAP_RESULT_KEY.into(), Value::Bool(true));
    if let Some(defs) = defs {
        wrapper.insert("$defs".into(), defs);
    }
    Some(Value::Object(wrapper))
}

/// Whether an output schema is a wrapper made by [`output_schema_of`] (the structured result
/// is then `{"result": data}`).
pub(crate) fn is_wrapped_output(schema: &Value) -> bool {
    schema.get(WRAP_RESULT_KEY) == Some(&Value::Bool(true))
}

/// The schema a 2026-07-28 session gets for a wrapped output schema: that revision allows
/// any JSON Schema as `outputSchema` and any JSON value as `structuredContent`, so the value
/// goes out as it is, under the schema of `result` (with the wrapper's `$defs` moved back).
/// `None` for a schema that is not a wrapper (it is the same in both eras).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn unwrapped_output(schema: &Value) -> Option<Value> {
    if !is_wrapped_output(schema) {
        return None;
    }
    let mut inner = schema.get("properties")?.get("result")?.clone();
    if let (Value::Object(map), Some(defs)) = (&mut inner, schema.get("$defs")) {
        map.insert("$defs".into(), defs.clone());
    }
    Some(inner)
}

/// Return types whose structured result has a schema: [`Json<T>`] with `T: JsonSchema`, and a
/// `Result` of one. `#[tool]` asks this (through [`OutputProbe`]) to fill
/// [`Tool::output_schema`](crate::Tool::output_schema).
pub trait StructuredOutput {
    /// The output schema (wrapped when the type is not an object at the root).
    fn output_schema() -> Option<Value>;
}

impl<T: JsonSchema> StructuredOutput for Json<T> {
    fn output_schema() -> Option<Value> {
        output_schema_of::<T>()
    }
}

impl<T: StructuredOutput, E> StructuredOutput for Result<T, E> {
    fn output_schema() -> Option<Value> {
        T::output_schema()
    }
}

/// Asks whether a return type `R` implements [`StructuredOutput`] without requiring it:
/// generated code calls `(&OutputProbe::<R>::new()).output_schema()` with both
/// [`ProbeStructured`] and [`ProbePlain`] in scope. Method lookup tries the receiver
/// `&OutputProbe<R>` before auto-referencing, so `ProbeStructured` answers when its bound
/// holds and `ProbePlain` (implemented one reference further out) otherwise. This keeps
/// `Json<T>` usable for any `T: Serialize` while giving a schema to those that have one.
#[doc(hidden)]
pub struct OutputProbe<R>(PhantomData<fn() -> R>);

impl<R> OutputProbe<R> {
    // Generated code calls it in const-free expression position; `Default` would add nothing.
    #[allow(missing_docs, clippy::new_without_default)]
    pub const fn new() -> Self {
        OutputProbe(PhantomData)
    }
}

#[doc(hidden)]
pub trait ProbeStructured {
    #[allow(missing_docs)]
    fn output_schema(&self) -> Option<Value>;
}

impl<R: StructuredOutput> ProbeStructured for OutputProbe<R> {
    fn output_schema(&self) -> Option<Value> {
        R::output_schema()
    }
}

#[doc(hidden)]
pub trait ProbePlain {
    #[allow(missing_docs)]
    fn output_schema(&self) -> Option<Value>;
}

impl<R> ProbePlain for &OutputProbe<R> {
    fn output_schema(&self) -> Option<Value> {
        None
    }
}

#[cfg(test)]
// The borrow picks the fallback when the bound fails; clippy only sees the cases where it
// holds.
#[allow(clippy::needless_borrow)]
mod tests {
    use super::*;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        y: i32,
    }

    #[test]
    fn probe_finds_schema_for_json_of_object() {
        let schema = (&OutputProbe::<Json<Point>>::new()).output_schema();
        assert_eq!(schema.unwrap()["required"], serde_json::json!(["x", "y"]));
        let nested = (&OutputProbe::<Result<Json<Point>, std::io::Error>>::new()).output_schema();
        assert!(nested.is_some());
    }

    #[test]
    fn probe_falls_back_for_other_types() {
        assert!((&OutputProbe::<String>::new()).output_schema().is_none());
        // `Json` of a type without `JsonSchema` still compiles, with no schema.
        struct Opaque;
        assert!((&OutputProbe::<Json<Opaque>>::new())
            .output_schema()
            .is_none());
        // A non-object root is wrapped as `{"result": ..}`, `$defs` hoisted to the wrapper.
        let wrapped = (&OutputProbe::<Json<Vec<Point>>>::new())
            .output_schema()
            .unwrap();
        assert!(is_wrapped_output(&wrapped));
        assert_eq!(wrapped["properties"]["result"]["type"], "array");
        assert!(wrapped["$defs"]["Point"].is_object(), "{wrapped}");
        // Unwrapped for 2026-07-28: the list's own schema, its `$defs` back at its root.
        let plain = unwrapped_output(&wrapped).unwrap();
        assert_eq!(plain["type"], "array");
        assert!(plain["$defs"]["Point"].is_object(), "{plain}");
        assert!(unwrapped_output(&output_schema_of::<Point>().unwrap()).is_none());
    }
}
