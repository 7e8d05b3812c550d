//! OpenAI strict mode (Structured Outputs / `strict: true` function tools).
//!
//! Rules, from OpenAI's Structured Outputs guide ("Supported schemas") and the function
//! calling guide ("Strict mode"):
//! - every object has `additionalProperties: false` and lists every property in `required`;
//!   optional fields are expressed by allowing `null` (a type list or an `anyOf` branch);
//! - the root is an object, not `anyOf`;
//! - supported keywords: `type`, `description`, `enum`, `const`, `anyOf`, `$ref`/`$defs`
//!   (recursion allowed), `properties`, `required`, `additionalProperties`, `items`; strings
//!   `pattern` and `format` (`date-time`, `time`, `date`, `duration`, `email`, `hostname`,
//!   `ipv4`, `ipv6`, `uuid`); numbers `multipleOf`, `minimum`, `maximum`,
//!   `exclusiveMinimum`, `exclusiveMaximum`; arrays `minItems`, `maxItems`;
//! - `allOf`, `not`, `if`/`then`/`else`, `patternProperties`, `prefixItems`,
//!   `dependentRequired`/`dependentSchemas` are not supported;
//! - limits: at most 5000 object properties in total and 10 levels of nesting; at most 1000
//!   enum values in total.
//!
//! From the function calling guide's error reports (not the schema list): a `$ref` may not
//! have sibling keywords, so a `$ref` with a `description` is inlined.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::limits::Limits;
use crate::schema::nulls::{accepts_null, nullable};
use crate::schema::walk::{
    append_to_description, child, is_numeric_format, ref_target, rename_key,
};
use crate::schema::{DialectSchema, SchemaNote};

/// Most object properties a strict schema may have in total (OpenAI Structured Outputs guide).
pub(crate) const OPENAI_MAX_PROPERTIES: usize = 5000;
/// Deepest object nesting a strict schema may have (OpenAI Structured Outputs guide).
pub(crate) const OPENAI_MAX_NESTING: usize = 10;
/// Most enum values a strict schema may have in total (OpenAI Structured Outputs guide).
pub(crate) const OPENAI_MAX_ENUM_VALUES: usize = 1000;

