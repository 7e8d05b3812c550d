//! Checking argument JSON against a JSON Schema, for tools whose parameters are a schema and
//! not a Rust type ([`ToolFn`](crate::ToolFn)): serde checks a `#[tool]` function's arguments
//! as it decodes them, and this gives a schema-only tool the same checks with the same words
//! (field path, what was expected, what to do).
//!
//! It reads the subset of JSON Schema the crate's canonical schemas and hand-written tool
//! definitions use, compiled once by `shape`: `type` (one or a list), `nullable`, `const`,
//! `enum`, `properties`, `required`, `additionalProperties` (`false` or a schema), `items`,
//! `prefixItems`, `allOf`, `anyOf`, `oneOf` (as "any branch"), `$ref` into `$defs` or
//! `definitions`, `minimum`/`maximum` (and their exclusive forms), `minLength`/`maxLength`
//! and `minItems`/`maxItems`. Other keywords (`pattern`, `format`, `not`, ...) are not
//! checked: the tool's own code judges what they say.

use std::borrow::Cow;

use serde_json::Value;

mod words;

use std::cell::Cell;

use super::shape::{self, Additional, Node};
use super::walk::{render, Nodes, Segment};
use crate::response::{ToolErrorCode, ToolResponse};
pub(super) use words::unexpected;
use words::{
    at_path, bounds_problem, choices, constant_problem, expected_type, invalid_choice, type_names,
};

/// Schema nodes one check may visit. A sane schema visits one or a few per value of the
/// arguments; one whose unions refer to themselves can visit exponentially many in the depth
/// of the value. Past this bound (arguments of some hundred thousand values) the rest of the
/// arguments is taken as allowed: the handler still decodes what it gets.
const MAX_STEPS: u32 = 1 << 18;

/// Steps through references and combinators without entering the value. Fewer than the
/// nested-key check allows: every union branch here is tried in full, so the bound is the
/// exponent of the work on a schema whose unions refer to themselves.
const MAX_SCHEMA_HOPS: u32 = 16;

/// A tool's input schema, compiled once.
pub(crate) struct SchemaCheck {
    nodes: Vec<Node>,
}

impl SchemaCheck {
    /// Compiles `schema`; a `$ref` that points nowhere allows anything.
    pub(crate) fn new(schema: &Value) -> Self {
        SchemaCheck {
            nodes: shape::compile(schema),
        }
    }

    /// The `INVALID_PARAM` response for the first thing in `arguments` the schema does not
    /// allow (keys in document order, then missing required keys), if any.
    pub(crate) fn check(&self, tool: &str, arguments: &Value) -> Result<(), ToolResponse> {
        let mut path = Vec::new();
        let walk = Walk {
            nodes: &self.nodes,
            steps: Cell::new(0),
        };
        match walk.problem(0, arguments, &mut path, 0, false) {
            None => Ok(()),
            Some(message) => Err(ToolResponse::error(
                ToolErrorCode::InvalidParam,
                format!("Invalid arguments for '{tool}': {message}"),
            )),
        }
    }
}

/// One check's walk over the compiled schema.
struct Walk<'n> {
    nodes: &'n [Node],
    /// Nodes visited so far; see [`MAX_STEPS`].
    steps: Cell<u32>,
}

