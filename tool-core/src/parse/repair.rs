//! Turning a closed `<arguments>` element into call arguments: the single JSON parse, the
//! repairs that have exactly one possible fix, and instructive errors for everything else.

use std::ops::Range;

use serde::de::IgnoredAny;

use super::event::DiagnosticKind;
use super::json_scan::{ArgScan, Phase};
use crate::response::{ToolErrorCode, ToolResponse};

/// Arguments ready to dispatch, or the error to send back to the model.
pub(crate) struct ArgsOutcome {
    pub(crate) result: Result<Arguments, ToolResponse>,
    pub(crate) repairs: Vec<(DiagnosticKind, String)>,
}

/// Validated arguments: the JSON object text, and the original bytes if a repair changed them.
#[derive(Debug)]
pub(crate) struct Arguments {
    pub(crate) json: String,
    pub(crate) raw: Option<String>,
}

/// The outcome when no `<arguments>` element was written at all.
pub(crate) fn missing() -> ArgsOutcome {
    ArgsOutcome {
        result: Ok(Arguments {
            json: "{}".to_string(),
            raw: None,
        }),
        repairs: vec![(
            DiagnosticKind::EmptyArguments,
            "no <arguments> given; calling with {}".to_string(),
        )],
    }
}

/// Finishes one `<arguments>` element. `tool` names the tool in messages.
pub(crate) fn finish(scan: ArgScan, tool: &str) -> ArgsOutcome {
    let mut outcome = finish_unchecked(scan, tool);
    if let Ok(args) = &outcome.result {
        if let Err(response) = check(&args.json, tool) {
            outcome.result = Err(response);
        }
    }
    outcome
}

/// Checks that `json` is valid JSON and an object: the one parse of the arguments.
pub(crate) fn check(json: &str, tool: &str) -> Result<(), ToolResponse> {
    if let Err(e) = serde_json::from_str::<IgnoredAny>(json) {
        return Err(invalid_json_response(tool, &e));
    }
    let kind = match json.as_bytes().first() {
        Some(b'{') => return Ok(()),
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    };
    Err(not_object_response(tool, kind))
}

/// [`finish`] without [`check`], for a caller that parses the text at once anyway (and calls
/// [`check`] only when that fails, for the same message): one pass over a long value instead
/// of two.
pub(crate) fn finish_unchecked(mut scan: ArgScan, tool: &str) -> ArgsOutcome {
    // A run of backticks the stream ended in is judged now.
    scan.end_closing_run();
    let mut repairs = Vec::new();
    let raw = scan.raw.as_str();
    let text = match scan.phase {
        Phase::Before => return missing(),
        Phase::Value => raw.get(scan.value_start..).unwrap_or_default(),
        Phase::Raw => raw.get(scan.value_start..).unwrap_or_default().trim_end(),
        Phase::After => raw
            .get(scan.value_start..scan.value_end)
            .unwrap_or_default(),
    };
    if scan.phase == Phase::After {
        if let Some(junk) = scan.junk_start.and_then(|j| raw.get(j..)) {
            repairs.push((
                DiagnosticKind::TrailingJunk,
                format!(
                    "dropped {:?} after the complete arguments value",
                    preview(junk.trim_end())
                ),
            ));
        }
        if scan.fence_open {
            repairs.push((
                DiagnosticKind::CodeFenceAroundArguments,
                "removed a ``` fence around the arguments".to_string(),
            ));
        }
    }
    let mut changed: Option<String> = None;
    if scan.controls {
        changed = Some(escape_controls(text));
        repairs.push((
            DiagnosticKind::ControlCharactersEscaped,
            "escaped raw control characters inside JSON strings".to_string(),
        ));
    }
    if scan.top_string && scan.phase == Phase::After {
        let current = changed.as_deref().unwrap_or(text);
        match serde_json::from_str::<String>(current) {
            Ok(inner) if inner.trim_start().starts_with('{') => {
                let inner = inner.trim().to_string();
                repairs.push((
                    DiagnosticKind::DoubleEncodedArguments,
                    "the arguments were a JSON string holding an object; decoded it once"
                        .to_string(),
                ));
                changed = Some(inner);
            }
            Ok(_) => return not_object(tool, "a string", repairs),
            Err(e) => return invalid_json(tool, &e, repairs),
        }
    }
    let json = changed.as_deref().unwrap_or(text);
    let exact = changed.is_none() && json.len() == scan.raw.len();
    let result = if exact {
        // The whole element was the object: hand over the buffer without copying it.
        Arguments {
            json: scan.raw,
            raw: None,
        }
    } else if let Some(fixed) = changed {
        Arguments {
            json: fixed,
            raw: Some(scan.raw),
        }
    } else {
        let original = if repairs.is_empty() {
            None
        } else {
            Some(scan.raw.clone())
        };
        let json = match span_in(&scan.raw, json) {
            Some(range) => cut_out(scan.raw, range),
            None => json.to_string(),
        };
        Arguments {
            json,
            raw: original,
        }
    };
    ArgsOutcome {
        result: Ok(result),
        repairs,
    }
}

