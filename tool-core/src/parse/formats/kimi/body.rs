//! The body of a Kimi K2 tool-calls section: `<|tool_call_begin|>ID<|tool_call_argument_begin|>JSON<|tool_call_end|>` per call.
//!
//! The markers are special tokens, which a model cannot write inside a JSON string, so inside
//! the arguments only `<|tool_call_end|>` (or, when that is missing, the end of the section)
//! ends them.

use serde_json::Value;

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::{object, Body};
use crate::parse::formats::core::Parsed;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::preview;
use crate::parse::prose;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::push_small;

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
    raw: String,
    tag: TagBuf,
    in_arguments: bool,
    /// Whether the last call ended and nothing but whitespace followed.
    call_closed: bool,
}

impl KimiBody {
    fn markers(&self) -> &'static [&'static [u8]] {
        if self.in_arguments {
            INSIDE
        } else {
            OUTSIDE
        }
    }
}

impl Body for KimiBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <|tool_calls_section_begin|> section";

    fn new() -> Self {
        KimiBody {
            raw: String::new(),
            tag: TagBuf::default(),
            in_arguments: false,
            call_closed: false,
        }
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        if !self.tag.is_empty() {
            let b = s.as_bytes().first().copied().unwrap_or_default();
            match self.tag.push(b, self.markers()) {
                Step::Partial => return (1, false),
                Step::Full(0) if !self.in_arguments => return (1, true),
                // The section ended inside a call: the call is read without its end marker.
                Step::Full(1) if self.in_arguments => return (1, true),
                Step::Full(_) => {
                    let marker = std::mem::take(&mut self.tag);
                    self.raw.push_str(marker.as_str());
                    self.call_closed = self.in_arguments;
                    self.in_arguments = !self.in_arguments;
                    return (1, false);
                }
                Step::Mismatch => {
                    let pending = std::mem::take(&mut self.tag);
                    self.raw.push_str(pending.as_str());
                    self.call_closed = false;
                }
            }
        }
        let p = self.scan_content(s);
        if p < s.len() {
            self.tag.push(b'<', self.markers());
            return (p + 1, false);
        }
        (p, false)
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        if !self.tag.is_empty() {
            return 0;
        }
        let p = prose::find(s.as_bytes(), b'<');
        let text = s.get(..p).unwrap_or_default();
        if self.call_closed && !text.trim().is_empty() {
            self.call_closed = false;
        }
        push_small(&mut self.raw, text);
        p
    }

    fn raw(&self) -> &str {
        &self.raw
    }

    fn complete(&self) -> bool {
        self.call_closed && !self.in_arguments
    }

    fn written_ids(&self) -> Vec<String> {
        calls(&self.raw).map(|c| c.id.to_string()).collect()
    }

    fn close(self, _options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let head = self.raw.split(CALL).next().unwrap_or_default().trim();
        let mut out: Vec<(Parsed, usize)> =
            calls(&self.raw).map(|c| (read_call(&c), c.end)).collect();
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
