//! Decoding a model's argument JSON into a tool's parameters, with errors a model can act on.
//!
//! The fast path is one `serde_json::from_str` straight into the parameters struct. Only when
//! that fails is the input decoded again with path tracking, so the error can name the field
//! path (`filters.tags[2]`), the expected type, the valid names and the closest match.
//!
//! `#[tool]` tools also reject a key the schema does not allow inside a nested object
//! ([`decode_tool_arguments`], [`ClosedObjects`]): serde alone drops such a key silently unless
//! the nested type says `deny_unknown_fields`, and the model would never learn its typo.

mod closed;
mod schema_check;
mod shape;
mod stream;
mod value;
mod walk;

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::error::Category;

use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::{closest, quoted_list};

pub use closed::ClosedObjects;
pub(crate) use schema_check::SchemaCheck;
pub(crate) use value::{decode_object, decode_value};

/// Decodes raw argument JSON into `T`. Empty text and `null` mean `{}`; a JSON string that
/// holds an object (double-encoded arguments) is decoded once more.
///
/// On failure returns an `INVALID_FORMAT` (not JSON) or `INVALID_PARAM` (wrong shape)
/// response whose message says what was wrong, where, and what to send instead.
pub fn decode_arguments<T: DeserializeOwned>(tool: &str, raw: &str) -> Result<T, ToolResponse> {
    // An object as models send it, nothing around it: straight to serde, none of the checks
    // below can apply.
    if raw.starts_with('{') && raw.ends_with('}') {
        return serde_json::from_str::<T>(raw).map_err(|e| explain_failure::<T>(tool, raw, e));
    }
    decode_unusual(tool, raw)
}

/// [`decode_arguments`] of text that is not a bare object: empty, `null`, surrounded by
/// whitespace, an array, double-encoded, or not JSON.
fn decode_unusual<T: DeserializeOwned>(tool: &str, raw: &str) -> Result<T, ToolResponse> {
    let text = object_text(raw);
    if text.starts_with('[') {
        // serde would read an array as positional struct fields; a model must name them.
        return Err(array_arguments(tool));
    }
    match serde_json::from_str::<T>(text) {
        Ok(value) => Ok(value),
        Err(first) => {
            if let Some(inner) = double_encoded(text) {
                // The object was sent as a JSON string: decode it once, no more.
                return serde_json::from_str::<T>(&inner)
                    .map_err(|e| explain_failure::<T>(tool, &inner, e));
            }
            Err(explain_failure::<T>(tool, text, first))
        }
    }
}

fn array_arguments(tool: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!("Invalid arguments for '{tool}': the arguments must be a JSON object of named parameters, got an array."),
    )
}

/// [`decode_arguments`], then the check serde cannot make on types without
/// `deny_unknown_fields`: no key inside a nested object that the schema closes. This is what
/// `#[tool]` tools call; `closed` caches what [`ClosedObjects`] reads from `T`'s canonical
/// schema, so the schema is built once per tool.
///
/// The check costs nothing for a tool whose schema closes no nested object (primitive
/// parameters, lists, maps) or for arguments without a nested object; otherwise it reads the
/// arguments a second time, skipping every value under which nothing is closed (about as much
/// again as the decoding itself for a small nested object, by callgrind).
///
/// A nested object is closed unless it is a map, has a `#[serde(flatten)]` map, or opts out
/// with `#[schemars(extend("additionalProperties" = true))]` on its type; then it takes any
/// key, and its schema says so.
pub fn decode_tool_arguments<T: DeserializeOwned + JsonSchema>(
    tool: &str,
    raw: &str,
    closed: &OnceLock<ClosedObjects>,
) -> Result<T, ToolResponse> {
    let value = decode_arguments::<T>(tool, raw)?;
    // Most tools close no nested object: once that is known, the check is one load, and the
    // plain decoding above is the whole path.
    if let Some(closed) = closed.get() {
        if !closed.has_nested() {
            return Ok(value);
        }
    }
    check_nested::<T>(tool, raw, closed)?;
    Ok(value)
}

/// The first call of a tool reads its schema; a tool whose schema closes nested objects has its
/// (already decoded) arguments read once more. Out of line, so the common path stays small.
#[inline(never)]
fn check_nested<T: JsonSchema>(
    tool: &str,
    raw: &str,
    closed: &OnceLock<ClosedObjects>,
) -> Result<(), ToolResponse> {
    let closed =
        closed.get_or_init(|| ClosedObjects::from_schema(crate::schema::canonical_schema::<T>()));
    if !closed.has_nested() {
        return Ok(());
    }
    let text = object_text(raw);
    // Decoding succeeded, so a JSON string here held the object (double-encoded arguments).
    match double_encoded(text) {
        Some(inner) => closed.check(tool, &inner),
        None => closed.check(tool, text),
    }
}