/// Where `part`, a slice of `buf`, sits in it (`None` if it is not one).
pub(crate) fn span_in(buf: &str, part: &str) -> Option<Range<usize>> {
    let start = (part.as_ptr() as usize).wrapping_sub(buf.as_ptr() as usize);
    let range = start..start.checked_add(part.len())?;
    buf.get(range.clone())
        .filter(|s| s.as_ptr() == part.as_ptr())
        .map(|_| range)
}

/// `buf[range]` as a `String` made from `buf` itself (`range` on char boundaries, as from
/// [`span_in`]): a long argument moves within its buffer instead of being copied to a new one,
/// whose fresh pages cost a page fault each.
pub(crate) fn cut_out(mut buf: String, range: Range<usize>) -> String {
    if buf.is_char_boundary(range.start)
        && buf.is_char_boundary(range.end)
        && range.end <= buf.len()
    {
        buf.truncate(range.end);
        buf.drain(..range.start.min(range.end));
        return buf;
    }
    buf.get(range).unwrap_or_default().to_string()
}

fn invalid_json(
    tool: &str,
    e: &serde_json::Error,
    repairs: Vec<(DiagnosticKind, String)>,
) -> ArgsOutcome {
    ArgsOutcome {
        result: Err(invalid_json_response(tool, e)),
        repairs,
    }
}

fn invalid_json_response(tool: &str, e: &serde_json::Error) -> ToolResponse {
    let full = e.to_string();
    let what = full
        .rfind(" at line ")
        .and_then(|i| full.get(..i))
        .unwrap_or(&full);
    ToolResponse::error(
        ToolErrorCode::InvalidFormat,
        format!(
            "The <arguments> for '{tool}' are not valid JSON: {what} at line {} column {}. \
             Send one JSON object with quotes inside strings escaped, e.g. {{\"param\": \"value\"}}.",
            e.line(),
            e.column()
        ),
    )
}

fn not_object(tool: &str, kind: &str, repairs: Vec<(DiagnosticKind, String)>) -> ArgsOutcome {
    ArgsOutcome {
        result: Err(not_object_response(tool, kind)),
        repairs,
    }
}

fn not_object_response(tool: &str, kind: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!(
            "The <arguments> for '{tool}' must be a JSON object of named parameters, got {kind}. \
             Write them as {{\"param\": value}}."
        ),
    )
}

/// The first 40 characters, for messages.
fn preview(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    }
}

/// Escapes raw control characters that appear inside JSON strings (outside strings they are
/// whitespace or errors, and are left for the parser to judge).
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let (mut in_str, mut escaped, mut last) = (false, false, 0);
    for (i, b) in text.bytes().enumerate() {
        if in_str {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_str = false;
            } else if b < 0x20 {
                out.push_str(text.get(last..i).unwrap_or_default());
                match b {
                    b'\n' => out.push_str("\\n"),
                    b'\r' => out.push_str("\\r"),
                    b'\t' => out.push_str("\\t"),
                    _ => out.push_str(&format!("\\u{b:04x}")),
                }
                last = i + 1;
            }
        } else if b == b'"' {
            in_str = true;
        }
    }
    out.push_str(text.get(last..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_only_inside_strings() {
        assert_eq!(
            escape_controls("{\n\"a\":\"x\ty\u{1}\"}"),
            "{\n\"a\":\"x\\ty\\u0001\"}"
        );
    }

    #[test]
    fn a_part_is_cut_out_of_its_own_buffer() {
        let buf = String::from(" \n{\"é\": 1}\n");
        let part = buf.trim();
        let range = span_in(&buf, part).unwrap();
        assert_eq!(range, 2..11);
        assert_eq!(span_in(&buf, "{}"), None);
        let same_buffer = buf.as_ptr();
        let cut = cut_out(buf, range);
        assert_eq!((cut.as_str(), cut.as_ptr()), ("{\"é\": 1}", same_buffer));
    }

    #[test]
    fn preview_cuts_on_a_char_boundary() {
        let s = "é".repeat(50);
        assert_eq!(preview(&s).chars().count(), 40);
    }
}
