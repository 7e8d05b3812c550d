//! The body of a Kimi K2 tool-calls section: `<|tool_call_begin|>ID<|tool_call_argument_begin|>JSON<|tool_call_end|>` per call.
//!
//! The markers are special tokens, which a model cannot write inside a JSON string, so inside
//! the arguments only `<|tool_call_end|>` (or, when that is missing, the end of the section)
//! ends them.

use serde_json::Value;

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::{object, Body};
use crate::parse::formats::core::Parsed;
use crate::parse::formats::marked::{MarkedText, MarkerRules};
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::preview;

pub(super) const OPEN: &[u8] = b"<|tool_calls_section_begin|>";
pub(super) const EXAMPLE: &str = "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>";
pub(super) const CALL: &str = "<|tool_call_begin|>";
pub(super) const ARGUMENTS: &str = "<|tool_call_argument_begin|>";
pub(super) const CALL_END: &str = "<|tool_call_end|>";
/// Between calls: the end of the section (0), the start of a call's arguments (1).
const OUTSIDE: &[&[u8]] = &[
    b"<|tool_calls_section_end|>",
    b"<|tool_call_argument_begin|>",
];
/// Inside the arguments: the end of the call (0), the end of the section when that is missing (1).
const INSIDE: &[&[u8]] = &[b"<|tool_call_end|>", b"<|tool_calls_section_end|>"];

#[derive(Debug)]
pub(crate) struct KimiBody {
    text: MarkedText,
    marks: KimiMarks,
}

/// Where the block's stream stands, which decides what its markers mean.
#[derive(Debug, Default)]
struct KimiMarks {
    in_arguments: bool,
    /// Whether the last call ended and nothing but whitespace followed.
    call_closed: bool,
}

impl MarkerRules for KimiMarks {
    fn markers(&self) -> &'static [&'static [u8]] {
        if self.in_arguments {
            INSIDE
        } else {
            OUTSIDE
        }
    }

    fn ends_block(&self, k: usize) -> bool {
        // The section ends outside a call, or inside one: the call is then read without
        // its end marker.
        (k == 0 && !self.in_arguments) || (k == 1 && self.in_arguments)
    }

    fn kept(&mut self, _k: usize) {
        // Either marker flips between a call's arguments and the space between calls.
        self.call_closed = self.in_arguments;
        self.in_arguments = !self.in_arguments;
    }

    #[inline]
    fn content(&mut self, text: &str) {
        if self.call_closed && !text.trim().is_empty() {
            self.call_closed = false;
        }
    }

    fn broke_off(&mut self) {
        self.call_closed = false;
    }
}

impl Body for KimiBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <|tool_calls_section_begin|> section";

    fn new() -> Self {
        KimiBody {
            text: MarkedText::default(),
            marks: KimiMarks::default(),
        }
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        self.text.feed(s, &mut self.marks)
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        self.text.scan_content(s, &mut self.marks)
    }

    fn raw(&self) -> &str {
        self.text.raw()
    }

    fn complete(&self) -> bool {
        self.marks.call_closed && !self.marks.in_arguments
    }

    fn written_ids(&self) -> Vec<String> {
        calls(self.text.raw()).map(|c| c.id.to_string()).collect()
    }

    fn close(self, _options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let head = self
            .text
            .raw()
            .split(CALL)
            .next()
            .unwrap_or_default()
            .trim();
        let mut out: Vec<(Parsed, usize)> = calls(self.text.raw())
            .map(|c| (read_call(&c), c.end))
            .collect();
        if let Some((first, _)) = out.first_mut() {
            if !head.is_empty() {
                first.repairs.push((
                    DiagnosticKind::TrailingJunk,
                    format!("ignored {:?} before <|tool_call_begin|>", preview(head)),
                ));
            }
        }
        out
    }
}

/// One call of the section as written.
pub(super) struct Written<'a> {
    /// The id (`functions.NAME:IDX`), trimmed.
    pub(super) id: &'a str,
    /// The arguments text, or `None` when `<|tool_call_argument_begin|>` is missing.
    pub(super) arguments: Option<&'a str>,
    /// Whether `<|tool_call_end|>` closed it.
    pub(super) closed: bool,
    /// The end of the call (and the whitespace after it) in the section's body.
    pub(super) end: usize,
}

/// The calls of a section body, in order.
pub(super) fn calls(raw: &str) -> impl Iterator<Item = Written<'_>> {
    let mut starts: Vec<usize> =
        memchr::memmem::find_iter(raw.as_bytes(), CALL.as_bytes()).collect();
    starts.push(raw.len());
    let mut out = Vec::new();
    for pair in starts.windows(2) {
        let &[from, to] = pair else { continue };
        let text = raw.get(from + CALL.len()..to).unwrap_or_default();
        let (id, arguments) = match text.split_once(ARGUMENTS) {
            Some((id, rest)) => (id, Some(rest)),
            None => (text.split(CALL_END).next().unwrap_or(text), None),
        };
        let (arguments, closed) = match arguments {
            Some(a) => match a.split_once(CALL_END) {
                Some((a, _)) => (Some(a), true),
                None => (Some(a), false),
            },
            None => (None, false),
        };
        out.push(Written {
            id: id.trim(),
            arguments,
            closed,
            end: to,
        });
    }
    out.into_iter()
}

/// The tool name in an id: `functions.NAME:IDX` is `NAME` (the prefix and index are optional).
pub(super) fn name_of(id: &str) -> &str {
    let id = id.strip_prefix("functions.").unwrap_or(id);
    match id.rsplit_once(':') {
        Some((name, index)) if index.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => id,
    }
}

fn read_call(call: &Written<'_>) -> Parsed {
    let name = name_of(call.id).to_string();
    let Some(arguments) = call.arguments else {
        return Parsed::invalid(
            Some(name),
            format!("The call has no <|tool_call_argument_begin|>. Write it as {EXAMPLE}."),
        );
    };
    let mut repairs = Vec::new();
    if !call.closed {
        repairs.push((
            DiagnosticKind::MissingCallEnd,
            "the call was not closed with <|tool_call_end|>".to_string(),
        ));
    }
    let text = arguments.trim();
    if text.is_empty() {
        return Parsed {
            name: Some(name),
            result: Ok(object("{}".to_string())),
            repairs,
        };
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => Parsed {
            name: Some(name),
            result: Ok(object(text.to_string())),
            repairs,
        },
        Ok(_) => Parsed::invalid(
            Some(name),
            format!("The arguments of a call must be a JSON object. Write it as {EXAMPLE}."),
        ),
        Err(e) => Parsed::invalid(
            Some(name),
            format!(
                "The arguments are not valid JSON ({e}). Write them as a JSON object: {EXAMPLE}."
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_ids() {
        assert_eq!(name_of("functions.get_weather:0"), "get_weather");
        assert_eq!(name_of("get_weather:12"), "get_weather");
        assert_eq!(name_of("functions.a.b"), "a.b");
        assert_eq!(name_of("ns:tool"), "ns:tool");
    }
}
