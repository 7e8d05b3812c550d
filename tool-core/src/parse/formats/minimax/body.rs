//! The body of a `<minimax:tool_call>` block: `<invoke name="NAME">` elements of
//! `<parameter name="KEY">VALUE</parameter>`.
//!
//! While the block streams only the markers matter: inside a value the only ends are
//! `</parameter>` and, when that is missing, the next `<parameter name=` or `</invoke>` (so
//! `</minimax:tool_call>` inside a value is data). When the block closes each value is
//! converted with the tool's schema.

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::{object, Body};
use crate::parse::formats::convert::convert_in;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::escape::ArgMap;
use crate::parse::formats::marked::{MarkedText, MarkerRules};
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::{find, preview, strip_framing, Ahead};

pub(super) const OPEN: &[u8] = b"<minimax:tool_call>";
pub(super) const EXAMPLE: &str = "<minimax:tool_call>\n<invoke name=\"NAME\">\n<parameter name=\"KEY\">VALUE</parameter>\n</invoke>\n</minimax:tool_call>";
const INVOKE: &str = "<invoke name=";
const INVOKE_END: &str = "</invoke>";
const PARAMETER: &str = "<parameter name=";
const PARAMETER_END: &str = "</parameter>";
/// Between parameters: the end of the block (0), a parameter (1), the end of an invoke (2).
const OUTSIDE: &[&[u8]] = &[b"</minimax:tool_call>", b"<parameter name=", b"</invoke>"];
/// Inside a value: its end (0), then the two markers that end it when `</parameter>` is missing.
const INSIDE: &[&[u8]] = &[b"</parameter>", b"<parameter name=", b"</invoke>"];

#[derive(Debug)]
pub(crate) struct MiniMaxBody {
    text: MarkedText,
    marks: MiniMaxMarks,
}

/// Where the block's stream stands, which decides what its markers mean.
#[derive(Debug, Default)]
struct MiniMaxMarks {
    in_value: bool,
    invoke_closed: bool,
}

impl MarkerRules for MiniMaxMarks {
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
        // `<parameter name=` opens a value; the others end one (or the invoke).
        self.in_value = k == 1;
        self.invoke_closed = k == 2;
    }

    #[inline]
    fn content(&mut self, text: &str) {
        if !self.in_value && !text.trim().is_empty() {
            // Text after `</invoke>` that is not a marker: the invoke is followed by more.
            self.invoke_closed = false;
        }
    }
}

impl Body for MiniMaxBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <minimax:tool_call> block";

    fn new() -> Self {
        MiniMaxBody {
            text: MarkedText::default(),
            marks: MiniMaxMarks::default(),
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
        self.marks.invoke_closed && !self.marks.in_value
    }

    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let mut calls = Vec::new();
        let mut rest = self.text.raw();
        let mut consumed = 0;
        while let Some(at) = find(rest, INVOKE) {
            let stray = rest.get(..at).unwrap_or_default().trim();
            let after = rest.get(at + INVOKE.len()..).unwrap_or_default();
            let (invoke, used) = match find(after, INVOKE_END) {
                Some(e) => (
                    after.get(..e).unwrap_or_default(),
                    at + INVOKE.len() + e + INVOKE_END.len(),
                ),
                None => (after, rest.len()),
            };
            let mut parsed = read_invoke(invoke, options);
            if !stray.is_empty() {
                parsed.repairs.push((
                    DiagnosticKind::TrailingJunk,
                    format!("ignored {:?} between invokes", preview(stray)),
                ));
            }
            consumed += used;
            calls.push((parsed, consumed));
            rest = rest.get(used..).unwrap_or_default();
        }
        if calls.is_empty() {
            let message = format!(
                "The <minimax:tool_call> holds no <invoke name=\"NAME\">. Write it as {EXAMPLE}."
            );
            return vec![(Parsed::invalid(None, message), self.text.raw().len())];
        }
        let tail = rest.trim();
        if !tail.is_empty() {
            if let Some((last, _)) = calls.last_mut() {
                last.repairs.push((
                    DiagnosticKind::TrailingJunk,
                    format!("ignored {:?} after </invoke>", preview(tail)),
                ));
            }
        }
        calls
    }
}

/// `"NAME">` (or `NAME>`): the attribute value, its quotes removed, and the rest.
fn attribute(text: &str) -> Option<(String, &str)> {
    let gt = text.find('>')?;
    let value = text.get(..gt)?.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value);
    Some((value.to_string(), text.get(gt + 1..)?))
}

/// Reads `"NAME">` followed by parameters (the text after `<invoke name=`, up to `</invoke>`).
fn read_invoke(text: &str, options: &FormatOptions) -> Parsed {
    let Some((name, mut rest)) = attribute(text) else {
        return Parsed::invalid(
            None,
            format!(
                "The <invoke name=\"NAME\"> tag is not closed with '>'. Write it as {EXAMPLE}."
            ),
        );
    };
    let schema = options.schema(&name);
    let mut args = ArgMap::default();
    let mut repairs = Vec::new();
    // Each search goes on from the last one: with many unclosed parameters, searching the
    // rest of the invoke once per parameter would cost its length times their number.
    let (mut opens, mut ends) = (Ahead::new(text, PARAMETER), Ahead::new(text, PARAMETER_END));
    while let Some(at) = opens.find(rest) {
        let after = rest.get(at + PARAMETER.len()..).unwrap_or_default();
        let Some((key, body)) = attribute(after) else {
            return Parsed::invalid(
                Some(name),
                format!(
                    "A <parameter name=\"KEY\"> tag is not closed with '>'. Write it as {EXAMPLE}."
                ),
            );
        };
        // The value ends at `</parameter>`, unless the next parameter opens first.
        let next_open = opens.find(body);
        let (value, next) = match ends.find(body) {
            Some(e) if next_open.is_none_or(|n| n + PARAMETER.len() > e) => {
                (body.get(..e).unwrap_or_default(), e + PARAMETER_END.len())
            }
            _ => {
                let e = next_open.unwrap_or(body.len());
                repairs.push((
                    DiagnosticKind::MissingParameterClose,
                    format!("<parameter name=\"{key}\"> was not closed with </parameter>"),
                ));
                (body.get(..e).unwrap_or_default(), e)
            }
        };
        let value = strip_framing(value);
        match convert_in(&name, &key, value, schema, ("<parameter name=\"", "\">")) {
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
    Parsed {
        name: Some(name),
        result: Ok(object(args.json())),
        repairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_lose_their_quotes() {
        assert_eq!(
            attribute("\"get_weather\">\n<p"),
            Some(("get_weather".to_string(), "\n<p"))
        );
        assert_eq!(attribute("'a'>x"), Some(("a".to_string(), "x")));
        assert_eq!(attribute("a"), None);
    }

    #[test]
    fn an_invoke_reads_its_parameters() {
        let text = "\"f\">\n<parameter name=\"a\">1</parameter>\n<parameter name=\"b\">\ntwo\n</parameter>\n";
        let parsed = read_invoke(text, &FormatOptions::default());
        assert_eq!(parsed.result.unwrap().json, r#"{"a":"1","b":"two"}"#);
    }
}