impl Walk<'_> {
    /// What is wrong with `value` at node `at`, as the sentence the model reads. `hops` and
    /// `merged` are as in the nested-key check (`walk`).
    fn problem<'v>(
        &self,
        at: usize,
        value: &'v Value,
        path: &mut Vec<Segment<'v>>,
        hops: u32,
        merged: bool,
    ) -> Option<String> {
        let node = self.nodes.get(at)?;
        let steps = self.steps.get().saturating_add(1);
        self.steps.set(steps);
        if hops > MAX_SCHEMA_HOPS || steps > MAX_STEPS {
            return None;
        }
        let merged = merged || node.spread;
        for &part in &node.all_of {
            if let Some(found) = self.problem(part, value, path, hops + 1, merged) {
                return Some(found);
            }
        }
        for branches in &node.unions {
            if let Some(found) = self.union_problem(branches, value, path, hops, merged) {
                return Some(found);
            }
        }
        if !node.type_allows(value) {
            return Some(format!(
                "wrong type{}: expected {}, got {}.",
                at_path(path),
                expected_type(node),
                unexpected(value)
            ));
        }
        if let Some(found) = constant_problem(node, value, path) {
            return Some(found);
        }
        if let Some(found) = bounds_problem(node, value, path) {
            return Some(found);
        }
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    path.push(Segment::Key(Cow::Borrowed(key)));
                    let sub = node.property(key).or(match node.additional {
                        Additional::Schema(sub) => Some(sub),
                        _ => None,
                    });
                    let found = match sub {
                        Some(sub) => self.problem(sub, item, path, 0, false),
                        None if node.additional == Additional::Closed && !merged => {
                            let valid: Vec<&str> =
                                node.properties.iter().map(|(k, _)| k.as_str()).collect();
                            Some(super::unknown_parameter(&render(path), key, &valid))
                        }
                        None => None,
                    };
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                let missing = node.required.iter().find(|k| !map.contains_key(*k))?;
                Some(format!(
                    "missing required parameter '{}'. Add it and call the tool again.",
                    super::join_path(&render(path), missing)
                ))
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let Some(sub) = node.prefix_items.get(i).copied().or(node.items) else {
                        continue;
                    };
                    path.push(Segment::Index(i));
                    let found = self.problem(sub, item, path, 0, false);
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// A value meets `anyOf`/`oneOf`: fine if any branch allows it. Otherwise the model hears
    /// about the branch it was most likely aiming at: the first that fits by type, tag and
    /// required keys; else, for objects of tagged branches, that the tag is missing or wrong;
    /// else the first branch of the right type; else every type the branches allow.
    fn union_problem<'v>(
        &self,
        branches: &[usize],
        value: &'v Value,
        path: &mut Vec<Segment<'v>>,
        hops: u32,
        merged: bool,
    ) -> Option<String> {
        let mut fitting = None;
        for &branch in branches {
            match self.problem(branch, value, path, hops + 1, merged) {
                None => return None,
                Some(found) => {
                    if fitting.is_none() && Nodes(self.nodes).fits(branch, value, hops + 1) {
                        fitting = Some(found);
                    }
                }
            }
        }
        if fitting.is_some() {
            return fitting;
        }
        let typed: Vec<usize> = branches
            .iter()
            .copied()
            .filter(|&b| self.resolved(b).is_some_and(|n| n.type_allows(value)))
            .collect();
        if let Value::Object(map) = value {
            match self.tag_problem(&typed, map, path) {
                Some(Tagged::Problem(found)) => return Some(found),
                Some(Tagged::Branch(branch)) => {
                    return self.problem(branch, value, path, hops + 1, merged);
                }
                None => {}
            }
        }
        if let Some(&first) = typed.first() {
            return self.problem(first, value, path, hops + 1, merged);
        }
        let types = branches
            .iter()
            .filter_map(|&b| self.resolved(b))
            .fold(0, |bits, n| bits | n.types);
        Some(format!(
            "wrong type{}: expected {}, got {}.",
            at_path(path),
            type_names(types),
            unexpected(value)
        ))
    }

    /// The node a branch stands for, through `$ref`s.
    fn resolved(&self, mut at: usize) -> Option<&Node> {
        for _ in 0..MAX_SCHEMA_HOPS {
            let node = self.nodes.get(at)?;
            match node.all_of.as_slice() {
                [only] if node.unions.is_empty() && node.properties.is_empty() => at = *only,
                _ => return Some(node),
            }
        }
        self.nodes.get(at)
    }

    /// For object branches told apart by a constant-valued key (`{"kind": "circle", ...}`):
    /// the key missing, or its value none of the branches' (with the values allowed), or
    /// else the branch the value names.
    fn tag_problem(
        &self,
        branches: &[usize],
        map: &serde_json::Map<String, Value>,
        path: &[Segment<'_>],
    ) -> Option<Tagged> {
        let tag_of = |branch: usize, key: &str| {
            self.resolved(branch)
                .and_then(|n| n.property(key))
                .and_then(|s| self.constant_of(s))
        };
        let first = self.resolved(*branches.first()?)?;
        let (tag, _) = first
            .properties
            .iter()
            .find(|(k, _)| branches.iter().all(|&b| tag_of(b, k).is_some()))?;
        let allowed: Vec<&Value> = branches.iter().filter_map(|&b| tag_of(b, tag)).collect();
        let full = super::join_path(&render(path), tag);
        let Some(got) = map.get(tag) else {
            return Some(Tagged::Problem(format!(
                "missing required parameter '{full}' (one of {}). Add it and call the tool again.",
                choices(&allowed)
            )));
        };
        match branches.iter().find(|&&b| tag_of(b, tag) == Some(got)) {
            Some(&branch) => Some(Tagged::Branch(branch)),
            None => Some(Tagged::Problem(invalid_choice(
                &format!(" at '{full}'"),
                got,
                &allowed,
            ))),
        }
    }

    /// The single value node `at` allows (`const`, or a one-value `enum`), if that is all it
    /// allows.
    fn constant_of(&self, at: usize) -> Option<&Value> {
        let node = self.resolved(at)?;
        node.constant
            .as_ref()
            .or(match node.one_of_values.as_deref() {
                Some([only]) => Some(only),
                _ => None,
            })
    }
}

