//! Reading a closed DSML block: each `<｜DSML｜invoke name="N">` up to its
//! `</｜DSML｜invoke>` is a call, each `<｜DSML｜parameter name="K" string="...">V` one argument.
//!
//! A value is taken byte for byte (the encoder writes none of the framing newlines other
//! tagged formats have). `string="true"` keeps it a string unless the tool's schema allows no
//! string, when it is converted as the schema says; `string="false"` (or no attribute) reads it
//! as JSON typed by the schema, and as plain JSON for a parameter the schema does not type.
//!
//! Text in an invoke outside its parameters is never dropped silently: a JSON object in an
//! invoke without parameters is its arguments (a form tool-parser reads too), other text there
//! is not a call, and next to parameters it is a `TrailingJunk` diagnostic.

use serde_json::Value;

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::object;
use crate::parse::formats::convert::{convert_in, Converted};
use crate::parse::formats::core::Parsed;
use crate::parse::formats::escape::ArgMap;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::{preview, Ahead};
use crate::response::ToolResponse;

/// The markers inside a block (the block markers themselves are the body's, `body.rs`).
pub(super) const INVOKE: &str = "<｜DSML｜invoke";
pub(super) const INVOKE_END: &str = "</｜DSML｜invoke>";
pub(super) const PARAMETER: &str = "<｜DSML｜parameter";
pub(super) const PARAMETER_END: &str = "</｜DSML｜parameter>";

/// Each call of a block's body, with the end of its span in `raw`.
pub(super) fn read_block(
    raw: &str,
    options: &FormatOptions,
    example: &str,
) -> Vec<(Parsed, usize)> {
    let mut calls = Vec::new();
    let mut at = 0;
    // Each search goes on from the last one: with many unclosed invokes, searching the rest
    // of the block once per invoke would cost its length times their number.
    let (mut opens, mut ends) = (Ahead::new(raw, INVOKE), Ahead::new(raw, INVOKE_END));
    while let Some(found) = raw.get(at..).and_then(|rest| opens.find(rest)) {
        let stray = raw.get(at..at + found).unwrap_or_default().trim();
        let start = at + found + INVOKE.len();
        let rest = raw.get(start..).unwrap_or_default();
        let close = ends.find(rest);
        let next = opens.find(rest);
        let mut parsed = match close {
            Some(e) if next.is_none_or(|n| e < n) => {
                at = start + e + INVOKE_END.len();
                read_invoke(rest.get(..e).unwrap_or_default(), options, example)
            }
            _ => {
                // Not closed before the next invoke or the block's end: not run, as the
                // peers do not run it either.
                let end = next.unwrap_or(rest.len());
                at = start + end;
                let name = attributes(rest.get(..end).unwrap_or_default())
                    .and_then(|(attrs, _)| attribute(&attrs, "name").map(str::to_string));
                Parsed::invalid(
                    name,
                    format!(
                        "The tool call was not run: its <｜DSML｜invoke> has no \
                         </｜DSML｜invoke>. Write it as {example}."
                    ),
                )
            }
        };
        if !stray.is_empty() {
            parsed.repairs.push((
                DiagnosticKind::TrailingJunk,
                format!("ignored {:?} before the invoke", preview(stray)),
            ));
        }
        calls.push((parsed, at));
    }
    if calls.is_empty() {
        let message = format!(
            "The tool call block holds no <｜DSML｜invoke name=\"NAME\">. Write it as {example}."
        );
        return vec![(Parsed::invalid(None, message), raw.len())];
    }
    let tail = raw.get(at..).unwrap_or_default().trim();
    if !tail.is_empty() {
        if let Some((last, _)) = calls.last_mut() {
            last.repairs.push((
                DiagnosticKind::TrailingJunk,
                format!("ignored {:?} after </｜DSML｜invoke>", preview(tail)),
            ));
        }
    }
    calls
}

/// The attributes of a tag up to its `>` (`name="a" string="true">`), and the text after it.
/// Values may be double-quoted, single-quoted or bare.
pub(super) fn attributes(text: &str) -> Option<(Vec<(&str, &str)>, &str)> {
    let mut attrs = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix('>') {
            return Some((attrs, after));
        }
        let key_end = rest.find(|c: char| c == '=' || c == '>' || c.is_whitespace())?;
        let key = rest.get(..key_end)?;
        if key.is_empty() {
            return None;
        }
        rest = rest.get(key_end..)?.trim_start();
        let Some(after) = rest.strip_prefix('=') else {
            attrs.push((key, ""));
            continue;
        };
        let after = after.trim_start();
        let (value, next) = match after.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let inner = after.get(1..)?;
                let close = inner.find(q)?;
                (inner.get(..close)?, inner.get(close + 1..)?)
            }
            _ => {
                let end = after.find(|c: char| c == '>' || c.is_whitespace())?;
                (after.get(..end)?, after.get(end..)?)
            }
        };
        attrs.push((key, value));
        rest = next;
    }
}

