//! The body of a GLM `<tool_call>`: the tool's name, then `<arg_key>`/`<arg_value>` pairs.
//!
//! GLM-4.5 and 4.6 put a newline after the name and around each pair, GLM-4.7 writes them
//! back to back; both read the same. While the block streams only the markers matter: inside
//! a value the only ends are `</arg_value>` and, when that is missing, the next `<arg_key>`
//! (so `</tool_call>` inside a value is data). The block must end with `</tool_call>`: as in
//! vLLM's parser, a block the reply leaves open is not a call.

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::{object, Body};
use crate::parse::formats::convert::convert_in;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::escape::ArgMap;
use crate::parse::formats::marked::{MarkedText, MarkerRules};
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::tagged_values::{find, preview, Ahead};

pub(super) const OPEN: &[u8] = b"<tool_call>";
pub(super) const EXAMPLE: &str =
    "<tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>\n</tool_call>";
/// Between pairs: the end of the block (0), a value (1).
const OUTSIDE: &[&[u8]] = &[b"</tool_call>", b"<arg_value>"];
/// Inside a value: its end (0), the next key when the end is missing (1).
const INSIDE: &[&[u8]] = &[b"</arg_value>", b"<arg_key>"];

const KEY: &str = "<arg_key>";
const KEY_END: &str = "</arg_key>";
const VALUE: &str = "<arg_value>";
const VALUE_END: &str = "</arg_value>";

#[derive(Debug)]
pub(crate) struct GlmBody {
    text: MarkedText,
    marks: GlmMarks,
}

/// Where the block's stream stands, which decides what its markers mean.
#[derive(Debug, Default)]
struct GlmMarks {
    in_value: bool,
}

impl MarkerRules for GlmMarks {
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
        // Outside, `<arg_value>` opens a value; inside, both markers end it.
        self.in_value = !self.in_value && k == 1;
    }
}

impl Body for GlmBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <tool_call> block";

    fn new() -> Self {
        GlmBody {
            text: MarkedText::default(),
            marks: GlmMarks::default(),
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
        // Without `</tool_call>` the block is not a call (as in vLLM and the GLM template,
        // which always writes it).
        false
    }

    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let end = self.text.raw().len();
        vec![(read_call(self.text.raw(), options), end)]
    }
}

/// Reads `NAME` and the pairs after it (the text between `<tool_call>` and `</tool_call>`).
pub(super) fn read_call(text: &str, options: &FormatOptions) -> Parsed {
    let head_end = find(text, KEY).unwrap_or(text.len());
    let head = text.get(..head_end).unwrap_or_default();
    // The name is the first line; GLM-4.7 writes the first key right after it.
    let (name, junk) = head.trim_start().split_once('\n').unwrap_or((head, ""));
    let name = name.trim().to_string();
    if name.is_empty() {
        return Parsed::invalid(
            None,
            format!(
                "The <tool_call> block does not start with the tool name. Write it as {EXAMPLE}."
            ),
        );
    }
    let mut repairs = Vec::new();
    if !junk.trim().is_empty() {
        repairs.push((
            DiagnosticKind::TrailingJunk,
            format!("ignored {:?} after the tool name", preview(junk.trim())),
        ));
    }
    let schema = options.schema(&name);
    let mut args = ArgMap::default();
    let mut rest = text.get(head_end..).unwrap_or_default();
    // Each search goes on from the last one of its marker: with many unclosed keys or values,
    // searching the rest of the call once per pair would cost its length times their number.
    let mut keys = Ahead::new(text, KEY);
    let mut key_ends = Ahead::new(text, KEY_END);
    let mut values = Ahead::new(text, VALUE);
    let mut value_ends = Ahead::new(text, VALUE_END);
    while let Some(at) = keys.find(rest) {
        let after = rest.get(at + KEY.len()..).unwrap_or_default();
        // The key ends at `</arg_key>`, or (repaired) at the `<arg_value>` that follows it.
        let value_at = values.find(after);
        let (key, after_key) = match key_ends.find(after) {
            Some(e) if value_at.is_none_or(|v| e < v) => (
                after.get(..e).unwrap_or_default(),
                after.get(e + KEY_END.len()..).unwrap_or_default(),
            ),
            _ => {
                let v = value_at.unwrap_or(after.len());
                repairs.push((
                    DiagnosticKind::MissingParameterClose,
                    "an <arg_key> was not closed with </arg_key>".to_string(),
                ));
                (
                    after.get(..v).unwrap_or_default(),
                    after.get(v..).unwrap_or_default(),
                )
            }
        };
        let key = key.trim().to_string();
        let Some(v) = values.find(after_key) else {
            return Parsed::invalid(
                Some(name),
                format!("<arg_key>{key}</arg_key> has no <arg_value>. Write it as {EXAMPLE}."),
            );
        };
        let between = after_key.get(..v).unwrap_or_default();
        if !between.trim().is_empty() {
            repairs.push((
                DiagnosticKind::TrailingJunk,
                format!("ignored {:?} before <arg_value>", preview(between.trim())),
            ));
        }
        let body = after_key.get(v + VALUE.len()..).unwrap_or_default();
        // As while streaming: the value ends at `</arg_value>`, or at the next `<arg_key>`.
        let next_key = keys.find(body);
        let (value, next) = match value_ends.find(body) {
            Some(e) if next_key.is_none_or(|k| e < k) => {
                (body.get(..e).unwrap_or_default(), e + VALUE_END.len())
            }
            _ => {
                let e = next_key.unwrap_or(body.len());
                repairs.push((
                    DiagnosticKind::MissingParameterClose,
                    format!("<arg_value> of {key:?} was not closed with </arg_value>"),
                ));
                (body.get(..e).unwrap_or_default(), e)
            }
        };
        let place = ("<arg_value> after <arg_key>", "</arg_key>");
        match convert_in(&name, &key, value, schema, place) {
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
        let gap = rest
            .get(..keys.find(rest).unwrap_or(rest.len()))
            .unwrap_or_default();
        if !gap.trim().is_empty() {
            repairs.push((
                DiagnosticKind::TrailingJunk,
                format!("ignored {:?} after </arg_value>", preview(gap.trim())),
            ));
        }
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

    fn args(text: &str) -> String {
        read_call(text, &FormatOptions::default())
            .result
            .map(|a| a.json)
            .unwrap_or_default()
    }

    #[test]
    fn both_layouts_read_the_same() {
        let spaced = "get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n";
        let tight = "get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value>";
        assert_eq!(args(spaced), r#"{"city":"Beijing"}"#);
        assert_eq!(args(tight), r#"{"city":"Beijing"}"#);
        assert_eq!(args("get_time\n"), "{}");
    }

    #[test]
    fn a_missing_value_end_stops_at_the_next_key() {
        let text =
            "f\n<arg_key>a</arg_key>\n<arg_value>x\n<arg_key>b</arg_key><arg_value>y</arg_value>";
        let parsed = read_call(text, &FormatOptions::default());
        assert_eq!(parsed.repairs.len(), 1, "{:?}", parsed.repairs);
        assert_eq!(parsed.result.unwrap().json, r#"{"a":"x\n","b":"y"}"#);
    }
}
