//! The harmony developer message's `# Tools` section: `namespace functions { ... }` with one
//! TypeScript-like signature per tool.

use serde_json::Value;

use crate::definition::ToolDefinition;

pub(super) fn harmony_tools(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("# Tools\n\n## functions\n\nnamespace functions {\n");
    for def in definitions {
        out.push('\n');
        comment(&def.description, "", &mut out);
        out.push_str("type ");
        out.push_str(&def.name);
        let properties = def
            .input_schema
            .get("properties")
            .and_then(Value::as_object);
        match properties.filter(|p| !p.is_empty()) {
            None => out.push_str(" = () => any;\n"),
            Some(properties) => {
                out.push_str(" = (_: {\n");
                let required: Vec<&str> = def
                    .input_schema
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                for (key, property) in properties {
                    if let Some(d) = property.get("description").and_then(Value::as_str) {
                        comment(d, "", &mut out);
                    }
                    out.push_str(key);
                    if !required.contains(&key.as_str()) {
                        out.push('?');
                    }
                    out.push_str(": ");
                    out.push_str(&ts_type(property));
                    out.push_str(",\n");
                }
                out.push_str("}) => any;\n");
            }
        }
    }
    out.push_str("\n} // namespace functions");
    out
}

fn comment(text: &str, indent: &str, out: &mut String) {
    for line in text.lines() {
        out.push_str(indent);
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
}

/// A TypeScript type for a JSON Schema, as harmony lists parameters.
fn ts_type(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            return branches.iter().map(ts_type).collect::<Vec<_>>().join(" | ");
        }
    }
    match schema.get("type") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|t| ts_type(&serde_json::json!({"type": t})))
            .collect::<Vec<_>>()
            .join(" | "),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".to_string(),
            "integer" | "number" => "number".to_string(),
            "boolean" => "boolean".to_string(),
            "null" => "null".to_string(),
            "array" => match schema.get("items") {
                Some(items) => format!("{}[]", ts_type(items)),
                None => "any[]".to_string(),
            },
            "object" => match schema.get("properties").and_then(Value::as_object) {
                Some(props) if !props.is_empty() => {
                    let fields: Vec<String> = props
                        .iter()
                        .map(|(k, v)| format!("{k}: {}", ts_type(v)))
                        .collect();
                    format!("{{ {} }}", fields.join(", "))
                }
                _ => "object".to_string(),
            },
            _ => "any".to_string(),
        },
        _ => "any".to_string(),
    }
}
