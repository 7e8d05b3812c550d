//! Turning an untyped Qwen3-Coder parameter value into JSON with the tool's schema.
//!
//! `"5"` for an integer parameter is `5`; an object or array parameter is parsed as JSON; a
//! string stays exactly as written. A parameter the schema does not describe (or a tool with
//! no schema given) stays a string, as in vLLM's parser. A value that fits none of the
//! declared types is `INVALID_PARAM` naming the parameter and the type expected.

use serde_json::{Number, Value};

use crate::response::{ToolErrorCode, ToolResponse};

/// A converted value: text that stays a JSON string (borrowed from the reply, escaped once
/// when the arguments are written, so that a long value is not copied on the way), or any
/// other JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Converted<'a> {
    Text(&'a str),
    Json(Value),
}

impl Converted<'_> {
    #[cfg(test)]
    fn into_value(self) -> Value {
        match self {
            Converted::Text(s) => Value::String(s.to_string()),
            Converted::Json(v) => v,
        }
    }
}

/// Converts `value` of parameter `key` of `tool`; `schema` is the tool's input schema.
pub(crate) fn convert<'a>(
    tool: &str,
    key: &str,
    value: &'a str,
    schema: Option<&Value>,
) -> Result<Converted<'a>, ToolResponse> {
    convert_in(tool, key, value, schema, ("<parameter=", ">"))
}

/// [`convert`] for a format whose values are written inside `place.0` KEY `place.1` (named in
/// the message that says how to write a value of the wrong type).
pub(crate) fn convert_in<'a>(
    tool: &str,
    key: &str,
    value: &'a str,
    schema: Option<&Value>,
    place: (&str, &str),
) -> Result<Converted<'a>, ToolResponse> {
    let property = schema
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get(key));
    let mut types = Vec::new();
    if let Some(property) = property {
        collect_types(property, &mut types);
    }
    if types.is_empty() || types.iter().all(|t| *t == "string") {
        return Ok(Converted::Text(value));
    }
    if is_null(value.trim()) {
        // As in vLLM's parsers: `null`, `NULL` and `None` are null for any type but a string.
        return Ok(Converted::Json(Value::Null));
    }
    for ty in &types {
        if let Some(v) = try_type(ty, value) {
            return Ok(Converted::Json(v));
        }
    }
    if types.contains(&"string") {
        return Ok(Converted::Text(value));
    }
    let expected = types
        .iter()
        .map(|t| article(t))
        .collect::<Vec<_>>()
        .join(" or ");
    let shown: String = value.chars().take(40).collect();
    Err(ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!(
            "Parameter '{key}' of '{tool}' expects {expected}, got {shown:?}. \
             Write the value as {} inside {}{key}{}.",
            article(types.first().copied().unwrap_or("string")),
            place.0,
            place.1
        ),
    ))
}

/// The JSON types a property allows: `type` (a name or a list), else those of its
/// `anyOf`/`oneOf` branches; `enum`/`const` values give theirs.
fn collect_types(property: &Value, types: &mut Vec<&'static str>) {
    match property.get("type") {
        Some(Value::String(t)) => push(types, json_type(t)),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .for_each(|t| push(types, json_type(t))),
        _ => {}
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = property.get(key) {
            for b in branches {
                collect_types(b, types);
            }
        }
    }
    let constants = property
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(property.get("const"));
    for c in constants {
        push(
            types,
            match c {
                Value::String(_) => "string",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_f64() => "number",
                Value::Number(_) => "integer",
                Value::Null => "null",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            },
        );
    }
}

/// The JSON type a schema's type name stands for. Schemas in the wild also say `int`,
/// `float`, `double`, `bool`, `dict`, `list` (and vLLM reads them so); a name that is none of
/// these takes the value as written, so no value is ever refused for an unknown type name.
fn json_type(name: &str) -> &'static str {
    let name = name.trim().to_ascii_lowercase();
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    match name.as_str() {
        "null" | "none" => "null",
        "boolean" | "bool" | "binary" => "boolean",
        "object" | "dict" | "map" => "object",
        "double" | "decimal" | "real" => "number",
        _ if starts(&["int", "uint", "long", "short", "unsigned"]) => "integer",
        _ if starts(&["num", "float"]) => "number",
        _ if starts(&["arr", "list", "tuple"]) => "array",
        _ if starts(&["dict", "object"]) => "object",
        _ => "string",
    }
}

