//! The body of a DeepSeek `<｜tool▁calls▁begin｜>` section: the section is gathered to its end
//! token in one pass (tokens are matched a character at a time, so a chunk may end anywhere
//! inside one), then each `<｜tool▁call▁begin｜>...<｜tool▁call▁end｜>` is read once.

use crate::parse::event::DiagnosticKind;
use crate::parse::formats::blocks::Body;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::json::arguments_object;
use crate::parse::formats::options::FormatOptions;
use crate::parse::tag::{Step, TagBuf};

pub(super) const CALLS_BEGIN: &str = "<｜tool▁calls▁begin｜>";
pub(super) const CALLS_END: &str = "<｜tool▁calls▁end｜>";
pub(super) const CALL_BEGIN: &str = "<｜tool▁call▁begin｜>";
pub(super) const CALL_END: &str = "<｜tool▁call▁end｜>";
pub(super) const SEP: &str = "<｜tool▁sep｜>";
const END: &[&[u8]] = &[CALLS_END.as_bytes()];

/// A V3.1 call, for messages (V3's form is read too).
pub(super) const EXAMPLE: &str =
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";

#[derive(Debug)]
pub(crate) struct DeepSeekBody {
    raw: String,
    /// A possible `<｜tool▁calls▁end｜>` cut across chunks.
    tag: TagBuf,
}

impl Body for DeepSeekBody {
    const OPEN: &'static [u8] = CALLS_BEGIN.as_bytes();
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <｜tool▁calls▁begin｜> section";

    fn new() -> Self {
        DeepSeekBody {
            raw: String::new(),
            tag: TagBuf::default(),
        }
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        if self.tag.is_empty() {
            let n = self.scan_content(s);
            if n < s.len() {
                // At a `<`: the end token may start here.
                self.tag.push(b'<', END);
                return (n + 1, false);
            }
            return (n, false);
        }
        let n = s.chars().next().map_or(1, char::len_utf8);
        match self
            .tag
            .push_char(s.as_bytes().get(..n).unwrap_or_default(), END)
        {
            Step::Partial => (n, false),
            Step::Full(_) => (n, true),
            Step::Mismatch => {
                // Not the end token: its bytes are content, and this character is read again.
                let pending = std::mem::take(&mut self.tag);
                self.raw.push_str(pending.as_str());
                (0, false)
            }
        }
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        if !self.tag.is_empty() {
            return 0;
        }
        let n = memchr::memchr(b'<', s.as_bytes()).unwrap_or(s.len());
        self.raw.push_str(s.get(..n).unwrap_or_default());
        n
    }

    fn raw(&self) -> &str {
        &self.raw
    }

    fn complete(&self) -> bool {
        self.raw.trim_end().ends_with(CALL_END)
    }

    fn close(self, _options: &FormatOptions) -> Vec<(Parsed, usize)> {
        read_calls(&self.raw)
    }
}

/// Each call of a section's body, with the end of its span in `raw`.
fn read_calls(raw: &str) -> Vec<(Parsed, usize)> {
    let mut calls = Vec::new();
    let mut at = 0;
    while let Some(found) = raw.get(at..).and_then(|rest| rest.find(CALL_BEGIN)) {
        let start = at + found + CALL_BEGIN.len();
        let rest = raw.get(start..).unwrap_or_default();
        let (inner, end, closed) = match rest.find(CALL_END) {
            Some(e) => (
                rest.get(..e).unwrap_or_default(),
                start + e + CALL_END.len(),
                true,
            ),
            None => (rest, raw.len(), false),
        };
        let mut parsed = read_call(inner);
        if !closed && parsed.result.is_ok() {
            parsed.repairs.push((
                DiagnosticKind::MissingCallEnd,
                "the call had no <｜tool▁call▁end｜>; it ended with the section".to_string(),
            ));
        }
        calls.push((parsed, end));
        at = end;
    }
    calls
}

/// One call between `<｜tool▁call▁begin｜>` and `<｜tool▁call▁end｜>`: `NAME<｜tool▁sep｜>{...}`
/// (V3.1), or `function<｜tool▁sep｜>NAME` and the object in a ```` ```json ```` fence (V3, R1).
fn read_call(inner: &str) -> Parsed {
    let Some((head, tail)) = inner.split_once(SEP) else {
        let name = Some(inner.trim().to_string()).filter(|n| !n.is_empty() && !n.contains('{'));
        return Parsed::invalid(
            name,
            format!(
                "The tool call has no <｜tool▁sep｜> after the tool name. Write it as {EXAMPLE}."
            ),
        );
    };
    let head = head.trim();
    let (name, args) = if head == "function" && !tail.trim_start().starts_with('{') {
        // V3 / R1: the name up to the end of the line, then the fenced object.
        let (name, rest) = tail.split_once('\n').unwrap_or((tail, ""));
        (name.trim(), unfence(rest))
    } else {
        (head, unfence(tail))
    };
    let mut repairs = Vec::new();
    let result = if args.trim().is_empty() {
        repairs.push((
            DiagnosticKind::EmptyArguments,
            "the call had no arguments; it gets {}".to_string(),
        ));
        Ok(crate::parse::formats::blocks::object("{}".to_string()))
    } else {
        arguments_object(args, name, &mut repairs)
    };
    Parsed {
        name: Some(name.to_string()),
        result,
        repairs,
    }
}

/// The object inside a ```` ```json ```` (or bare ```` ``` ````) fence, or the text itself.
pub(super) fn unfence(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(body) = trimmed.strip_prefix("```") else {
        return trimmed;
    };
    let body = body.strip_prefix("json").unwrap_or(body);
    body.strip_suffix("```").unwrap_or(body).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_generations_are_read() {
        let v31 = "<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>add<｜tool▁sep｜>{\"a\": 1}<｜tool▁call▁end｜>";
        let v3 = "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>";
        let calls = read_calls(v31);
        let names: Vec<_> = calls
            .iter()
            .map(|(p, _)| p.name.clone().unwrap_or_default())
            .collect();
        assert_eq!(names, ["get_weather", "add"]);
        let (first, end) = &calls[0];
        assert_eq!(
            first.result.as_ref().map(|a| a.json.as_str()).ok(),
            Some("{\"city\": \"Paris\"}")
        );
        assert_eq!(
            &v31[..*end],
            v31.split("<｜tool▁call▁end｜>")
                .next()
                .unwrap_or_default()
                .to_string()
                + CALL_END
        );
        let calls = read_calls(v3);
        assert_eq!(calls[0].0.name.as_deref(), Some("get_weather"));
        assert_eq!(
            calls[0].0.result.as_ref().map(|a| a.json.as_str()).ok(),
            Some("{\"city\": \"Paris\"}")
        );
    }
}
