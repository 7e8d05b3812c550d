//! Qwen3-Coder XML: `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>`.
//!
//! Values are untyped text. While the block streams only the markers matter: inside a value
//! the only ends are `</parameter>` and, as in vLLM's parser, the next `<parameter=` or
//! `</function>` (so `</tool_call>` inside a value is data). When the block closes each value
//! is converted with the tool's schema (see `convert`).

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::{object, Body};
use crate::parse::formats::convert::convert;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::escape::ArgMap;
use crate::parse::formats::marked::{MarkedText, MarkerRules};
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::{find, preview, strip_framing, Ahead};

pub(super) const OPEN: &[u8] = b"<tool_call>";
pub(super) const EXAMPLE: &str =
    "<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>";
/// Between parameters: the end of the block (0), a parameter (1), the end of the function (2).
const OUTSIDE: &[&[u8]] = &[b"</tool_call>", b"<parameter=", b"</function>"];
/// Inside a value: its end (0), then the two markers that end it when `</parameter>` is missing.
const INSIDE: &[&[u8]] = &[b"</parameter>", b"<parameter=", b"</function>"];

#[derive(Debug)]
pub(crate) struct Qwen3CoderBody {
    text: MarkedText,
    marks: Qwen3CoderMarks,
}

/// Where the block's stream stands, which decides what its markers mean.
#[derive(Debug, Default)]
struct Qwen3CoderMarks {
    in_value: bool,
    function_closed: bool,
}

impl MarkerRules for Qwen3CoderMarks {
    fn markers(&self) -> &'static [&'static [u8]] {
        if self.in_value {
            INSIDE
        } else {
            OUTSIDE
        }
    }

    fn ends_block(&self, k: usize) -> bool {
        k == 0 && !self.in_value
    }

    fn kept(&mut self, k: usize) {
        // `<parameter=` opens a value; the others end one (or the function).
        self.in_value = k == 1;
        if k == 2 {
            self.function_closed = true;
        }
    }
}

impl Body for Qwen3CoderBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <tool_call> block";

    fn new() -> Self {
        Qwen3CoderBody {
            text: MarkedText::default(),
            marks: Qwen3CoderMarks::default(),
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
        self.marks.function_closed && !self.marks.in_value
    }

    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let mut calls = Vec::new();
        let mut rest = self.text.raw();
        let mut consumed = 0;
        while let Some(at) = find(rest, "<function=") {
            let stray = rest.get(..at).unwrap_or_default().trim();
            let after = rest.get(at + "<function=".len()..).unwrap_or_default();
            let (function, used) = match find(after, "</function>") {
                Some(e) => (
                    after.get(..e).unwrap_or_default(),
                    at + "<function=".len() + e + "</function>".len(),
                ),
                None => (after, rest.len()),
            };
            let mut parsed = read_function(function, options);
            if !stray.is_empty() {
                parsed.repairs.push((
                    DiagnosticKind::TrailingJunk,
                    format!(
                        "ignored {:?} between functions in <tool_call>",
                        preview(stray)
                    ),
                ));
            }
            consumed += used;
            calls.push((parsed, consumed));
            rest = rest.get(used..).unwrap_or_default();
        }
        if calls.is_empty() {
            return vec![(
                Parsed::invalid(
                    None,
                    format!("The <tool_call> holds no <function=NAME>. Write it as {EXAMPLE}."),
                ),
                self.text.raw().len(),
            )];
        }
        let tail = rest.trim();
        if !tail.is_empty() {
            if let Some((last, _)) = calls.last_mut() {
                last.repairs.push((
                    DiagnosticKind::TrailingJunk,
                    format!("ignored {:?} after </function>", preview(tail)),
                ));
            }
        }
        calls
    }
}

/// Reads `NAME>` followed by parameters (the text after `<function=`, up to `</function>`).
fn read_function(text: &str, options: &FormatOptions) -> Parsed {
    let Some(gt) = text.find('>') else {
        return Parsed::invalid(
            None,
            format!("The <function=NAME> tag is not closed with '>'. Write it as {EXAMPLE}."),
        );
    };
    let name = text.get(..gt).unwrap_or_default().trim().to_string();
    let schema = options.schema(&name);
    let mut args = ArgMap::default();
    let mut repairs = Vec::new();
    let mut rest = text.get(gt + 1..).unwrap_or_default();
    // Each search goes on from the last one: with many unclosed parameters, searching the
    // rest of the function once per parameter would cost its length times their number.
    let mut opens = Ahead::new(text, "<parameter=");
    let mut ends = Ahead::new(text, "</parameter>");
    while let Some(at) = opens.find(rest) {
        let after = rest.get(at + "<parameter=".len()..).unwrap_or_default();
        let Some(gt) = after.find('>') else {
            return Parsed::invalid(
                Some(name),
                format!("A <parameter=KEY> tag is not closed with '>'. Write it as {EXAMPLE}."),
            );
        };
        let key = after.get(..gt).unwrap_or_default().trim().to_string();
        let body = after.get(gt + 1..).unwrap_or_default();
        // The value ends at `</parameter>`, unless the next parameter opens first.
        let next_open = opens.find(body);
        let (value, next) = match ends.find(body) {
            Some(e) if next_open.is_none_or(|n| n + "<parameter=".len() > e) => {
                (body.get(..e).unwrap_or_default(), e + "</parameter>".len())
            }
            _ => {
                let e = next_open.unwrap_or(body.len());
                repairs.push((
                    DiagnosticKind::MissingParameterClose,
                    format!("<parameter={key}> was not closed with </parameter>"),
                ));
                (body.get(..e).unwrap_or_default(), e)
            }
        };
        let value = strip_framing(value);
        match convert(&name, &key, value, schema) {
            // A repeated key keeps its place and takes the last value, as in a JSON map.
            Ok(v) => args.set(&key, v),
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
    let json = args.json();
    Parsed {
        name: Some(name),
        result: Ok(object(json)),
        repairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_parameter_keeps_its_place_and_takes_the_last_value() {
        let text = "f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n\"x\"\n</parameter>\n<parameter=a>\n3\n</parameter>\n";
        let parsed = read_function(text, &FormatOptions::default());
        let args = parsed.result.map(|a| a.json).unwrap_or_default();
        assert_eq!(args, r#"{"a":"3","b":"\"x\""}"#);
    }
}