/// What the tag of an object meeting tagged branches says.
enum Tagged {
    /// The tag is missing or names no branch.
    Problem(String),
    /// The branch the tag names.
    Branch(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(schema: Value, arguments: Value) -> Option<String> {
        SchemaCheck::new(&schema)
            .check("t", &arguments)
            .err()
            .and_then(|e| e.error_message().map(str::to_string))
    }

    #[test]
    fn a_self_referencing_schema_ends() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/L"}},
            "$defs": {"L": {"$ref": "#/$defs/L"}}});
        assert_eq!(message(schema, json!({"a": {"b": [1, 2]}})), None);
    }

    #[test]
    fn a_union_of_itself_ends_soon() {
        // Each branch checks itself again before failing on its type: without a bound, each
        // hop doubles the visits.
        let branch = json!({"allOf": [{"$ref": "#/$defs/L"}, {"type": "string"}]});
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/L"}},
            "$defs": {"L": {"anyOf": [branch, branch, branch]}}});
        let started = std::time::Instant::now();
        let got = message(schema, json!({"a": 1})).unwrap();
        assert!(got.contains("at 'a': expected a string"), "{got}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        // The same through the value: each branch checks the nested value before failing on
        // its missing key, so each level of nesting multiplies the visits.
        let branch = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}, "required": ["y"]});
        let nested = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}},
            "$defs": {"N": {"anyOf": [branch, branch, {"type": "integer"}]}}});
        let mut deep = json!(1);
        for _ in 0..40 {
            deep = json!({ "x": deep });
        }
        let started = std::time::Instant::now();
        let _ = message(nested, json!({ "a": deep }));
        // About 2 s in a debug build on a shared 2-core machine; without the bound, minutes.
        assert!(started.elapsed() < std::time::Duration::from_secs(15));
    }

    #[test]
    fn a_recursive_type_is_checked_at_every_depth() {
        let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            }, "required": ["name"], "additionalProperties": false}}});
        let args = json!({"root": {"name": "a", "children": [{"name": "b", "children": [{"nmae": "c"}]}]}});
        assert_eq!(
            message(schema, args).as_deref(),
            Some("Invalid arguments for 't': unknown parameter 'root.children[0].children[0].nmae'. Did you mean 'name'? Valid parameters: 'name', 'children'.")
        );
    }

    #[test]
    fn the_false_schema_takes_nothing_and_all_of_takes_every_part() {
        let schema = json!({"type": "object", "properties": {"never": false,
            "both": {"allOf": [{"type": "integer"}, {"minimum": 10}]}}});
        let got = message(schema.clone(), json!({"never": 1})).unwrap();
        assert!(
            got.contains("wrong type at 'never': expected nothing"),
            "{got}"
        );
        let got = message(schema.clone(), json!({"both": 3})).unwrap();
        assert!(
            got.contains("invalid value at 'both': expected a number >= 10, got integer `3`"),
            "{got}"
        );
        assert_eq!(message(schema, json!({"both": 12})), None);
    }

    #[test]
    fn tuples_check_each_position() {
        let schema = json!({"type": "object", "properties": {"pair": {"type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer"}], "maxItems": 2}}});
        assert_eq!(message(schema.clone(), json!({"pair": ["a", 1]})), None);
        let got = message(schema.clone(), json!({"pair": ["a", "b"]})).unwrap();
        assert!(
            got.contains("wrong type at 'pair[1]': expected an integer"),
            "{got}"
        );
        let got = message(schema, json!({"pair": ["a", 1, 2]})).unwrap();
        assert!(
            got.contains("expected an array of at most 2 items, got 3"),
            "{got}"
        );
    }

    #[test]
    fn a_flattened_enum_beside_properties_rejects_no_key_the_other_part_knows() {
        // `#[serde(flatten)]` of an enum: the record's keys and the variant's keys are in
        // different parts of the schema, each closed on its own.
        let schema = json!({"type": "object", "properties": {"id": {"type": "integer"}},
        "oneOf": [
            {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"], "additionalProperties": false},
            {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false}
        ]});
        assert_eq!(
            message(schema.clone(), json!({"id": 1, "path": "/x"})),
            None
        );
        let got = message(schema, json!({"id": 1, "path": 3})).unwrap();
        assert!(
            got.contains("wrong type at 'path': expected a string"),
            "{got}"
        );
    }

    #[test]
    fn no_branch_of_the_right_type_lists_every_type_allowed() {
        let schema = json!({"type": "object", "properties": {"v": {"anyOf": [
            {"type": "integer"}, {"type": "array", "items": {"type": "integer"}}, {"type": "null"}
        ]}}});
        assert_eq!(message(schema.clone(), json!({"v": [1]})), None);
        assert_eq!(
            message(schema, json!({"v": "x"})).as_deref(),
            Some("Invalid arguments for 't': wrong type at 'v': expected an array, an integer or null, got string \"x\".")
        );
    }

    #[test]
    fn a_long_string_is_not_echoed_whole() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let long = "x".repeat(10_000);
        let got = message(schema, json!({ "n": long })).unwrap();
        assert!(got.len() < 200, "{got}");
        assert!(
            got.contains(&format!("got string \"{}...\"", "x".repeat(60))),
            "{got}"
        );
    }
}
