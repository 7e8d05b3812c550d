//! Hermes / Qwen2.5 / Qwen3: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.
//!
//! The body is scanned with the `<use_tool>` parser's JSON scanner, so `</tool_call>` inside a
//! JSON string is data, a fence around the object is removed, raw control characters are
//! escaped and junk after the object is dropped, each with a diagnostic.

use crate::parse::formats::blocks::Body;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::json::{named_call, take_named_call};
use crate::parse::formats::options::FormatOptions;
use crate::parse::json_scan::ArgScan;
use crate::parse::repair;
use crate::parse::tag::{Step, TagBuf};

pub(super) const OPEN: &[u8] = b"<tool_call>";
const CLOSE: &[&[u8]] = &[b"</tool_call>"];
pub(super) const EXAMPLE: &str =
    "<tool_call>{\"name\": \"NAME\", \"arguments\": {...}}</tool_call>";

#[derive(Debug)]
pub(crate) struct HermesBody {
    scan: ArgScan,
    tag: TagBuf,
}

impl HermesBody {
    fn empty() -> Self {
        HermesBody {
            scan: ArgScan::new(),
            tag: TagBuf::default(),
        }
    }
}

impl Body for HermesBody {
    const OPEN: &'static [u8] = OPEN;
    const EXAMPLE: &'static str = EXAMPLE;
    const CALL_NOUN: &'static str = "a <tool_call> block";

    fn new() -> Self {
        HermesBody::empty()
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        if !self.tag.is_empty() {
            let b = s.as_bytes().first().copied().unwrap_or_default();
            match self.tag.push(b, CLOSE) {
                Step::Partial => return (1, false),
                Step::Full(_) => return (1, true),
                Step::Mismatch => {
                    // Not the end marker: its bytes are content, and this byte is read again.
                    let pending = std::mem::take(&mut self.tag);
                    self.scan.absorb(pending.as_str());
                }
            }
        }
        let n = self.scan.scan(s);
        if n < s.len() {
            // The scanner stops only at a `<` outside a string.
            self.tag.push(b'<', CLOSE);
            return (n + 1, false);
        }
        (n, false)
    }

    #[inline]
    fn scan_content(&mut self, s: &str) -> usize {
        if !self.tag.is_empty() {
            return 0;
        }
        // The scanner stops only before a `<` outside a string, changing nothing for it.
        self.scan.scan(s)
    }

    fn raw(&self) -> &str {
        &self.scan.raw
    }

    /// The object is whole and nothing but whitespace follows it: a stop sequence ended the
    /// reply where `</tool_call>` would be. Text after the object without `</tool_call>` is
    /// not a call, as in vLLM and smg (whose parsers then find no valid JSON).
    fn complete(&self) -> bool {
        self.scan.value_complete() && self.scan.junk_start.is_none()
    }

    fn close(self, _options: &FormatOptions) -> Vec<(Parsed, usize)> {
        let end = self.scan.raw.len();
        if self.scan.is_blank() {
            let message = format!("The <tool_call> block is empty. Write it as {EXAMPLE}.");
            return vec![(Parsed::invalid(None, message), end)];
        }
        // The body is parsed once, as the call; only when that fails is it checked as JSON,
        // for the shared message saying why.
        let outcome = repair::finish_unchecked(self.scan, "tool_call");
        let result = outcome
            .result
            .and_then(|body| match take_named_call(body.json, EXAMPLE) {
                Ok(parsed) => Ok(parsed),
                Err(json) => repair::check(&json, "tool_call").map(|()| named_call(&json, EXAMPLE)),
            });
        let parsed = match result {
            Ok(mut parsed) => {
                let mut repairs = outcome.repairs;
                repairs.append(&mut parsed.repairs);
                parsed.repairs = repairs;
                parsed
            }
            Err(response) => {
                // The shared JSON messages speak of `<arguments>`; here the whole body is JSON.
                let message = response
                    .error_message()
                    .unwrap_or_default()
                    .replace(
                        "The <arguments> for 'tool_call' are",
                        "The <tool_call> body is",
                    )
                    .replace("The <arguments> for 'tool_call'", "The <tool_call> body");
                let mut parsed = Parsed::invalid(None, format!("{message} Write it as {EXAMPLE}."));
                parsed.repairs = outcome.repairs;
                parsed
            }
        };
        vec![(parsed, end)]
    }
}
