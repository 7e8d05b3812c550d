//! The sentences the schema check says, in the words `#[tool]` functions' decoding errors use.

use std::borrow::Cow;

use serde_json::Value;

use super::super::shape::{Node, ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};
use super::super::walk::{render, Segment};
use crate::suggest::{closest, quoted_list};

pub(super) fn at_path(path: &[Segment<'_>]) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at '{}'", render(path))
    }
}

/// `const` and `enum`, in the words a `#[tool]` function's enum parameters use.
pub(super) fn constant_problem(node: &Node, value: &Value, path: &[Segment<'_>]) -> Option<String> {
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
pub(super) fn invalid_choice(at: &str, got: &Value, allowed: &[&Value]) -> String {
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
pub(super) fn choices(values: &[&Value]) -> String {
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
pub(super) fn bounds_problem(node: &Node, value: &Value, path: &[Segment<'_>]) -> Option<String> {
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
pub(super) fn expected_type(node: &Node) -> String {
    let minimum = node.bounds.as_ref().and_then(|b| b.minimum);
    if node.types == INTEGER && minimum == Some(0.0) {
        return "a non-negative integer".to_string();
    }
    type_names(node.types)
}

/// The types a node allows, as a model reads them: "a string or null".
pub(super) fn type_names(types: u8) -> String {
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
pub(crate) fn unexpected(value: &Value) -> String {
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
