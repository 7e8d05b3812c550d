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

use super::shape::{
    self, Additional, Node, ARRAY, BOOLEAN, INTEGER, MAX_HOPS, NULL, NUMBER, OBJECT, STRING,
};
use super::walk::{render, Nodes, Segment};
use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::{closest, quoted_list};

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
        match self.problem(0, arguments, &mut path, 0, false) {
            None => Ok(()),
            Some(message) => Err(ToolResponse::error(
                ToolErrorCode::InvalidParam,
                format!("Invalid arguments for '{tool}': {message}"),
            )),
        }
    }

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
        if hops > MAX_HOPS {
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
                    if fitting.is_none() && Nodes(&self.nodes).fits(branch, value, hops + 1) {
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
        for _ in 0..MAX_HOPS {
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

fn at_path(path: &[Segment<'_>]) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at '{}'", render(path))
    }
}

/// `const` and `enum`, in the words a `#[tool]` function's enum parameters use.
fn constant_problem(node: &Node, value: &Value, path: &[Segment<'_>]) -> Option<String> {
    if let Some(constant) = &node.constant {
        if constant != value {
            return Some(invalid_choice(&at_path(path), value, &[constant]));
        }
    }
    let allowed = node.one_of_values.as_ref()?;
    if allowed.contains(value) {
        return None;
    }
    let allowed: Vec<&Value> = allowed.iter().collect();
    Some(invalid_choice(&at_path(path), value, &allowed))
}

/// A value outside a fixed set: for strings, the closest allowed one and the list.
fn invalid_choice(at: &str, got: &Value, allowed: &[&Value]) -> String {
    let strings: Option<Vec<&str>> = allowed.iter().map(|v| v.as_str()).collect();
    match (got, strings) {
        (Value::String(wrong), Some(names)) => {
            let hint = closest(wrong, names.iter().copied())
                .map(|h| format!(" Did you mean '{h}'?"))
                .unwrap_or_default();
            format!(
                "invalid value '{}'{at}.{hint} Allowed values: {}.",
                shorten(wrong),
                quoted_list(names.iter().copied())
            )
        }
        _ => format!(
            "invalid value{at}: expected one of {}, got {}.",
            value_list(allowed),
            unexpected(got)
        ),
    }
}

/// Allowed values as the model reads them: strings quoted as names (`'a', 'b'`), anything
/// else as JSON.
fn choices(values: &[&Value]) -> String {
    let strings: Option<Vec<&str>> = values.iter().map(|v| v.as_str()).collect();
    match strings {
        Some(names) => quoted_list(names),
        None => value_list(values),
    }
}

fn value_list(values: &[&Value]) -> String {
    let mut out = String::new();
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&value.to_string());
    }
    out
}

/// Size limits: numbers against `minimum`/`maximum`, strings against their length in
/// characters, arrays against their number of items.
fn bounds_problem(node: &Node, value: &Value, path: &[Segment<'_>]) -> Option<String> {
    let bounds = node.bounds.as_deref()?;
    let at = at_path(path);
    match value {
        Value::Number(n) => {
            let x = n.as_f64()?;
            let limits = [
                (
                    bounds.minimum,
                    ">=",
                    x >= bounds.minimum.unwrap_or(f64::MIN),
                ),
                (
                    bounds.maximum,
                    "<=",
                    x <= bounds.maximum.unwrap_or(f64::MAX),
                ),
                (
                    bounds.exclusive_minimum,
                    ">",
                    bounds.exclusive_minimum.is_none_or(|m| x > m),
                ),
                (
                    bounds.exclusive_maximum,
                    "<",
                    bounds.exclusive_maximum.is_none_or(|m| x < m),
                ),
            ];
            let (limit, op, _) = limits.into_iter().find(|(l, _, ok)| l.is_some() && !ok)?;
            let kind = if node.types & NUMBER == 0 {
                "an integer"
            } else {
                "a number"
            };
            Some(format!(
                "invalid value{at}: expected {kind} {op} {}, got {}.",
                plain_number(limit?),
                unexpected(value)
            ))
        }
        Value::String(s) => {
            let len = s.chars().count() as u64;
            let (word, limit) = match (bounds.min_length, bounds.max_length) {
                (Some(min), _) if len < min => ("at least", min),
                (_, Some(max)) if len > max => ("at most", max),
                _ => return None,
            };
            Some(format!(
                "invalid value{at}: expected a string of {word} {limit} characters, got one of {len}."
            ))
        }
        Value::Array(items) => {
            let len = items.len() as u64;
            let (word, limit) = match (bounds.min_items, bounds.max_items) {
                (Some(min), _) if len < min => ("at least", min),
                (_, Some(max)) if len > max => ("at most", max),
                _ => return None,
            };
            Some(format!(
                "invalid value{at}: expected an array of {word} {limit} items, got {len}."
            ))
        }
        _ => None,
    }
}

/// `3` for 3.0, as a schema author wrote it.
fn plain_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        x.to_string()
    }
}

/// What a node takes, as a model reads it: "a string or null", "a non-negative integer".
fn expected_type(node: &Node) -> String {
    let minimum = node.bounds.as_ref().and_then(|b| b.minimum);
    if node.types == INTEGER && minimum == Some(0.0) {
        return "a non-negative integer".to_string();
    }
    type_names(node.types)
}

/// The types a node allows, as a model reads them: "a string or null".
fn type_names(types: u8) -> String {
    let mut names = Vec::new();
    for (bit, name) in [
        (OBJECT, "an object"),
        (ARRAY, "an array"),
        (STRING, "a string"),
        (NUMBER, "a number"),
        (INTEGER, "an integer"),
        (BOOLEAN, "a boolean (true or false)"),
        (NULL, "null"),
    ] {
        // `number` takes integers too: say it once.
        let said = bit == INTEGER && types & NUMBER != 0;
        if types & bit != 0 && !said {
            names.push(name);
        }
    }
    match names.as_slice() {
        [] => "nothing (this parameter takes no value; leave it out)".to_string(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// What the model sent, in the words serde's messages use for `#[tool]` functions
/// (`string "abc"`, ``integer `3` ``), long strings cut short.
pub(super) fn unexpected(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {:?}", shorten(s)),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// A model's string as quoted back to it: at most 60 characters, so a huge value is not
/// echoed whole.
fn shorten(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(60) {
        Some((end, _)) => Cow::Owned(format!("{}...", s.get(..end).unwrap_or(s))),
        None => Cow::Borrowed(s),
    }
}
