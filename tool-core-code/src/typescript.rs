//! JSON Schema to TypeScript types, for the declarations in the code tool's description.
//! Covers what tool schemas use (types, properties and `required`, items, enums and consts,
//! unions, local `$ref`s); anything else reads `unknown`, which is true if vague.

use serde_json::{Map, Value};

/// How deep `$ref`s and nesting are followed before a type reads `unknown`: bounds the text
/// for recursive schemas.
const MAX_DEPTH: usize = 8;

/// The TypeScript type of `schema`, whose `$ref`s resolve against `root`.
pub(crate) fn ts_type(schema: &Value, root: &Value) -> String {
    let mut out = String::new();
    write_type(&mut out, schema, root, 0);
    out
}

/// The parameter list of a tool: `args: {...}`, optional when nothing is required.
pub(crate) fn ts_params(schema: &Value) -> String {
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    let has_properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    let ty = if has_properties {
        ts_type(schema, schema)
    } else {
        "{}".to_string()
    };
    if required {
        format!("args: {ty}")
    } else {
        format!("args?: {ty}")
    }
}

fn write_type(out: &mut String, schema: &Value, root: &Value, depth: usize) {
    let Some(object) = schema.as_object() else {
        out.push_str(if schema == &Value::Bool(false) {
            "never"
        } else {
            "unknown"
        });
        return;
    };
    if depth > MAX_DEPTH {
        out.push_str("unknown");
        return;
    }
    if let Some(target) = object.get("$ref").and_then(Value::as_str) {
        match resolve(target, root) {
            Some(found) => write_type(out, found, root, depth + 1),
            None => out.push_str("unknown"),
        }
        return;
    }
    if let Some(value) = object.get("const") {
        out.push_str(&value.to_string());
        return;
    }
    if let Some(values) = object.get("enum").and_then(Value::as_array) {
        join(out, values.iter(), " | ", |out, v| {
            out.push_str(&v.to_string())
        });
        return;
    }
    for (key, separator) in [("anyOf", " | "), ("oneOf", " | "), ("allOf", " & ")] {
        if let Some(parts) = object.get(key).and_then(Value::as_array) {
            join(out, parts.iter(), separator, |out, part| {
                let mut inner = String::new();
                write_type(&mut inner, part, root, depth + 1);
                parenthesize(out, &inner);
            });
            return;
        }
    }
    match object.get("type") {
        Some(Value::String(ty)) => write_named(out, ty, object, root, depth),
        Some(Value::Array(types)) => join(out, types.iter(), " | ", |out, ty| match ty.as_str() {
            Some(ty) => write_named(out, ty, object, root, depth),
            None => out.push_str("unknown"),
        }),
        _ if object.contains_key("properties") => write_named(out, "object", object, root, depth),
        _ => out.push_str("unknown"),
    }
}

fn write_named(
    out: &mut String,
    ty: &str,
    object: &Map<String, Value>,
    root: &Value,
    depth: usize,
) {
    match ty {
        "string" => out.push_str("string"),
        "integer" | "number" => out.push_str("number"),
        "boolean" => out.push_str("boolean"),
        "null" => out.push_str("null"),
        "array" => {
            let mut inner = String::new();
            match object.get("items") {
                Some(items) => write_type(&mut inner, items, root, depth + 1),
                None => inner.push_str("unknown"),
            }
            parenthesize(out, &inner);
            out.push_str("[]");
        }
        "object" => write_object(out, object, root, depth),
        _ => out.push_str("unknown"),
    }
}

fn write_object(out: &mut String, object: &Map<String, Value>, root: &Value, depth: usize) {
    let properties = object.get("properties").and_then(Value::as_object);
    let Some(properties) = properties.filter(|p| !p.is_empty()) else {
        let mut inner = String::new();
        match object.get("additionalProperties") {
            Some(schema @ Value::Object(_)) => write_type(&mut inner, schema, root, depth + 1),
            _ => inner.push_str("unknown"),
        }
        out.push_str("Record<string, ");
        out.push_str(&inner);
        out.push('>');
        return;
    };
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.push_str("{ ");
    for (index, (name, schema)) in properties.iter().enumerate() {
        if index > 0 {
            out.push_str("; ");
        }
        if let Some(description) = schema.get("description").and_then(Value::as_str) {
            out.push_str("/** ");
            out.push_str(&doc_text(description));
            out.push_str(" */ ");
        }
        if is_identifier(name) {
            out.push_str(name);
        } else {
            out.push_str(&Value::String(name.clone()).to_string());
        }
        if !required.contains(&name.as_str()) {
            out.push('?');
        }
        out.push_str(": ");
        write_type(out, schema, root, depth + 1);
    }
    out.push_str(" }");
}

/// A local `$ref` (`#/$defs/Name`, `#/definitions/Name`, any JSON pointer into the root).
fn resolve<'a>(target: &str, root: &'a Value) -> Option<&'a Value> {
    let pointer = target.strip_prefix('#')?;
    root.pointer(pointer)
}

fn join<'a, I, F>(out: &mut String, items: I, separator: &str, mut each: F)
where
    I: Iterator<Item = &'a Value>,
    F: FnMut(&mut String, &'a Value),
{
    let mut any = false;
    for (index, item) in items.enumerate() {
        if index > 0 {
            out.push_str(separator);
        }
        each(out, item);
        any = true;
    }
    if !any {
        out.push_str("never");
    }
}

fn parenthesize(out: &mut String, inner: &str) {
    if inner.contains(" | ") || inner.contains(" & ") {
        out.push('(');
        out.push_str(inner);
        out.push(')');
    } else {
        out.push_str(inner);
    }
}

/// Text for a `/** */` comment: one line, and no `*/` that would close it.
pub(crate) fn doc_text(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "*\\/")
}

/// Whether `name` can be written bare as a property name (`tools.name`).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_enums_arrays_and_refs_become_typescript() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city */ name"},
                "unit": {"enum": ["c", "f"]},
                "days": {"type": ["integer", "null"]},
                "tags": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}]}},
                "where": {"$ref": "#/$defs/Point"},
                "odd-name": {"type": "boolean"}
            },
            "required": ["city"],
            "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}}
        });
        assert_eq!(
            ts_params(&schema),
            "args: { /** The city *\\/ name */ city: string; unit?: \"c\" | \"f\"; days?: number | null; \
             tags?: (string | number)[]; where?: { x: number }; \"odd-name\"?: boolean }"
        );
    }

    #[test]
    fn recursive_refs_end_in_unknown() {
        let schema = json!({"$ref": "#/$defs/Node", "$defs": {"Node": {"type": "object",
            "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
        let text = ts_type(&schema, &schema);
        assert!(text.contains("unknown"), "{text}");
        assert!(text.len() < 400, "{text}");
    }
}
