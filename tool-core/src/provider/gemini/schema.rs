//! Gemini function declarations: the `parameters` field (an OpenAPI 3.0 subset) and the
//! `parametersJsonSchema` field.
//!
//! Rules for `parameters`, from the Gemini API reference (`FunctionDeclaration`, `Schema`):
//! - `Schema` has only `type`, `format`, `title`, `description`, `nullable`, `enum`,
//!   `maxItems`, `minItems`, `properties`, `required`, `minProperties`, `maxProperties`,
//!   `minLength`, `maxLength`, `pattern`, `example`, `anyOf`, `propertyOrdering`, `default`,
//!   `items`, `minimum`, `maximum`: no `$ref`/`$defs`, no `additionalProperties`, no `const`,
//!   no `oneOf`, and `null` is not a type (`nullable: true` instead);
//! - `enum` holds strings; `format` is `float`/`double` for numbers, `int32`/`int64` for
//!   integers, `enum`/`date-time` for strings;
//! - a function without parameters leaves `parameters` unset;
//! - `parametersJsonSchema` (newer models) takes JSON Schema as is and is mutually exclusive
//!   with `parameters`.
//!
//! The issue adds: drop `title` and `$schema` (the canonical schema has none at the root, and
//! `title` only restates a Rust type name).

use serde_json::{Map, Value};

use crate::schema::walk::{
    append_to_description, child, is_numeric_format, ref_target, rename_key,
};
use crate::schema::{DialectSchema, SchemaNote};

/// How many times a recursive type may appear inside itself before the nesting is cut
/// (`parameters` has no `$ref`, so recursion must be unrolled).
///
/// ```
/// assert_eq!(tool_core::provider::gemini::GEMINI_RECURSION_LIMIT, 3);
/// ```
pub const GEMINI_RECURSION_LIMIT: usize = 3;

/// Keys the `parameters` subset accepts (Gemini API reference, `Schema`).
pub(crate) const GEMINI_SCHEMA_KEYS: &[&str] = &[
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

/// `format` values the subset accepts, per type (Gemini API reference, `Schema.format`).
pub(crate) fn gemini_format_allowed(ty: &str, format: &str) -> bool {
    matches!(
        (ty, format),
        ("number", "float" | "double")
            | ("integer", "int32" | "int64")
            | ("string", "enum" | "date-time")
    )
}

/// Turns a canonical schema into Gemini's `parameters` subset. `strict` is always false:
/// Gemini has no strict mode for function declarations.
///
/// ```
/// use serde_json::json;
/// let canonical = json!({
///     "type": "object",
///     "properties": {"unit": {"anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}], "description": "Unit."}},
///     "additionalProperties": false,
///     "$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}}
/// });
/// let out = tool_core::provider::gemini::parameters_schema(&canonical);
/// assert_eq!(out.schema, json!({
///     "type": "object",
///     "properties": {"unit": {"type": "string", "enum": ["c", "f"], "description": "Unit.", "nullable": true}}
/// }));
/// ```
pub fn parameters_schema(schema: &Value) -> DialectSchema {
    let mut root = schema.as_object().cloned().unwrap_or_default();
    let defs = match root.shift_remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut cx = Gemini {
        defs: &defs,
        stack: Vec::new(),
        inlined: 0,
        changes: Vec::new(),
    };
    if !defs.is_empty() {
        cx.change(
            "#",
            "inlined every `$ref` and removed `$defs` (the subset has no references)",
        );
    }
    let out = cx.node(root, "#").unwrap_or_default();
    DialectSchema {
        schema: Value::Object(out),
        strict: false,
        changes: cx.changes,
        not_strict: Vec::new(),
    }
}

/// The `parametersJsonSchema` form: the canonical JSON Schema, unchanged (Gemini reads
/// `$ref`, `$defs`, `anyOf`, `additionalProperties` and recursion there).
///
/// ```
/// let canonical = serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
/// assert_eq!(tool_core::provider::gemini::json_schema(&canonical).schema, canonical);
/// ```
pub fn json_schema(schema: &Value) -> DialectSchema {
    DialectSchema {
        schema: schema.clone(),
        strict: false,
        changes: Vec::new(),
        not_strict: Vec::new(),
    }
}

struct Gemini<'a> {
    defs: &'a Map<String, Value>,
    stack: Vec<String>,
    inlined: usize,
    changes: Vec<SchemaNote>,
}

/// How many definitions may be inlined into one schema before recursion is cut early.
const INLINE_BUDGET: usize = 500;