/// `null`, `NULL`, `None` (as Python writes it) and the like.
fn is_null(value: &str) -> bool {
    value.eq_ignore_ascii_case("null") || value.eq_ignore_ascii_case("none")
}

fn push(types: &mut Vec<&'static str>, t: &'static str) {
    if !types.contains(&t) {
        types.push(t);
    }
}

fn try_type(ty: &str, value: &str) -> Option<Value> {
    let v = value.trim();
    match ty {
        "integer" => v
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| v.parse::<u64>().map(Value::from))
            .ok(),
        "number" => {
            if let Ok(i) = v.parse::<i64>() {
                return Some(Value::from(i));
            }
            v.parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(Value::Number)
        }
        "boolean" => match v.to_ascii_lowercase().as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        "null" => (v.is_empty() || is_null(v)).then_some(Value::Null),
        "object" => serde_json::from_str::<Value>(v)
            .ok()
            .filter(Value::is_object),
        "array" => serde_json::from_str::<Value>(v)
            .ok()
            .filter(Value::is_array),
        _ => None,
    }
}

fn article(ty: &str) -> &'static str {
    match ty {
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean (true or false)",
        "null" => "null",
        "object" => "a JSON object",
        "array" => "a JSON array",
        _ => "a string",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
            "o": {"type": "object"}, "a": {"type": "array", "items": {"type": "string"}},
            "s": {"type": "string"}, "maybe": {"type": ["integer", "null"]},
            "mode": {"enum": ["fast", "slow"]}
        }})
    }

    #[test]
    fn values_take_the_declared_type() {
        let s = schema();
        let c = |k: &str, v: &str| convert("t", k, v, Some(&s)).unwrap().into_value();
        assert_eq!(c("n", " 5 "), json!(5));
        assert_eq!(c("x", "2.5"), json!(2.5));
        assert_eq!(c("b", "True"), json!(true));
        assert_eq!(c("o", "{\"k\": [1]}"), json!({"k": [1]}));
        assert_eq!(c("a", "[\"p\"]"), json!(["p"]));
        assert_eq!(c("s", "  42\n"), json!("  42\n"));
        assert_eq!(c("maybe", "null"), Value::Null);
        assert_eq!(c("mode", "fast"), json!("fast"));
        assert_eq!(c("unknown", "7"), json!("7"));
    }

    /// Type names seen in the wild (vLLM's Qwen3-Coder parser reads `int`, `float`,
    /// `double`, `bool`, `dict`, `list` the same way), and null as the peers read it.
    #[test]
    fn type_names_in_the_wild_convert_like_the_standard_ones() {
        let s = json!({"type": "object", "properties": {
            "f": {"type": "float"}, "d": {"type": "double"}, "i": {"type": "int"},
            "u": {"type": "uint64"}, "b": {"type": "bool"}, "m": {"type": "dict"},
            "l": {"type": "list"}, "when": {"type": "date"}, "n": {"type": "integer"}
        }});
        let c = |k: &str, v: &str| convert("t", k, v, Some(&s)).unwrap().into_value();
        assert_eq!(c("f", "3.5"), json!(3.5));
        assert_eq!(c("d", "2"), json!(2));
        assert_eq!(c("i", " 7 "), json!(7));
        assert_eq!(c("u", "8"), json!(8));
        assert_eq!(c("b", "false"), json!(false));
        assert_eq!(c("m", "{\"k\": 1}"), json!({"k": 1}));
        assert_eq!(c("l", "[1]"), json!([1]));
        // An unknown type name takes the value as written rather than refusing it.
        assert_eq!(c("when", "2025-08-01"), json!("2025-08-01"));
        for null in ["null", "NULL", "None", " none "] {
            assert_eq!(c("n", null), Value::Null, "{null}");
        }
        // The message names the type the schema means, never "a string" for a number.
        let err = convert("t", "f", "fast", Some(&s)).unwrap_err();
        let msg = err.error_message().unwrap();
        assert!(msg.contains("'f' of 't' expects a number"), "{msg}");
    }

    #[test]
    fn a_value_of_the_wrong_type_names_the_parameter_and_the_type() {
        let s = schema();
        let err = convert("calc", "n", "five", Some(&s)).unwrap_err();
        assert_eq!(err.error_code(), Some(ToolErrorCode::InvalidParam));
        let msg = err.error_message().unwrap();
        assert!(msg.contains("'n' of 'calc' expects an integer"), "{msg}");
        assert!(msg.contains("\"five\""), "{msg}");
    }
}