/// String `format` values strict mode accepts (OpenAI Structured Outputs guide).
pub(crate) const OPENAI_STRICT_FORMATS: &[&str] = &[
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

/// Keywords a strict schema may contain (OpenAI Structured Outputs guide).
pub(crate) const OPENAI_STRICT_KEYWORDS: &[&str] = &[
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

/// Keywords whose meaning is structure, not a hint: a description cannot stand in for them,
/// so their presence makes the schema non-strict.
const STRUCTURAL: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "prefixItems",
    "additionalItems",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
];

/// Turns a canonical schema into OpenAI's strict form, or explains why it cannot be strict.
///
/// Strict mode has no optional properties, so every optional property becomes required and
/// nullable: one that already accepts `null` (an `Option` parameter) keeps its schema, any
/// other gets `null` added (`["string", "null"]`, or an `anyOf` with a `{"type": "null"}`
/// branch). The registry removes a `null` the model sends for such a property before the
/// tool runs, so the tool sees the property absent, as its own schema says it may be.
///
/// When it cannot (an open map, an unsupported structural keyword, a size limit), the
/// canonical schema is returned unchanged with `strict: false`, which the API accepts as a
/// normal (non-strict) function schema: never a schema strict mode would reject.
///
/// ```
/// use serde_json::json;
/// let canonical = json!({
///     "type": "object",
///     "properties": {
///         "city": {"type": "string"},
///         "days": {"type": ["integer", "null"], "format": "uint8", "minimum": 0},
///         "cursor": {"type": "string"}
///     },
///     "required": ["city"],
///     "additionalProperties": false
/// });
/// let out = tool_core::provider::openai_chat::strict_schema(&canonical);
/// assert!(out.strict);
/// assert_eq!(out.schema["required"], json!(["city", "days", "cursor"]));
/// assert!(out.schema["properties"]["days"].get("format").is_none());
/// assert_eq!(out.schema["properties"]["cursor"], json!({"type": ["string", "null"]}));
///
/// let map = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}});
/// let out = tool_core::provider::openai_chat::strict_schema(&map);
/// assert!(!out.strict);
/// assert!(out.not_strict[0].message.contains("open map"));
/// ```
pub fn strict_schema(schema: &Value) -> DialectSchema {
    let Some(root) = schema.as_object() else {
        return not_strict(
            schema,
            vec![SchemaNote::new("#", "the schema is not an object")],
        );
    };
    let mut root = root.clone();
    let defs = match root.shift_remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut cx = Strict {
        defs: &defs,
        inlining: Vec::new(),
        changes: Vec::new(),
        blockers: Vec::new(),
    };
    let root = cx.node(root, "#");

    // Transform only the definitions still referenced once `$ref`s with siblings are inlined,
    // following references transitively; emit them in their canonical order.
    let mut reached = BTreeSet::new();
    let mut queue = Vec::new();
    collect_refs(&Value::Object(root.clone()), &mut queue);
    let mut done: Map<String, Value> = Map::new();
    while let Some(name) = queue.pop() {
        if !reached.insert(name.clone()) {
            continue;
        }
        match defs.get(&name).and_then(Value::as_object) {
            Some(def) => {
                let path = child("#/$defs", &name);
                let out = Value::Object(cx.node(def.clone(), &path));
                collect_refs(&out, &mut queue);
                done.insert(name, out);
            }
            None => cx.block("#", format!("`$ref` to `{name}`, which is not in `$defs`")),
        }
    }
    let mut root = root;
    if !done.is_empty() {
        let ordered: Map<String, Value> = defs
            .keys()
            .filter_map(|k| done.get(k).map(|v| (k.clone(), v.clone())))
            .collect();
        root.insert("$defs".into(), Value::Object(ordered));
    }
    let out = Value::Object(root);
    cx.check_limits(&out);
    if cx.blockers.is_empty() {
        DialectSchema {
            schema: out,
            strict: true,
            changes: cx.changes,
            not_strict: Vec::new(),
        }
    } else {
        not_strict(schema, cx.blockers)
    }
}

fn not_strict(schema: &Value, reasons: Vec<SchemaNote>) -> DialectSchema {
    DialectSchema {
        schema: schema.clone(),
        strict: false,
        changes: Vec::new(),
        not_strict: reasons,
    }
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(ref_target) {
                out.push(name.to_string());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

struct Strict<'a> {
    defs: &'a Map<String, Value>,
    /// Definitions being inlined, outermost first: inlining one of these again would not end.
    inlining: Vec<String>,
    changes: Vec<SchemaNote>,
    blockers: Vec<SchemaNote>,
}

impl Strict<'_> {
    fn change(&mut self, path: &str, message: impl Into<String>) {
        self.changes.push(SchemaNote::new(path, message));
    }

    fn block(&mut self, path: &str, message: impl Into<String>) {
        self.blockers.push(SchemaNote::new(path, message));
    }

    fn node(&mut self, mut node: Map<String, Value>, path: &str) -> Map<String, Value> {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str).map(str::to_owned) {
            if node.len() > 1 {
                return self.inline_ref(node, &reference, path);
            }
            return node;
        }
        if node.contains_key("oneOf") {
            rename_key(&mut node, "oneOf", "anyOf");
            self.change(path, "`oneOf` became `anyOf` (strict mode has no `oneOf`)");
        }
        if node.contains_key("const") {
            rename_key(&mut node, "const", "enum");
            if let Some(value) = node.get_mut("enum") {
                *value = Value::Array(vec![value.take()]);
            }
            self.change(path, "`const` became a one-value `enum`");
        }

        let mut moved = Vec::new();
        let keys: Vec<String> = node.keys().cloned().collect();
        for key in keys {
            let key = key.as_str();
            if STRUCTURAL.contains(&key) {
                self.block(
                    path,
                    format!(
                        "`{key}` is not supported in strict mode and cannot be expressed otherwise"
                    ),
                );
                continue;
            }
            if key == "format" {
                let format = node
                    .get("format")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                if OPENAI_STRICT_FORMATS.contains(&format.as_str()) {
                    continue;
                }
                if let Some(value) = node.shift_remove("format") {
                    if is_numeric_format(&format) {
                        self.change(
                            path,
                            format!("dropped numeric `format: {format}` (type and bounds already say it)"),
                        );
                    } else {
                        self.change(
                            path,
                            format!("moved unsupported `format: {format}` into the description"),
                        );
                        moved.push(("format".to_string(), value));
                    }
                }
                continue;
            }
            if !OPENAI_STRICT_KEYWORDS.contains(&key) {
                if let Some(value) = node.shift_remove(key) {
                    self.change(
                        path,
                        format!("moved unsupported `{key}` into the description"),
                    );
                    moved.push((key.to_string(), value));
                }
            }
        }
        append_to_description(&mut node, &moved);

        if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
            let taken = std::mem::take(branches);
            let mut out = Vec::with_capacity(taken.len());
            for (i, branch) in taken.into_iter().enumerate() {
                out.push(self.value(branch, &child(&child(path, "anyOf"), &i.to_string())));
            }
            node.insert("anyOf".into(), Value::Array(out));
        }
        let items_path = child(path, "items");
        match node.get_mut("items") {
            Some(Value::Object(items)) => {
                let out = self.node(std::mem::take(items), &items_path);
                // `insert` on a present key keeps its position.
                node.insert("items".into(), Value::Object(out));
            }
            Some(Value::Array(_)) => {
                self.block(
                    path,
                    "tuple `items` (an array of schemas) is not supported in strict mode",
                );
            }
            _ => {}
        }
        if is_object(&node) {
            self.close_object(&mut node, path);
        }
        node
    }

    fn value(&mut self, value: Value, path: &str) -> Value {
        match value {
            Value::Object(map) => Value::Object(self.node(map, path)),
            other => other,
        }
    }

    /// A `$ref` with siblings (usually a field's `description`): strict mode rejects siblings
    /// beside `$ref`, so the definition is copied in and the siblings override its keys. A
    /// definition already being inlined (a recursive type) is wrapped in a one-branch `anyOf`
    /// instead, which keeps the description and lets the recursion go through `$defs`.
    fn inline_ref(
        &mut self,
        mut node: Map<String, Value>,
        reference: &str,
        path: &str,
    ) -> Map<String, Value> {
        let Some(name) = ref_target(reference).map(str::to_owned) else {
            self.block(
                path,
                format!("`$ref: {reference}` is not a local `$defs` reference"),
            );
            return node;
        };
        if self.inlining.contains(&name) {
            node.shift_remove("$ref");
            let branch = Value::Object(Map::from_iter([(
                "$ref".to_string(),
                Value::String(reference.to_string()),
            )]));
            let mut wrapped = Map::new();
            wrapped.insert("anyOf".into(), Value::Array(vec![branch]));
            wrapped.extend(node);
            self.change(
                path,
                format!("wrapped recursive `$ref` to `{name}` in `anyOf` to keep its description"),
            );
            return self.node(wrapped, path);
        }
        let Some(def) = self.defs.get(&name).and_then(Value::as_object) else {
            self.block(path, format!("`$ref` to `{name}`, which is not in `$defs`"));
            return node;
        };
        node.shift_remove("$ref");
        let mut merged = def.clone();
        merged.extend(node);
        self.change(
            path,
            format!("inlined `$ref` to `{name}` (strict mode allows no keywords beside `$ref`)"),
        );
        self.inlining.push(name);
        let out = self.node(merged, path);
        self.inlining.pop();
        out
    }

    fn close_object(&mut self, node: &mut Map<String, Value>, path: &str) {
        match node.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            Some(Value::Object(_)) | Some(Value::Bool(true)) => {
                self.block(
                    path,
                    "an open map (`additionalProperties` other than false, e.g. a HashMap): strict \
                     mode requires every object to be closed with fixed property names",
                );
            }
            _ => {
                node.insert("additionalProperties".into(), Value::Bool(false));
                self.change(path, "added `additionalProperties: false`");
            }
        }
        let mut properties = match node.get_mut("properties") {
            Some(Value::Object(p)) => std::mem::take(p),
            _ => Map::new(),
        };
        let required: Vec<String> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let props_path = child(path, "properties");
        let mut out = Map::new();
        for (name, schema) in std::mem::take(&mut properties) {
            let prop_path = child(&props_path, &name);
            // Judged on the canonical schema, as the dispatch judges the model's `null`s.
            let takes_null = schema
                .as_object()
                .is_some_and(|s| accepts_null(s, Some(self.defs)));
            let mut schema = self.value(schema, &prop_path);
            if !required.contains(&name) {
                let message = if takes_null {
                    "optional: now required and nullable, so null means absent"
                } else {
                    // Strict mode has no optional properties: null stands for "left out", and
                    // the dispatch removes it again before the tool runs.
                    schema = nullable(schema);
                    "optional: now required and made nullable; a null from the model is \
                     removed before the tool runs, so the tool sees the property absent"
                };
                self.change(&prop_path, message);
            }
            out.insert(name, schema);
        }
        let all: Vec<Value> = out.keys().map(|k| Value::String(k.clone())).collect();
        // `insert` on a present key keeps its position, so the canonical key order survives;
        // an absent `required` goes right after `properties`.
        node.insert("properties".into(), Value::Object(out));
        if node.contains_key("required") {
            node.insert("required".into(), Value::Array(all));
        } else {
            let at = node
                .keys()
                .position(|k| k == "properties")
                .map_or(node.len(), |i| i + 1);
            node.shift_insert(at, "required".into(), Value::Array(all));
        }
    }

    fn check_limits(&mut self, schema: &Value) {
        let mut stats = Limits::default();
        stats.walk(schema, 0);
        if stats.properties > OPENAI_MAX_PROPERTIES {
            self.block("#", format!("{} object properties in total; strict mode allows at most {OPENAI_MAX_PROPERTIES}", stats.properties));
        }
        if stats.depth > OPENAI_MAX_NESTING {
            self.block("#", format!("objects nested {} levels deep; strict mode allows at most {OPENAI_MAX_NESTING}", stats.depth));
        }
        if stats.enum_values > OPENAI_MAX_ENUM_VALUES {
            self.block(
                "#",
                format!(
                    "{} enum values in total; strict mode allows at most {OPENAI_MAX_ENUM_VALUES}",
                    stats.enum_values
                ),
            );
        }
    }
}

fn is_object(node: &Map<String, Value>) -> bool {
    node.get("type").is_some_and(|t| match t {
        Value::String(t) => t == "object",
        Value::Array(types) => types.iter().any(|t| t == "object"),
        _ => false,
    }) || node.contains_key("properties")
}