/// The argument text as decoding reads it: trimmed, and `{}` for empty text or `null`.
#[inline]
fn object_text(raw: &str) -> &str {
    // JSON's whitespace is ASCII and an object as models send it has none at either end:
    // skipping the Unicode-aware trim then saves ~50 instructions.
    let trimmed = if raw.starts_with('{') && raw.ends_with('}') {
        raw
    } else {
        raw.trim()
    };
    if trimmed.is_empty() || trimmed == "null" {
        "{}"
    } else {
        trimmed
    }
}

/// The object inside a JSON string such as `"{\"a\":1}"`, if that is what `text` is.
fn double_encoded(text: &str) -> Option<String> {
    if !text.starts_with('"') {
        return None;
    }
    let inner = serde_json::from_str::<String>(text).ok()?;
    let trimmed = inner.trim();
    trimmed.starts_with('{').then(|| trimmed.to_string())
}

fn explain_failure<T: DeserializeOwned>(
    tool: &str,
    text: &str,
    first: serde_json::Error,
) -> ToolResponse {
    match first.classify() {
        Category::Syntax | Category::Eof | Category::Io => ToolResponse::error(
            ToolErrorCode::InvalidFormat,
            format!(
                "The arguments for '{tool}' are not valid JSON: {} at line {} column {}. \
                 Send a single JSON object, e.g. {{\"name\": \"value\"}}, with quotes inside strings escaped.",
                strip_position(&first),
                first.line(),
                first.column()
            ),
        ),
        Category::Data => {
            let mut de = serde_json::Deserializer::from_str(text);
            match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Ok(_) => unreachable_ok(tool),
                Err(e) => {
                    let path = render_path(e.path());
                    let message = describe_data_error(&path, &strip_position(e.inner()));
                    ToolResponse::error(
                        ToolErrorCode::InvalidParam,
                        format!("Invalid arguments for '{tool}': {message}"),
                    )
                }
            }
        }
    }
}

// The slow path decodes the same text a second time; it cannot succeed where the first
// failed, but if a non-deterministic `Deserialize` impl makes it, say so instead of panicking.
fn unreachable_ok(tool: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!("The arguments for '{tool}' could not be decoded consistently; send them again."),
    )
}

fn strip_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    if e.line() == 0 {
        return full;
    }
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    }
}

fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { .. } => {}
            Segment::Unknown => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('?');
            }
        }
    }
    out
}

/// Names between backticks in a serde message, in order.
fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

fn join_path(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}.{child}")
    }
}

/// Rewrites serde's message (`missing field `x``, `unknown variant …`, `invalid type: …`) into
/// a sentence that names the path and says what to do.
fn describe_data_error(path: &str, serde_message: &str) -> String {
    let at = |p: &str| {
        if p.is_empty() {
            String::new()
        } else {
            format!(" at '{p}'")
        }
    };

    if let Some(rest) = serde_message.strip_prefix("missing field ") {
        let field = backticked(rest).first().copied().unwrap_or(rest);
        return format!(
            "missing required parameter '{}'. Add it and call the tool again.",
            join_path(path, field)
        );
    }
    if let Some(rest) = serde_message.strip_prefix("unknown field ") {
        let names = backticked(rest);
        let Some((wrong, valid)) = names.split_first() else {
            return format!("{serde_message}{}.", at(path));
        };
        // serde_path_to_error may or may not have pushed the unknown key onto the path.
        let parent = path
            .strip_suffix(wrong)
            .map(|p| p.trim_end_matches('.'))
            .unwrap_or(path);
        return unknown_parameter(&join_path(parent, wrong), wrong, valid);
    }
    if let Some(rest) = serde_message.strip_prefix("unknown variant ") {
        let names = backticked(rest);
        if let Some((wrong, allowed)) = names.split_first() {
            let hint = closest(wrong, allowed.iter().copied())
                .map(|h| format!(" Did you mean '{h}'?"))
                .unwrap_or_default();
            return format!(
                "invalid value '{wrong}'{}.{hint} Allowed values: {}.",
                at(path),
                quoted_list(allowed.iter().copied())
            );
        }
    }
    if let Some(rest) = serde_message.strip_prefix("invalid type: ") {
        if let Some((got, expected)) = rest.rsplit_once(", expected ") {
            if path.is_empty() && expected.starts_with("struct ") {
                return format!("the arguments must be a JSON object of parameters, got {got}.");
            }
            return format!(
                "wrong type{}: expected {}, got {got}.",
                at(path),
                plain_type(expected)
            );
        }
    }
    if let Some(rest) = serde_message.strip_prefix("invalid value: ") {
        if let Some((got, expected)) = rest.rsplit_once(", expected ") {
            return format!(
                "invalid value{}: expected {}, got {got}.",
                at(path),
                plain_type(expected)
            );
        }
    }
    if let Some(rest) = serde_message.strip_prefix("duplicate field ") {
        let field = backticked(rest).first().copied().unwrap_or(rest);
        return format!(
            "parameter '{}' is given twice; send it once.",
            join_path(path, field)
        );
    }
    format!("{serde_message}{}.", at(path))
}