/// The value of attribute `key`.
pub(super) fn attribute<'a>(attrs: &[(&str, &'a str)], key: &str) -> Option<&'a str> {
    attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// One invoke: the text after `<｜DSML｜invoke`, up to `</｜DSML｜invoke>`.
fn read_invoke(text: &str, options: &FormatOptions, example: &str) -> Parsed {
    let Some((attrs, mut rest)) = attributes(text) else {
        return Parsed::invalid(
            None,
            format!("The <｜DSML｜invoke name=\"NAME\"> tag is not closed with '>'. Write it as {example}."),
        );
    };
    let Some(name) = attribute(&attrs, "name").map(str::to_string) else {
        return Parsed::invalid(
            None,
            format!("The <｜DSML｜invoke> tag has no name=\"NAME\". Write it as {example}."),
        );
    };
    let schema = options.schema(&name);
    let mut args = ArgMap::default();
    let mut repairs = Vec::new();
    // Text outside the parameters: whitespace in the encoder's layout, else something the
    // model meant (a JSON object for arguments, or junk), which is never dropped silently.
    let mut outside = String::new();
    // As for the invokes: each search goes on from the last one.
    let (mut opens, mut ends) = (Ahead::new(text, PARAMETER), Ahead::new(text, PARAMETER_END));
    while let Some(at) = opens.find(rest) {
        outside.push_str(rest.get(..at).unwrap_or_default().trim());
        let after = rest.get(at + PARAMETER.len()..).unwrap_or_default();
        let Some((key, string, body)) = attributes(after).and_then(|(attrs, body)| {
            Some((
                attribute(&attrs, "name")?,
                attribute(&attrs, "string"),
                body,
            ))
        }) else {
            return Parsed::invalid(
                Some(name),
                format!(
                    "A <｜DSML｜parameter> tag has no name=\"KEY\" or is not closed with '>'. \
                     Write it as {example}."
                ),
            );
        };
        // The value ends at its end tag, unless the next parameter opens first.
        let next_open = opens.find(body);
        let (value, next) = match ends.find(body) {
            Some(e) if next_open.is_none_or(|n| n + PARAMETER.len() > e) => {
                (body.get(..e).unwrap_or_default(), e + PARAMETER_END.len())
            }
            _ => {
                let e = next_open.unwrap_or(body.len());
                repairs.push((
                    DiagnosticKind::MissingParameterClose,
                    format!(
                        "<｜DSML｜parameter name=\"{key}\"> was not closed with </｜DSML｜parameter>"
                    ),
                ));
                (body.get(..e).unwrap_or_default(), e)
            }
        };
        match typed(&name, key, value, string, schema) {
            // A repeated key keeps its place and takes the last value, as in a JSON map.
            Ok(v) => args.set(key, v),
            Err(response) => {
                return Parsed {
                    name: Some(name),
                    result: Err(response),
                    repairs,
                }
            }
        }
        rest = body.get(next..).unwrap_or_default();
    }
    outside.push_str(rest.trim());
    if !outside.is_empty() {
        if args.is_empty() {
            // Arguments written as one JSON object instead of parameters (tool-parser reads
            // this form too): the object is the arguments; anything else is not a call.
            if serde_json::from_str::<serde_json::Map<String, Value>>(&outside).is_err() {
                let message = format!(
                    "The <｜DSML｜invoke name=\"{name}\"> holds {:?} instead of parameters. \
                     Write it as {example}.",
                    preview(&outside)
                );
                return Parsed::invalid(Some(name), message);
            }
            return Parsed {
                name: Some(name),
                result: Ok(object(outside)),
                repairs,
            };
        }
        repairs.push((
            DiagnosticKind::TrailingJunk,
            format!("ignored {:?} between the parameters", preview(&outside)),
        ));
    }
    Parsed {
        name: Some(name),
        result: Ok(object(args.json())),
        repairs,
    }
}

