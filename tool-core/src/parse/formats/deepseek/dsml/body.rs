//! The body of a DSML block while it streams: only the markers matter, matched a whole
//! character at a time (they hold fullwidth `｜`), so a chunk may end anywhere inside one. The
//! block is read once, when it closes (`read.rs`).

use super::read::{read_block, INVOKE, INVOKE_END, PARAMETER, PARAMETER_END};
use crate::parse::formats::blocks::Body;
use crate::parse::formats::core::Parsed;
use crate::parse::formats::options::FormatOptions;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::push_small;

pub(super) const FUNCTION_CALLS: &str = "<｜DSML｜function_calls>";
pub(super) const FUNCTION_CALLS_END: &str = "</｜DSML｜function_calls>";
pub(super) const TOOL_CALLS: &str = "<｜DSML｜tool_calls>";
pub(super) const TOOL_CALLS_END: &str = "</｜DSML｜tool_calls>";

/// A V3.2 call, for messages.
pub(super) const EXAMPLE_V32: &str = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"NAME\">\n<｜DSML｜parameter name=\"KEY\" string=\"true\">VALUE</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";
/// A V4 call, for messages.
pub(super) const EXAMPLE_V4: &str = "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"NAME\">\n<｜DSML｜parameter name=\"KEY\" string=\"true\">VALUE</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>";

/// The markers a body watches for, the block's end first. The end ends the block even inside
/// a value (the value, and its invoke, are then unclosed), as in vLLM's and sglang's readers.
const MARKERS_V32: &[&[u8]] = &[
    FUNCTION_CALLS_END.as_bytes(),
    PARAMETER_END.as_bytes(),
    PARAMETER.as_bytes(),
    INVOKE_END.as_bytes(),
    INVOKE.as_bytes(),
];
const MARKERS_V4: &[&[u8]] = &[
    TOOL_CALLS_END.as_bytes(),
    PARAMETER_END.as_bytes(),
    PARAMETER.as_bytes(),
    INVOKE_END.as_bytes(),
    INVOKE.as_bytes(),
];

/// A DSML block's body: V3.2's `<｜DSML｜function_calls>` (`V4 = false`) or V4's
/// `<｜DSML｜tool_calls>` (`V4 = true`).
#[derive(Debug)]
pub(crate) struct DsmlBody<const V4: bool> {
    raw: String,
    tag: TagBuf,
    in_value: bool,
    /// Whether the body so far ends with a closed invoke (and nothing but space after it).
    invoke_closed: bool,
}

impl<const V4: bool> DsmlBody<V4> {
    const MARKERS: &'static [&'static [u8]] = if V4 { MARKERS_V4 } else { MARKERS_V32 };
}

impl<const V4: bool> Body for DsmlBody<V4> {
    const OPEN: &'static [u8] = if V4 {
        TOOL_CALLS.as_bytes()
    } else {
        FUNCTION_CALLS.as_bytes()
    };
    const EXAMPLE: &'static str = if V4 { EXAMPLE_V4 } else { EXAMPLE_V32 };
    const CALL_NOUN: &'static str = if V4 {
        "a <｜DSML｜tool_calls> block"
    } else {
        "a <｜DSML｜function_calls> block"
    };

    fn new() -> Self {
        DsmlBody {
            raw: String::new(),
            tag: TagBuf::default(),
            in_value: false,
            invoke_closed: false,
        }
    }

    fn feed(&mut self, s: &str) -> (usize, bool) {
        if self.tag.is_empty() {
            let n = self.scan_content(s);
            if n < s.len() {
                // At a `<`: every marker starts with it.
                self.tag.push(b'<', Self::MARKERS);
                return (n + 1, false);
            }
            return (n, false);
        }
        let n = s.chars().next().map_or(1, char::len_utf8);
        match self
            .tag
            .push_char(s.as_bytes().get(..n).unwrap_or_default(), Self::MARKERS)
        {
            Step::Partial => (n, false),
            Step::Full(0) => (n, true),
            Step::Full(k) => {
                let marker = std::mem::take(&mut self.tag);
                self.raw.push_str(marker.as_str());
                // 1 `</parameter>`, 2 `<parameter`, 3 `</invoke>`, 4 `<invoke`.
                self.in_value = k == 2;
                self.invoke_closed = k == 3;
                (n, false)
            }
            Step::Mismatch => {
                // Not a marker: its bytes are content, and this character is read again.
                let pending = std::mem::take(&mut self.tag);
                self.raw.push_str(pending.as_str());
                if !self.in_value {
                    self.invoke_closed = false;
                }
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
        let text = s.get(..n).unwrap_or_default();
        if !self.in_value && !text.trim().is_empty() {
            // Text after `</invoke>` that is not a marker: the invoke is followed by more.
            self.invoke_closed = false;
        }
        push_small(&mut self.raw, text);
        n
    }

    fn raw(&self) -> &str {
        &self.raw
    }

    fn complete(&self) -> bool {
        self.invoke_closed && !self.in_value
    }

    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)> {
        read_block(&self.raw, options, Self::EXAMPLE)
    }
}
