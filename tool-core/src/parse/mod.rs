//! The incremental `<use_tool>` parser for models that call tools in text.
//!
//! [`XmlParser`] is a byte-level state machine: [`XmlParser::feed`] takes each chunk as it
//! streams in and appends [`Event`]s; [`XmlParser::finish`] ends the reply. A complete parse is
//! literally feed-everything-then-finish ([`XmlParser::parse_all`]).
//!
//! Per chunk the work is O(chunk): prose is skipped with `memchr` for `<` (one pass over a byte
//! table for short chunks, see `prose`), `<arguments>` is scanned once byte by byte for JSON
//! depth and string state, nothing earlier is re-read, and the arguments are parsed by
//! serde_json once, when the call closes.
//!
//! ```
//! use tool_core::parse::{EndReason, Event, XmlParser};
//!
//! let reply = "I'll look it up.\n<use_tool>\n  <tool_name>search</tool_name>\n  <arguments>{\"q\": \"</arguments> in a string\"}</arguments>\n</use_tool>";
//! let mut parser = XmlParser::new();
//! let mut events = Vec::new();
//! for chunk in reply.as_bytes().chunks(5) {
//!     parser.feed_bytes(chunk, &mut events);
//! }
//! parser.finish(EndReason::Stop, &mut events);
//! let text: String = events.iter().filter_map(Event::as_text).collect();
//! assert_eq!(text, "I'll look it up.\n");
//! assert!(events.iter().any(|e| matches!(e, Event::CallComplete { call, .. }
//!     if call.arguments == r#"{"q": "</arguments> in a string"}"#)));
//! ```

mod call;
mod dispatch;
mod event;
mod fence;
mod formats;
mod in_call;
mod json_scan;
mod prose;
mod repair;
mod tag;
mod text_chunk;
mod utf8;

pub use dispatch::XmlCallResult;
pub use event::{Diagnostic, DiagnosticKind, EndReason, Event};
pub use formats::{FormatOptions, FormatParser, TextCallParser, ToolFormat};
pub use text_chunk::TextChunk;

use call::OpenCall;
use fence::FenceTracker;
use tag::{Step, TagBuf, CHILD_OPEN, USE_TOOL};

/// How much whitespace may separate `<use_tool>` from its first child before it is prose.
const MAX_GAP: usize = 256;

/// Settings for an [`XmlParser`].
///
/// ```
/// use tool_core::parse::{ParserOptions, XmlParser};
/// let parser = XmlParser::with_options(ParserOptions { run_fenced_calls: true, ..ParserOptions::default() });
/// # let _ = parser;
/// ```
#[derive(Debug, Clone)]
pub struct ParserOptions {
    /// Run `<use_tool>` blocks that appear inside a markdown code fence. Off by default: a
    /// model showing an example is not asking for a call. Either way it is reported.
    pub run_fenced_calls: bool,
    /// Call ids are this prefix followed by the call index (`"xml_call_0"`).
    pub id_prefix: String,
    /// Known tool names: a call to any other name is a `NOT_FOUND` error with a suggestion.
    pub known_tools: Option<Vec<String>>,
}

