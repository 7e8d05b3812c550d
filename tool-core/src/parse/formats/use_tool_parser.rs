//! [`UseToolParser`]: the `<use_tool>` format's parser on its own, without the choice of format.

use super::options::FormatOptions;
use super::parser::TextCallParser;
use super::spec::TextFormat;
use super::use_tool::{UseTool, UseToolMachine};
use crate::parse::event::{EndReason, Event};

/// Streaming parser for `<use_tool>` calls in a model's text reply: what
/// [`FormatParser`](super::FormatParser) runs for
/// [`ToolFormat::UseTool`](super::ToolFormat::UseTool), without the choice of format.
///
/// ```
/// use tool_core::parse::{EndReason, Event, UseToolParser};
/// let mut parser = UseToolParser::new();
/// let mut events = Vec::new();
/// parser.feed("a < b and <div> stay text <use_t", &mut events);
/// assert_eq!(events, [Event::Text("a < b and <div> stay text ".into())]);
/// ```
#[derive(Debug)]
pub struct UseToolParser(UseToolMachine);

impl Default for UseToolParser {
    fn default() -> Self {
        Self::new()
    }
}

impl UseToolParser {
    /// A parser with default options (call ids `xml_call_0`, `xml_call_1`, ...).
    ///
    /// ```
    /// let _ = tool_core::parse::UseToolParser::new();
    /// ```
    pub fn new() -> Self {
        Self::with_options(FormatOptions::default())
    }

    /// A parser with the given options.
    ///
    /// ```
    /// use tool_core::parse::{FormatOptions, UseToolParser};
    /// let _ = UseToolParser::with_options(FormatOptions::for_tools(&[]).with_id_prefix("t"));
    /// ```
    pub fn with_options(mut options: FormatOptions) -> Self {
        if options.id_prefix.is_none() {
            options.id_prefix = Some(UseTool.id_prefix().to_string());
        }
        UseToolParser(UseToolMachine::new(options))
    }

    /// Parses a whole reply: `feed(input)` then `finish(reason)`.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, UseToolParser};
    /// let events = UseToolParser::parse_all("just prose", EndReason::Stop);
    /// assert_eq!(events, [Event::Text("just prose".into())]);
    /// ```
    pub fn parse_all(input: &str, reason: EndReason) -> Vec<Event> {
        let mut parser = UseToolParser::new();
        let mut out = Vec::new();
        parser.feed(input, &mut out);
        parser.finish(reason, &mut out);
        out
    }

    /// Feeds the next chunk of the reply, appending what it completes to `out`.
    ///
    /// ```
    /// use tool_core::parse::{Event, UseToolParser};
    /// let mut p = UseToolParser::new();
    /// let mut out = Vec::new();
    /// p.feed("Hello ", &mut out);
    /// p.feed("world", &mut out);
    /// assert_eq!(out, [Event::Text("Hello ".into()), Event::Text("world".into())]);
    /// ```
    #[inline]
    pub fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        self.0.feed(chunk, out);
    }

    /// Feeds raw bytes: a UTF-8 sequence split across chunks is joined; invalid bytes become
    /// U+FFFD with a diagnostic. Spans count the decoded text.
    ///
    /// ```
    /// use tool_core::parse::{Event, UseToolParser};
    /// let mut p = UseToolParser::new();
    /// let mut out = Vec::new();
    /// let snow = "☃".as_bytes();
    /// p.feed_bytes(&snow[..1], &mut out);
    /// p.feed_bytes(&snow[1..], &mut out);
    /// assert_eq!(out, [Event::Text("☃".into())]);
    /// ```
    pub fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        self.0.feed_bytes(bytes, out);
    }

    /// Ends the reply. With [`EndReason::Stop`] a call missing only its closing tags is
    /// completed (with a diagnostic); with any other reason an open call is reported
    /// [`Event::CallIncomplete`] and never runs. The parser is reset afterwards.
    ///
    /// ```
    /// use tool_core::parse::{DiagnosticKind, EndReason, Event, UseToolParser};
    /// let mut p = UseToolParser::new();
    /// let mut out = Vec::new();
    /// p.feed("Let me check <use_to", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// assert!(out.iter().any(|e| matches!(e, Event::Diagnostic(d) if d.kind == DiagnosticKind::TruncatedTag)));
    /// ```
    pub fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.0.finish(reason, out);
    }
}

impl TextCallParser for UseToolParser {
    fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        UseToolParser::feed(self, chunk, out);
    }

    fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        UseToolParser::feed_bytes(self, bytes, out);
    }

    fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        UseToolParser::finish(self, reason, out);
    }
}