impl Gemini<'_> {
    fn change(&mut self, path: &str, message: impl Into<String>) {
        self.changes.push(SchemaNote::new(path, message));
    }

    /// `None` means the recursion guard cut this branch: the caller drops it.
    fn node(&mut self, mut node: Map<String, Value>, path: &str) -> Option<Map<String, Value>> {
        if let Some(reference) = node.shift_remove("$ref") {
            return self.inline(node, reference.as_str().unwrap_or(""), path);
        }
        for key in ["$schema", "title", "$id", "$comment"] {
            if node.shift_remove(key).is_some() {
                self.change(path, format!("dropped `{key}`"));
            }
        }
        if node.contains_key("const") {
            rename_key(&mut node, "const", "enum");
            if let Some(value) = node.get_mut("enum") {
                *value = Value::Array(vec![value.take()]);
            }
            self.change(path, "`const` became a one-value `enum`");
        }
        if node.contains_key("oneOf") {
            rename_key(&mut node, "oneOf", "anyOf");
            self.change(path, "`oneOf` became `anyOf`");
        }
        self.type_list(&mut node, path);
        if node.contains_key("anyOf") {
            self.any_of(&mut node, path)?;
        }
        let ty = node
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();

        let mut moved = Vec::new();
        match node.shift_remove("additionalProperties") {
            Some(Value::Object(values)) => {
                // An open map: the subset cannot describe its values, so the description does.
                moved.push(("each value".to_string(), Value::Object(values)));
                self.change(path, "dropped `additionalProperties` (an open map); its value schema is in the description");
            }
            Some(_) => self.change(path, "dropped `additionalProperties`"),
            None => {}
        }
        if let Some(format) = node
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_owned)
        {
            if !gemini_format_allowed(&ty, &format) {
                if let Some(value) = node.shift_remove("format") {
                    if is_numeric_format(&format) {
                        self.change(path, format!("dropped numeric `format: {format}`"));
                    } else {
                        self.change(
                            path,
                            format!("moved unsupported `format: {format}` into the description"),
                        );
                        moved.push(("format".into(), value));
                    }
                }
            }
        }
        let keys: Vec<String> = node.keys().cloned().collect();
        for key in keys {
            if !GEMINI_SCHEMA_KEYS.contains(&key.as_str()) {
                if let Some(value) = node.shift_remove(&key) {
                    self.change(
                        path,
                        format!("moved unsupported `{key}` into the description"),
                    );
                    moved.push((key, value));
                }
            }
        }
        if node.shift_remove("title").is_some() {
            self.change(path, "dropped `title`");
        }
        append_to_description(&mut node, &moved);

        // Children are taken out and put back with `insert`, which keeps a key's position.
        if let Some(Value::Object(items)) = node.get_mut("items") {
            let taken = std::mem::take(items);
            let items = self.node(taken, &child(path, "items"))?;
            node.insert("items".into(), Value::Object(items));
        }
        if let Some(Value::Object(properties)) = node.get_mut("properties") {
            let properties = std::mem::take(properties);
            let mut out = Map::new();
            let mut dropped = Vec::new();
            for (name, schema) in properties {
                let prop_path = child(&child(path, "properties"), &name);
                match schema {
                    Value::Object(schema) => match self.node(schema, &prop_path) {
                        Some(schema) => {
                            out.insert(name, Value::Object(schema));
                        }
                        None => {
                            self.change(&prop_path, format!("dropped at the recursion limit ({GEMINI_RECURSION_LIMIT} levels); use parametersJsonSchema for deeper trees"));
                            dropped.push(name);
                        }
                    },
                    other => {
                        out.insert(name, other);
                    }
                }
            }
            if let Some(Value::Array(required)) = node.get_mut("required") {
                required.retain(|r| r.as_str().is_none_or(|r| !dropped.iter().any(|d| d == r)));
            }
            node.insert("properties".into(), Value::Object(out));
        }
        if ty == "object"
            && node
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
            && path != "#"
        {
            node.shift_remove("properties");
        }
        Some(node)
    }

    fn inline(
        &mut self,
        siblings: Map<String, Value>,
        reference: &str,
        path: &str,
    ) -> Option<Map<String, Value>> {
        let name = ref_target(reference).unwrap_or(reference).to_owned();
        let depth = self.stack.iter().filter(|n| **n == name).count();
        // Types with several recursive fields grow exponentially when unrolled; past a budget
        // of inlined definitions, recursion is cut at its first repetition.
        if depth >= GEMINI_RECURSION_LIMIT || (depth > 0 && self.inlined >= INLINE_BUDGET) {
            return None;
        }
        self.inlined += 1;
        let Some(def) = self.defs.get(&name).and_then(Value::as_object) else {
            // A dangling reference: keep whatever siblings say so the model still reads it.
            self.change(path, format!("dropped `$ref` to unknown `{name}`"));
            let mut node = siblings;
            node.entry("type").or_insert(Value::from("string"));
            return Some(node);
        };
        let mut merged = def.clone();
        merged.extend(siblings);
        self.stack.push(name);
        let out = self.node(merged, path);
        self.stack.pop();
        out
    }

    /// `type: ["string", "null"]` -> `type: "string", nullable: true`.
    fn type_list(&mut self, node: &mut Map<String, Value>, path: &str) {
        let Some(Value::Array(types)) = node.get("type") else {
            return;
        };
        let nullable = types.iter().any(|t| t == "null");
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match rest.as_slice() {
            [one] => {
                node.insert("type".into(), one.clone());
            }
            _ => {
                // Several non-null types: one `anyOf` branch per type.
                node.shift_remove("type");
                let branches = rest
                    .into_iter()
                    .map(|t| Value::Object(Map::from_iter([("type".to_string(), t)])))
                    .collect();
                node.insert("anyOf".into(), Value::Array(branches));
            }
        }
        if nullable {
            node.insert("nullable".into(), Value::Bool(true));
            self.change(path, "a `null` type became `nullable: true`");
        }
    }

    /// Drops `null` branches (as `nullable`), unrolls the rest, merges a lone branch into its
    /// parent, and turns a choice of documented string constants into one `enum` whose
    /// description lists what each value means.
    fn any_of(&mut self, node: &mut Map<String, Value>, path: &str) -> Option<()> {
        let branches = match node.shift_remove("anyOf") {
            Some(Value::Array(b)) => b,
            _ => return Some(()),
        };
        let mut kept = Vec::new();
        for (i, branch) in branches.into_iter().enumerate() {
            let Value::Object(branch) = branch else {
                continue;
            };
            if branch.get("type").is_some_and(|t| t == "null") && branch.len() == 1 {
                node.insert("nullable".into(), Value::Bool(true));
                self.change(path, "a `null` branch became `nullable: true`");
                continue;
            }
            if let Some(b) = self.node(branch, &child(&child(path, "anyOf"), &i.to_string())) {
                kept.push(b);
            }
        }
        if kept.is_empty() {
            return None;
        }
        if let Some(values) = string_constants(&kept) {
            let doc = kept
                .iter()
                .zip(&values)
                .filter_map(|(b, v)| {
                    b.get("description")
                        .and_then(Value::as_str)
                        .map(|d| format!("{v}: {}", d.trim_end_matches('.')))
                })
                .collect::<Vec<_>>();
            // Rebuild so `type` and `enum` lead, as in any other string enum.
            let mut out = Map::new();
            out.insert("type".into(), Value::from("string"));
            out.insert("enum".into(), Value::from(values));
            out.extend(std::mem::take(node));
            if !doc.is_empty() {
                let text = doc.join("; ");
                let merged = match out.get("description").and_then(Value::as_str) {
                    Some(d) if !d.is_empty() => format!("{d} ({text})"),
                    _ => text,
                };
                out.insert("description".into(), Value::String(merged));
            }
            *node = out;
            self.change(path, "a choice of documented constants became one `enum`");
            return Some(());
        }
        if kept.len() == 1 {
            let mut only = kept.remove(0);
            // The parent's keys (its description) win over the branch's.
            only.extend(std::mem::take(node));
            *node = only;
            return Some(());
        }
        node.insert(
            "anyOf".into(),
            Value::Array(kept.into_iter().map(Value::Object).collect()),
        );
        Some(())
    }
}

/// The values when every branch is `{type: string, enum: [one string]}` (plus a description).
fn string_constants(branches: &[Map<String, Value>]) -> Option<Vec<String>> {
    branches
        .iter()
        .map(|b| {
            let only_doc = b
                .keys()
                .all(|k| matches!(k.as_str(), "type" | "enum" | "description"));
            match (b.get("type"), b.get("enum")) {
                (Some(t), Some(Value::Array(v))) if t == "string" && only_doc && v.len() == 1 => {
                    v.first().and_then(Value::as_str).map(str::to_owned)
                }
                _ => None,
            }
        })
        .collect()
}