impl Default for ParserOptions {
    fn default() -> Self {
        ParserOptions {
            run_fenced_calls: false,
            id_prefix: "xml_call_".to_string(),
            known_tools: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Prose.
    Text,
    /// After `<use_tool>`, waiting for a child tag to decide whether a call starts.
    Opened,
    /// Inside a call, between children.
    Children,
    /// Inside `<tool_name>`.
    Name,
    /// Inside `<arguments>`.
    Args,
}

/// Streaming parser for `<use_tool>` calls in a model's text reply. See the module docs.
///
/// ```
/// use tool_core::parse::{EndReason, Event, XmlParser};
/// let mut parser = XmlParser::new();
/// let mut events = Vec::new();
/// parser.feed("a < b and <div> stay text <use_t", &mut events);
/// assert_eq!(events, [Event::Text("a < b and <div> stay text ".into())]);
/// ```
#[derive(Debug)]
pub struct XmlParser {
    options: ParserOptions,
    state: State,
    /// A tag being matched (held back from output until it matches or cannot).
    tag: TagBuf,
    /// Stream offset of the current tag's `<`.
    tag_at: usize,
    /// `<use_tool>` and the whitespace after it, held while undecided.
    held: String,
    held_at: usize,
    fence: FenceTracker,
    /// Bytes of text fed before the current chunk.
    offset: usize,
    next_index: usize,
    call: Option<OpenCall>,
    utf8: utf8::Carry,
    /// `out.len()` when the current feed began: text merges only into events of this feed.
    out_start: usize,
}

impl Default for XmlParser {
    fn default() -> Self {
        Self::new()
    }
}

impl XmlParser {
    /// A parser with default options.
    ///
    /// ```
    /// let _ = tool_core::parse::XmlParser::new();
    /// ```
    pub fn new() -> Self {
        Self::with_options(ParserOptions::default())
    }

    /// A parser with the given options.
    ///
    /// ```
    /// use tool_core::parse::{ParserOptions, XmlParser};
    /// let _ = XmlParser::with_options(ParserOptions { known_tools: Some(vec!["search".into()]), ..Default::default() });
    /// ```
    pub fn with_options(options: ParserOptions) -> Self {
        XmlParser {
            options,
            state: State::Text,
            tag: TagBuf::default(),
            tag_at: 0,
            held: String::new(),
            held_at: 0,
            fence: FenceTracker::default(),
            offset: 0,
            next_index: 0,
            call: None,
            utf8: utf8::Carry::default(),
            out_start: 0,
        }
    }

    /// Parses a whole reply: `feed(input)` then `finish(reason)`.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, XmlParser};
    /// let events = XmlParser::parse_all("just prose", EndReason::Stop);
    /// assert_eq!(events, [Event::Text("just prose".into())]);
    /// ```
    pub fn parse_all(input: &str, reason: EndReason) -> Vec<Event> {
        let mut parser = XmlParser::new();
        let mut out = Vec::new();
        parser.feed(input, &mut out);
        parser.finish(reason, &mut out);
        out
    }

    /// Feeds the next chunk of the reply, appending what it completes to `out`.
    ///
    /// ```
    /// use tool_core::parse::{Event, XmlParser};
    /// let mut p = XmlParser::new();
    /// let mut out = Vec::new();
    /// p.feed("Hello ", &mut out);
    /// p.feed("world", &mut out);
    /// assert_eq!(out, [Event::Text("Hello ".into()), Event::Text("world".into())]);
    /// ```
    pub fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        self.out_start = out.len();
        let bytes = chunk.as_bytes();
        if bytes.is_empty() {
            // Nothing to report (the fast paths below would report an empty delta).
            return;
        }
        let mut i = 0;
        if self.state == State::Text && self.tag.is_empty() {
            // The common case of a streamed reply, a chunk of plain prose, skips the state
            // machine's loop; a `<` is left to it.
            let run = prose::scan(bytes);
            if !run.at_lt {
                self.emit_prose(chunk, run.plain, out);
                self.offset += bytes.len();
                return;
            }
            self.emit_prose(chunk.get(..run.len).unwrap_or_default(), run.plain, out);
            i = run.len;
        } else if self.state == State::Args && self.tag.is_empty() {
            // Inside a long argument most chunks are pure JSON content.
            i = self.feed_args_content(chunk, out);
            if i == bytes.len() {
                self.offset += bytes.len();
                return;
            }
        }
        while i < bytes.len() {
            i = match self.state {
                State::Text => self.step_text(chunk, i, out),
                State::Opened => self.step_opened(chunk, i, out),
                State::Children => self.step_children(chunk, i, out),
                State::Name => self.step_name(chunk, i, out),
                State::Args => self.step_args(chunk, i, out),
            };
        }
        if self.call.is_some() {
            self.flush_delta(out);
        }
        self.offset += bytes.len();
    }

    /// Feeds raw bytes: a UTF-8 sequence split across chunks is joined; invalid bytes become
    /// U+FFFD with a diagnostic. Spans count the decoded text.
    ///
    /// ```
    /// use tool_core::parse::{Event, XmlParser};
    /// let mut p = XmlParser::new();
    /// let mut out = Vec::new();
    /// let snow = "☃".as_bytes();
    /// p.feed_bytes(&snow[..1], &mut out);
    /// p.feed_bytes(&snow[1..], &mut out);
    /// assert_eq!(out, [Event::Text("☃".into())]);
    /// ```
    pub fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        utf8::feed_bytes(self, bytes, out);
    }

