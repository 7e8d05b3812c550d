//! JSON pieces the JSON-bodied formats share: finding where a value ends while it streams,
//! splitting a top-level array into its elements, and reading a `{"name", "arguments"}` object.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::core::Parsed;
use crate::parse::event::DiagnosticKind;
use crate::parse::json_scan::STRING_STOP;
use crate::parse::repair::{cut_out, span_in, Arguments};
use crate::response::{ToolErrorCode, ToolResponse};

/// Where a streamed JSON object or array ends: depth and string state, carried across chunks.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct ValueEnd {
    depth: u32,
    in_str: bool,
    escaped: bool,
}

impl ValueEnd {
    /// Scans `s` (the value's bytes, the first being its `{` or `[`, possibly split across
    /// calls); returns the length up to and including the byte that closes the value.
    pub(crate) fn scan(&mut self, s: &[u8]) -> Option<usize> {
        if self.in_str && !self.escaped && !s.iter().any(|&c| STRING_STOP[usize::from(c)]) {
            // The common case of a streamed chunk: string content that changes nothing.
            return None;
        }
        let mut i = 0;
        while let Some(&b) = s.get(i) {
            i += 1;
            if self.in_str {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_str = false;
                } else {
                    // The bulk of a long value is string content: skip the run of bytes that
                    // change nothing (the same table as the `<use_tool>` scanner's).
                    let rest = s.get(i..).unwrap_or_default();
                    i += rest
                        .iter()
                        .position(|&c| STRING_STOP[usize::from(c)])
                        .unwrap_or(rest.len());
                }
                continue;
            }
            match b {
                b'"' => self.in_str = true,
                b'{' | b'[' => self.depth = self.depth.saturating_add(1),
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The end offsets of the elements of the JSON array `text` (each just after the element and
/// the comma that follows it, the last one at the closing `]`), or `None` if it is not an
/// array. Only the boundaries are found here; each element is parsed on its own.
pub(crate) fn array_elements(text: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let bytes = text.as_bytes();
    let open = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes.get(open) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let mut start = open + 1;
    let (mut depth, mut in_str, mut escaped) = (0u32, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(open + 1) {
        if in_str {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth > 0 => depth -= 1,
            b']' => {
                if text.get(start..i).is_some_and(|e| !e.trim().is_empty()) {
                    elements.push(start..i);
                }
                return Some(elements);
            }
            b',' if depth == 0 => {
                elements.push(start..i);
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

#[derive(Deserialize)]
struct NamedCall<'a> {
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    parameters: Option<&'a RawValue>,
}

/// Reads `{"name": NAME, "arguments": {...}}` (Hermes, Qwen, Mistral's array form; `parameters`
/// is accepted for `arguments`, as Llama writes it). `example` shows the format in messages.
pub(crate) fn named_call(text: &str, example: &str) -> Parsed {
    match serde_json::from_str(text) {
        Ok(call) => read_call(call, example).into_parsed(),
        Err(e) => Parsed::invalid(
            None,
            format!(
                "The tool call is not a JSON object with \"name\" and \"arguments\": {e}. \
                 Write it as {example}."
            ),
        ),
    }
}

/// [`named_call`] for a JSON object not yet checked, taking its text: `Err` gives the text back
/// when it does not parse, so that the caller can say why in its own terms. The text is parsed
/// once, and the arguments (most of a long call) are cut out of its buffer in place rather
/// than copied.
pub(crate) fn take_named_call(text: String, example: &str) -> Result<Parsed, String> {
    let parsed = match text.starts_with('{').then(|| serde_json::from_str(&text)) {
        Some(Ok(call)) => read_call(call, example),
        _ => return Err(text),
    };
    let Read {
        name,
        result,
        repairs,
    } = parsed;
    // Where the arguments sit in `text`: a range does not borrow it.
    let result = result.map(|args| match args {
        ArgsOut::Slice(s) => span_in(&text, s).ok_or_else(|| object_text(s)),
        ArgsOut::Args(args) => Err(args),
    });
    let result = result.map(|spot| match spot {
        Ok(range) => Arguments {
            json: cut_out(text, range),
            raw: None,
        },
        Err(args) => args,
    });
    Ok(Parsed {
        name,
        result,
        repairs,
    })
}

/// Arguments read from a call: a slice of its text (copied out only when needed), or decoded.
enum ArgsOut<'a> {
    Slice(&'a str),
    Args(Arguments),
}

impl ArgsOut<'_> {
    fn into_arguments(self) -> Arguments {
        match self {
            ArgsOut::Slice(s) => object_text(s),
            ArgsOut::Args(args) => args,
        }
    }
}

fn object_text(s: &str) -> Arguments {
    Arguments {
        json: s.to_string(),
        raw: None,
    }
}

/// A call read from its text, its arguments possibly still a slice of it.
struct Read<'a> {
    name: Option<String>,
    result: Result<ArgsOut<'a>, ToolResponse>,
    repairs: Vec<(DiagnosticKind, String)>,
}

impl Read<'_> {
    fn into_parsed(self) -> Parsed {
        Parsed {
            name: self.name,
            result: self.result.map(ArgsOut::into_arguments),
            repairs: self.repairs,
        }
    }
}

fn read_call<'a>(call: NamedCall<'a>, example: &str) -> Read<'a> {
    let name = match call.name.map(|n| serde_json::from_str::<String>(n.get())) {
        Some(Ok(n)) => Some(n.trim().to_string()),
        Some(Err(_)) => {
            let message =
                format!("The tool call's \"name\" must be a string. Write it as {example}.");
            return Read {
                name: None,
                result: Err(ToolResponse::error(ToolErrorCode::InvalidFormat, message)),
                repairs: Vec::new(),
            };
        }
        None => None,
    };
    let mut repairs = Vec::new();
    let args = match (call.arguments, call.parameters) {
        (Some(a), _) => a,
        (None, Some(p)) => {
            repairs.push((
                DiagnosticKind::AliasTag,
                "accepted \"parameters\" as \"arguments\"".to_string(),
            ));
            p
        }
        (None, None) => {
            repairs.push((
                DiagnosticKind::EmptyArguments,
                "no \"arguments\" given; calling with {}".to_string(),
            ));
            return Read {
                name,
                result: Ok(ArgsOut::Slice("{}")),
                repairs,
            };
        }
    };
    let tool = name.clone().unwrap_or_default();
    // `args` was read as JSON with the call: the object need not be parsed again.
    let result = read_arguments(args.get(), &tool, true, &mut repairs);
    Read {
        name,
        result,
        repairs,
    }
}

/// Checks that `text` (valid JSON) is an object of arguments; a JSON string holding an object
/// is decoded once (with a diagnostic), as some models double-encode.
pub(crate) fn arguments_object(
    text: &str,
    tool: &str,
    repairs: &mut Vec<(DiagnosticKind, String)>,
) -> Result<Arguments, ToolResponse> {
    read_arguments(text, tool, false, repairs).map(ArgsOut::into_arguments)
}

/// [`arguments_object`], told whether `text` is already known to be valid JSON.
fn read_arguments<'a>(
    text: &'a str,
    tool: &str,
    valid: bool,
    repairs: &mut Vec<(DiagnosticKind, String)>,
) -> Result<ArgsOut<'a>, ToolResponse> {
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        let checked = if valid {
            Ok(())
        } else {
            serde_json::from_str::<&RawValue>(trimmed).map(|_| ())
        };
        return match checked {
            Ok(()) => Ok(ArgsOut::Slice(trimmed)),
            Err(e) => Err(ToolResponse::error(
                ToolErrorCode::InvalidFormat,
                format!(
                    "The arguments for '{tool}' are not valid JSON: {e}. Send one JSON object \
                     with quotes inside strings escaped, e.g. {{\"param\": \"value\"}}."
                ),
            )),
        };
    }
    if let Ok(inner) = serde_json::from_str::<String>(trimmed) {
        if inner.trim_start().starts_with('{')
            && serde_json::from_str::<&RawValue>(inner.trim()).is_ok()
        {
            repairs.push((
                DiagnosticKind::DoubleEncodedArguments,
                "the arguments were a JSON string holding an object; decoded it once".to_string(),
            ));
            return Ok(ArgsOut::Args(Arguments {
                json: inner.trim().to_string(),
                raw: Some(trimmed.to_string()),
            }));
        }
    }
    let kind = match trimmed.as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    };
    Err(ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!(
            "The arguments for '{tool}' must be a JSON object of named parameters, got {kind}. \
             Write them as {{\"param\": value}}."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_elements_split_at_top_level_commas_only() {
        let text = r#" [{"a": [1, 2]}, {"b": "x,]"} ]"#;
        let parts: Vec<&str> = array_elements(text)
            .unwrap()
            .into_iter()
            .map(|r| text.get(r).unwrap())
            .collect();
        assert_eq!(parts, [r#"{"a": [1, 2]}"#, r#" {"b": "x,]"} "#]);
        assert_eq!(array_elements("[]"), Some(vec![]));
        assert_eq!(array_elements("{}"), None);
    }

    #[test]
    fn value_end_is_found_across_chunks_and_ignores_brackets_in_strings() {
        let mut v = ValueEnd::default();
        assert_eq!(v.scan(br#"{"a": "}\""#), None);
        assert_eq!(v.scan(br#"]"} tail"#), Some(3));
    }
}