/// The sentence for an unknown key `wrong` at `full` (`opts.verbos`) in an object taking
/// `valid`: the
/// same words whether serde or the nested-key check found it.
fn unknown_parameter<S: AsRef<str>>(full: &str, wrong: &str, valid: &[S]) -> String {
    let names = || valid.iter().map(AsRef::as_ref);
    match (valid.is_empty(), closest(wrong, names())) {
        (true, _) => {
            format!("unknown parameter '{full}': this object takes no parameters; remove it.")
        }
        (false, Some(hint)) => format!(
            "unknown parameter '{full}'. Did you mean '{hint}'? Valid parameters: {}.",
            quoted_list(names())
        ),
        (false, None) => format!(
            "unknown parameter '{full}'. Valid parameters: {}.",
            quoted_list(names())
        ),
    }
}

/// Serde's expectation, in JSON terms a model understands.
fn plain_type(expected: &str) -> String {
    let json = match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a non-negative integer",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "an integer",
        "f32" | "f64" => "a number",
        "a boolean" => "a boolean (true or false)",
        "a sequence" => "an array",
        "a map" => "an object",
        "a string" | "a borrowed string" => "a string",
        "a character" | "a char" => "a one-character string",
        other if other.starts_with("struct ") => "an object",
        other => return other.to_string(),
    };
    if json.contains("integer") {
        format!("{json} ({expected})")
    } else {
        json.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[test]
    fn example_decode_arguments() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct Args {
            query: String,
        }

        let ok: Args = decode_arguments("search", r#"{"query":"rust"}"#).unwrap();
        assert_eq!(ok.query, "rust");

        let err = decode_arguments::<Args>("search", r#"{"qurey":"rust"}"#).unwrap_err();
        assert!(err
            .error_message()
            .unwrap()
            .contains("Did you mean 'query'?"));
    }

    #[test]
    fn example_decode_tool_arguments() {
        use std::sync::OnceLock;

        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Options {
            verbose: Option<bool>,
            width: Option<u32>,
        }

        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Params {
            opts: Options,
        }

        static CLOSED: OnceLock<ClosedObjects> = OnceLock::new();
        let err = decode_tool_arguments::<Params>("show", r#"{"opts": {"verbos": true}}"#, &CLOSED)
            .unwrap_err();
        assert_eq!(
            err.error_message(),
            Some("Invalid arguments for 'show': unknown parameter 'opts.verbos'. Did you mean 'verbose'? Valid parameters: 'verbose', 'width'.")
        );
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Filters {
        tags: Vec<String>,
        unit: Option<Unit>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        Celsius,
        Fahrenheit,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Args {
        query: String,
        limit: Option<u32>,
        filters: Option<Filters>,
    }

    fn message(raw: &str) -> (ToolErrorCode, String) {
        let e = decode_arguments::<Args>("search", raw).unwrap_err();
        (
            e.error_code().unwrap(),
            e.error_message().unwrap().to_string(),
        )
    }

    #[test]
    fn empty_and_null_arguments_mean_an_empty_object() {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct NoArgs {}
        assert!(decode_arguments::<NoArgs>("t", "").is_ok());
        assert!(decode_arguments::<NoArgs>("t", "  null ").is_ok());
        let (code, msg) = message("");
        assert_eq!(code, ToolErrorCode::InvalidParam);
        assert!(msg.contains("missing required parameter 'query'"), "{msg}");
    }

    #[test]
    fn double_encoded_object_is_decoded_once() {
        let args: Args = decode_arguments("search", r#""{\"query\":\"x\"}""#).unwrap();
        assert_eq!(args.query, "x");
    }

    #[test]
    fn nested_path_is_named_for_a_wrong_element_type() {
        let (code, msg) = message(r#"{"query":"x","filters":{"tags":["a","b",3]}}"#);
        assert_eq!(code, ToolErrorCode::InvalidParam);
        assert!(msg.contains("'filters.tags[2]'"), "{msg}");
        assert!(msg.contains("expected a string, got integer `3`"), "{msg}");
    }

    #[test]
    fn unknown_nested_field_names_its_parent_path() {
        let (_, msg) = message(r#"{"query":"x","filters":{"tgas":[]}}"#);
        assert!(msg.contains("unknown parameter 'filters.tgas'"), "{msg}");
        assert!(msg.contains("Did you mean 'tags'?"), "{msg}");
    }

    #[test]
    fn invalid_json_reports_line_and_column() {
        let (code, msg) = message("{\"query\": \"x\",\n \"limit\": }");
        assert_eq!(code, ToolErrorCode::InvalidFormat);
        assert!(msg.contains("line 2 column"), "{msg}");
    }

    #[test]
    fn bad_enum_value_lists_allowed_values() {
        let (_, msg) = message(r#"{"query":"x","filters":{"tags":[],"unit":"kelvin"}}"#);
        assert!(msg.contains("'filters.unit'"), "{msg}");
        assert!(
            msg.contains("Allowed values: 'celsius', 'fahrenheit'"),
            "{msg}"
        );
    }

    #[test]
    fn non_object_arguments_are_named_as_such() {
        let (_, msg) = message("[1,2]");
        assert!(msg.contains("must be a JSON object"), "{msg}");
    }
}