    /// Ends the reply. With [`EndReason::Stop`] a call missing only its closing tags is
    /// completed (with a diagnostic); with any other reason an open call is reported
    /// [`Event::CallIncomplete`] and never runs. The parser is reset afterwards.
    ///
    /// ```
    /// use tool_core::parse::{DiagnosticKind, EndReason, Event, XmlParser};
    /// let mut p = XmlParser::new();
    /// let mut out = Vec::new();
    /// p.feed("Let me check <use_to", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// assert!(out.iter().any(|e| matches!(e, Event::Diagnostic(d) if d.kind == DiagnosticKind::TruncatedTag)));
    /// ```
    pub fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.out_start = out.len();
        utf8::finish(self, out);
        match self.state {
            State::Text => {
                if self.tag.len() > 1 {
                    let partial = self.tag.as_str().to_string();
                    self.diagnose(
                        None,
                        DiagnosticKind::TruncatedTag,
                        format!("the reply ended inside the tag {partial:?}"),
                        out,
                    );
                }
                let pending = std::mem::take(&mut self.tag);
                self.emit_text(pending.as_str(), out);
            }
            State::Opened => {
                let mut pending = std::mem::take(&mut self.held);
                pending.push_str(self.tag.as_str());
                self.diagnose(
                    None,
                    DiagnosticKind::TruncatedTag,
                    "the reply ended right after <use_tool>, before the call began".to_string(),
                    out,
                );
                self.emit_text(&pending, out);
            }
            State::Children | State::Name | State::Args => self.end_open_call(reason, out),
        }
        let options = std::mem::take(&mut self.options);
        *self = XmlParser::with_options(options);
    }

    // ---- prose ----

    fn step_text(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if !self.tag.is_empty() {
            let b = rest.as_bytes().first().copied().unwrap_or_default();
            return match self.tag.push(b, USE_TOOL) {
                Step::Partial => i + 1,
                Step::Full(_) => {
                    self.held.clear();
                    self.held.push_str(self.tag.as_str());
                    self.held_at = self.tag_at;
                    self.tag.clear();
                    self.state = State::Opened;
                    i + 1
                }
                Step::Mismatch => {
                    let pending = std::mem::take(&mut self.tag);
                    self.emit_text(pending.as_str(), out);
                    i
                }
            };
        }
        let run = prose::scan(rest.as_bytes());
        self.emit_prose(rest.get(..run.len).unwrap_or_default(), run.plain, out);
        if !run.at_lt {
            return chunk.len();
        }
        self.tag_at = self.offset + i + run.len;
        self.tag.push(b'<', USE_TOOL);
        i + run.len + 1
    }

    fn step_opened(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let b = chunk.as_bytes().get(i).copied().unwrap_or_default();
        if self.tag.is_empty() {
            if b.is_ascii_whitespace() && self.held.len() < MAX_GAP {
                self.held.push(char::from(b));
                return i + 1;
            }
            if b == b'<' {
                self.tag_at = self.offset + i;
                self.tag.push(b, CHILD_OPEN);
                return i + 1;
            }
            self.abandon_open(out);
            return i;
        }
        match self.tag.push(b, CHILD_OPEN) {
            Step::Partial => i + 1,
            Step::Mismatch if self.tag.len() == 1 => {
                // A lone `<` may begin another `<use_tool>` (a repeated opening tag): emit only
                // what was held and let prose matching continue from that `<`.
                let held = std::mem::take(&mut self.held);
                self.state = State::Text;
                self.emit_text(&held, out);
                self.tag.clear();
                self.tag.push(b'<', USE_TOOL);
                i
            }
            Step::Mismatch => {
                self.abandon_open(out);
                i
            }
            Step::Full(k) => {
                if self.fence.inside && !self.options.run_fenced_calls {
                    self.diagnose(
                        None,
                        DiagnosticKind::CallInCodeFence,
                        "a <use_tool> block inside a code fence was shown as text, not run"
                            .to_string(),
                        out,
                    );
                    self.abandon_open(out);
                    return i + 1;
                }
                let index = self.next_index;
                self.next_index += 1;
                self.held.clear();
                self.tag.clear();
                out.push(Event::CallStarted { index });
                self.call = Some(OpenCall::new(index, self.held_at));
                self.open_child(k, out);
                i + 1
            }
        }
    }

    /// `<use_tool>` was prose after all: emit what was held and rescan the current byte.
    fn abandon_open(&mut self, out: &mut Vec<Event>) {
        let mut pending = std::mem::take(&mut self.held);
        pending.push_str(self.tag.as_str());
        self.tag.clear();
        self.state = State::Text;
        self.emit_text(&pending, out);
    }

    // ---- output ----

    pub(super) fn emit_text(&mut self, text: &str, out: &mut Vec<Event>) {
        self.emit_prose(text, false, out);
    }

    /// Emits text; `plain` says it holds no backtick or newline (see `prose::scan`).
    fn emit_prose(&mut self, text: &str, plain: bool, out: &mut Vec<Event>) {
        if text.is_empty() {
            return;
        }
        if plain {
            self.fence.observe_plain(text);
        } else {
            self.fence.observe(text);
        }
        if out.len() > self.out_start {
            if let Some(Event::Text(last)) = out.last_mut() {
                last.push_str(text);
                return;
            }
        }
        out.push(Event::Text(TextChunk::from(text)));
    }

    pub(super) fn diagnose(
        &mut self,
        call: Option<usize>,
        kind: DiagnosticKind,
        message: String,
        out: &mut Vec<Event>,
    ) {
        out.push(Event::Diagnostic(Diagnostic {
            call,
            kind,
            message,
        }));
    }
}

impl utf8::Utf8Sink for XmlParser {
    fn carry(&mut self) -> &mut utf8::Carry {
        &mut self.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        self.feed(text, out);
    }
}
