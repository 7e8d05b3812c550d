//! One checker per dialect, written from the providers' documented rules and independent of
//! the transforms (the lists are restated here on purpose): each returns every violation.

use serde_json::{Map, Value};

fn at(path: &str, key: &str) -> String {
    format!("{path}/{key}")
}

// ---------------------------------------------------------------------------------------------
// OpenAI strict mode: OpenAI Structured Outputs guide, "Supported schemas".

const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Violations of OpenAI strict mode in a schema sent with `strict: true`.
pub fn openai_strict(schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let Some(root) = schema.as_object() else {
        return vec!["root is not an object".into()];
    };
    if root.get("type") != Some(&Value::from("object")) {
        errors.push("root type is not object".into());
    }
    if root.contains_key("anyOf") {
        errors.push("root is anyOf".into());
    }
    let mut stats = (0usize, 0usize, 0usize); // properties, max depth, enum values
    openai_node(schema, "#", 0, &mut errors, &mut stats);
    if stats.0 > 5000 {
        errors.push(format!("{} properties > 5000", stats.0));
    }
    if stats.1 > 10 {
        errors.push(format!("nesting {} > 10", stats.1));
    }
    if stats.2 > 1000 {
        errors.push(format!("{} enum values > 1000", stats.2));
    }
    errors
}

fn openai_node(
    v: &Value,
    path: &str,
    depth: usize,
    errors: &mut Vec<String>,
    stats: &mut (usize, usize, usize),
) {
    let Some(node) = v.as_object() else { return };
    for key in node.keys() {
        if !OPENAI_KEYWORDS.contains(&key.as_str()) {
            errors.push(format!("{path}: keyword `{key}` not supported"));
        }
    }
    if node.contains_key("$ref") && node.len() > 1 {
        errors.push(format!("{path}: `$ref` has sibling keywords"));
    }
    if let Some(format) = node.get("format").and_then(Value::as_str) {
        if !OPENAI_FORMATS.contains(&format) {
            errors.push(format!("{path}: format `{format}` not supported"));
        }
    }
    if let Some(Value::Array(values)) = node.get("enum") {
        stats.2 += values.len();
    }
    let is_object = match node.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(t)) => t.iter().any(|t| t == "object"),
        _ => false,
    };
    let mut depth = depth;
    if is_object {
        depth += 1;
        stats.1 = stats.1.max(depth);
        if node.get("additionalProperties") != Some(&Value::Bool(false)) {
            errors.push(format!(
                "{path}: object without additionalProperties: false"
            ));
        }
        let props: Vec<&String> = node
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        stats.0 += props.len();
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for p in &props {
            if !required.contains(&p.as_str()) {
                errors.push(format!("{path}: property `{p}` not in required"));
            }
        }
    }
    for (key, child) in node {
        let child_path = at(path, key);
        match key.as_str() {
            "properties" | "$defs" => {
                if let Some(map) = child.as_object() {
                    for (name, schema) in map {
                        let d = if key == "$defs" { 0 } else { depth };
                        openai_node(schema, &at(&child_path, name), d, errors, stats);
                    }
                }
            }
            "items" => openai_node(child, &child_path, depth, errors, stats),
            "anyOf" => {
                for (i, b) in child.as_array().into_iter().flatten().enumerate() {
                    openai_node(b, &at(&child_path, &i.to_string()), depth, errors, stats);
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Gemini `parameters`: Gemini API reference, `Schema` (an OpenAPI 3.0 subset).

const GEMINI_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];
const GEMINI_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Violations of the `parameters` subset.
pub fn gemini_parameters(schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    if schema.get("type") != Some(&Value::from("object")) {
        errors.push("root type is not object".into());
    }
    gemini_node(schema, "#", &mut errors);
    errors
}

fn gemini_node(v: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(node) = v.as_object() else {
        errors.push(format!("{path}: not an object"));
        return;
    };
    for key in node.keys() {
        if !GEMINI_KEYS.contains(&key.as_str()) {
            errors.push(format!("{path}: key `{key}` not allowed"));
        }
    }
    let ty = node.get("type").and_then(Value::as_str);
    match node.get("type") {
        Some(Value::String(t)) if GEMINI_TYPES.contains(&t.as_str()) => {}
        None if node.contains_key("anyOf") => {}
        other => errors.push(format!(
            "{path}: type {other:?} is not one of the subset's types"
        )),
    }
    if let Some(format) = node.get("format").and_then(Value::as_str) {
        let ok = matches!(
            (ty.unwrap_or(""), format),
            ("number", "float" | "double")
                | ("integer", "int32" | "int64")
                | ("string", "enum" | "date-time")
        );
        if !ok {
            errors.push(format!("{path}: format `{format}` not allowed for {ty:?}"));
        }
    }
    if let Some(values) = node.get("enum") {
        let strings = values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string));
        if !strings || ty != Some("string") {
            errors.push(format!("{path}: enum must be strings on a string type"));
        }
    }
    if let Some(Value::Object(props)) = node.get("properties") {
        for (name, schema) in props {
            gemini_node(schema, &at(&at(path, "properties"), name), errors);
        }
        if let Some(Value::Array(required)) = node.get("required") {
            for r in required {
                if !r.as_str().is_some_and(|r| props.contains_key(r)) {
                    errors.push(format!("{path}: required `{r}` is not a property"));
                }
            }
        }
    }
    if let Some(items) = node.get("items") {
        gemini_node(items, &at(path, "items"), errors);
    }
    if ty == Some("array") && !node.contains_key("items") {
        errors.push(format!("{path}: array without items"));
    }
    for (i, b) in node
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        gemini_node(b, &at(&at(path, "anyOf"), &i.to_string()), errors);
    }
}

// ---------------------------------------------------------------------------------------------
// Anthropic `input_schema`: tool use guide; root `type: object`, no root combinators.

/// Violations of Anthropic's `input_schema` rules.
pub fn anthropic_input_schema(schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let root = schema.as_object().cloned().unwrap_or_else(Map::new);
    if root.get("type") != Some(&Value::from("object")) {
        errors.push("root type is not object".into());
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if root.contains_key(key) {
            errors.push(format!("root has `{key}`"));
        }
    }
    if let Some(Value::Object(defs)) = root.get("$defs") {
        let _ = defs; // $defs are accepted; every $ref must resolve.
    }
    dangling_refs(schema, schema, &mut errors);
    errors
}

fn dangling_refs(root: &Value, v: &Value, errors: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                let name = r.trim_start_matches("#/$defs/");
                if root.get("$defs").and_then(|d| d.get(name)).is_none() {
                    errors.push(format!("dangling $ref {r}"));
                }
            }
            map.values().for_each(|c| dangling_refs(root, c, errors));
        }
        Value::Array(items) => items.iter().for_each(|c| dangling_refs(root, c, errors)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// MCP `tools/list` entry: specification, Tools.

/// Violations of the MCP tool entry shape.
pub fn mcp_tool(tool: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    for key in tool.as_object().into_iter().flat_map(Map::keys) {
        if ![
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
        ]
        .contains(&key.as_str())
        {
            errors.push(format!("unknown key `{key}`"));
        }
    }
    if tool.get("inputSchema").and_then(|s| s.get("type")) != Some(&Value::from("object")) {
        errors.push("inputSchema type is not object".into());
    }
    for (key, value) in tool
        .get("annotations")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if ![
            "title",
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ]
        .contains(&key.as_str())
            || (key != "title" && !value.is_boolean())
        {
            errors.push(format!("bad annotation `{key}`"));
        }
    }
    errors
}