/// A value typed by its `string` attribute and the schema (see the module docs).
fn typed<'a>(
    tool: &str,
    key: &str,
    value: &'a str,
    string: Option<&str>,
    schema: Option<&Value>,
) -> Result<Converted<'a>, ToolResponse> {
    let property = schema
        .and_then(|s| s.get("properties"))
        .and_then(|p| p.get(key));
    if string == Some("true") {
        if property.is_none_or(allows_string) {
            return Ok(Converted::Text(value));
        }
        let place = ("<｜DSML｜parameter name=\"", "\" string=\"false\">");
        return convert_in(tool, key, value, schema, place);
    }
    let place = ("<｜DSML｜parameter name=\"", "\" string=\"false\">");
    match convert_in(tool, key, value, schema, place)? {
        Converted::Text(text) if !property.is_some_and(typed_property) => {
            // Nothing says what the value is: JSON, as the attribute says, else as written.
            Ok(serde_json::from_str::<Value>(text.trim())
                .map_or(Converted::Text(text), Converted::Json))
        }
        converted => Ok(converted),
    }
}

/// Whether a property schema says anything about its type.
fn typed_property(property: &Value) -> bool {
    ["type", "anyOf", "oneOf", "enum", "const"]
        .iter()
        .any(|k| property.get(k).is_some())
}

/// Whether a property accepts a string (or does not say what it accepts).
fn allows_string(property: &Value) -> bool {
    if !typed_property(property) {
        return true;
    }
    let named = |t: &Value| t.as_str().is_some_and(|t| t == "string");
    let by_type = match property.get("type") {
        Some(Value::Array(list)) => list.iter().any(named),
        Some(t) => named(t),
        None => false,
    };
    let by_branch = ["anyOf", "oneOf"].iter().any(|k| {
        property
            .get(k)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(allows_string))
    });
    let by_constant = property
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(property.get("const"))
        .any(Value::is_string);
    by_type || by_branch || by_constant
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn attributes_in_any_quoting() {
        let (attrs, rest) = attributes(" name=\"city\" string=\"true\">Paris").unwrap();
        assert_eq!(attrs, [("name", "city"), ("string", "true")]);
        assert_eq!(rest, "Paris");
        let (attrs, _) = attributes(" name='a' string=false>").unwrap();
        assert_eq!(attrs, [("name", "a"), ("string", "false")]);
        assert!(attributes(" name=\"a\"").is_none());
        assert!(attributes(" =x>").is_none());
    }

    #[test]
    fn values_are_typed_by_the_attribute_and_the_schema() {
        let schema = json!({"properties": {
            "n": {"type": "integer"},
            "s": {"type": "string"},
            "u": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "d": {"description": "untyped"}
        }});
        let t = |k: &str, v: &'static str, s: Option<&str>| {
            typed("f", k, v, s, Some(&schema)).map(|c| match c {
                Converted::Text(t) => Value::String(t.to_string()),
                Converted::Json(v) => v,
            })
        };
        assert_eq!(t("n", "5", Some("false")).unwrap(), json!(5));
        // The model said string but the schema allows none: converted.
        assert_eq!(t("n", "5", Some("true")).unwrap(), json!(5));
        assert!(t("n", "five", Some("true")).is_err());
        assert_eq!(t("s", "5", Some("false")).unwrap(), json!("5"));
        assert_eq!(t("u", "5", Some("true")).unwrap(), json!("5"));
        assert_eq!(t("d", "[1, 2]", Some("false")).unwrap(), json!([1, 2]));
        assert_eq!(t("d", "[1, 2]", Some("true")).unwrap(), json!("[1, 2]"));
        assert_eq!(t("other", "{\"a\": 1}", None).unwrap(), json!({"a": 1}));
        assert_eq!(
            t("other", "not json", Some("false")).unwrap(),
            json!("not json")
        );
        assert_eq!(
            t("other", " keep  space ", Some("true")).unwrap(),
            json!(" keep  space ")
        );
    }

    /// Text inside an invoke but outside its parameters is never dropped silently: a JSON
    /// object with no parameters is the arguments (tool-parser's tests write this form), other
    /// text with no parameters is not a call, and next to parameters it is a diagnostic.
    #[test]
    fn text_outside_the_parameters() {
        let options = FormatOptions::default();
        let read = |body: &str| read_invoke(body, &options, "EX");
        let direct = read(" name=\"w\">\n{\"city\": \"Oslo\"}\n");
        assert_eq!(
            direct.result.map(|a| a.json).ok().as_deref(),
            Some("{\"city\": \"Oslo\"}")
        );
        let junk = read(" name=\"w\">\nnot valid at all\n");
        assert!(junk.result.is_err());
        assert_eq!(junk.name.as_deref(), Some("w"));
        let mixed = read(
            " name=\"w\">x<｜DSML｜parameter name=\"q\" string=\"true\">a</｜DSML｜parameter>y",
        );
        assert_eq!(
            mixed.result.map(|a| a.json).ok().as_deref(),
            Some("{\"q\":\"a\"}")
        );
        assert_eq!(mixed.repairs.len(), 1);
        assert_eq!(mixed.repairs[0].0, DiagnosticKind::TrailingJunk);
    }
}
