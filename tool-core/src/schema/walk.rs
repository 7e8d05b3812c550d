//! Small helpers shared by the dialect transforms: `$ref` targets, nullability, descriptions.

use serde_json::{Map, Value};

/// The `$defs` name a local reference points at (`#/$defs/Name` -> `Name`).
pub(crate) fn ref_target(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

/// Whether a schema node already accepts `null` (a `null` type, a type list with `null`, or a
/// `null` branch of `anyOf`/`oneOf`).
pub(crate) fn admits_null(node: &Map<String, Value>) -> bool {
    let type_null = match node.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let branch_null = ["anyOf", "oneOf"].iter().any(|k| {
        node.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                branches
                    .iter()
                    .any(|b| b.as_object().is_some_and(admits_null))
            })
    });
    type_null || branch_null
}

/// Renames a key in place, keeping its position (maps keep insertion order here).
pub(crate) fn rename_key(node: &mut Map<String, Value>, from: &str, to: &str) {
    if !node.contains_key(from) {
        return;
    }
    let old = std::mem::take(node);
    for (k, v) in old {
        if k == from {
            node.insert(to.to_string(), v);
        } else {
            node.insert(k, v);
        }
    }
}

/// Appends keyword text a dialect cannot express to the description, so the model still
/// reads the constraint: `"How many. (default: 10; maxLength: 5)"`.
pub(crate) fn append_to_description(node: &mut Map<String, Value>, moved: &[(String, Value)]) {
    if moved.is_empty() {
        return;
    }
    let text = moved
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) if k == "format" || k == "pattern" => format!("{k}: {s}"),
            other => format!("{k}: {other}"),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let merged = match node.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} ({text})"),
        _ => format!("({text})"),
    };
    node.insert("description".into(), Value::String(merged));
}

/// Numeric `format` values schemars emits (`int64`, `uint32`, `double`, …). Their meaning is
/// already carried by `type` and `minimum`, so dropping them loses nothing a model needs.
pub(crate) fn is_numeric_format(format: &str) -> bool {
    matches!(
        format,
        "int8"
            | "int16"
            | "int32"
            | "int64"
            | "int128"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "uint128"
            | "float"
            | "double"
    )
}

/// Appends a pointer segment (escaped per RFC 6901).
pub(crate) fn child(path: &str, segment: &str) -> String {
    let escaped = segment.replace('~', "~0").replace('/', "~1");
    format!("{path}/{escaped}")
}
