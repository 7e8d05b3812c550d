//! [`FormatParser`]: the streaming parser for any [`ToolFormat`], and the
//! [`TextCallParser`] trait it shares with [`UseToolParser`](super::UseToolParser).
//!
//! Every format is parsed with the same guarantees: O(chunk) work per chunk, text plus call
//! spans rebuild the input exactly, never a partial call (a reply cut off inside a call is
//! [`Event::CallIncomplete`]), calls inside a markdown code fence stay text, every repair
//! reported as a [`Event::Diagnostic`], no panic.
//!
//! ```
//! use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
//!
//! let reply = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"</tool_call>\"}}\n</tool_call>";
//! let mut parser = FormatParser::new(ToolFormat::Hermes);
//! let mut events = Vec::new();
//! for chunk in reply.as_bytes().chunks(3) {
//!     parser.feed_bytes(chunk, &mut events);
//! }
//! parser.finish(EndReason::Stop, &mut events);
//! let call = events.iter().find_map(|e| match e { Event::CallComplete { call, .. } => Some(call), _ => None }).unwrap();
//! assert_eq!((call.name.as_str(), call.arguments.as_str()), ("get_weather", r#"{"city": "</tool_call>"}"#));
//! ```

use super::any_parser::AnyParser;
use super::options::FormatOptions;
use super::table::ToolFormat;
use super::think::{Handoff, Think};
use crate::parse::event::{EndReason, Event};
use crate::parse::utf8::{self, Carry, Utf8Sink};

/// A streaming parser of tool calls in a model's text reply: what a text-mode runner needs
/// from any format. [`UseToolParser`](super::UseToolParser) and [`FormatParser`] implement it.
///
/// ```
/// use tool_core::parse::{EndReason, Event, FormatParser, TextCallParser, ToolFormat, UseToolParser};
/// fn calls(parser: &mut dyn TextCallParser, reply: &str) -> usize {
///     let mut out = Vec::new();
///     parser.feed(reply, &mut out);
///     parser.finish(EndReason::Stop, &mut out);
///     out.iter().filter(|e| matches!(e, Event::CallComplete { .. })).count()
/// }
/// assert_eq!(calls(&mut UseToolParser::new(), "<use_tool><tool_name>a</tool_name></use_tool>"), 1);
/// assert_eq!(calls(&mut FormatParser::new(ToolFormat::Mistral), "[TOOL_CALLS]a[ARGS]{}"), 1);
/// ```
pub trait TextCallParser: Send {
    /// Feeds the next chunk of the reply, appending what it completes to `out`.
    fn feed(&mut self, chunk: &str, out: &mut Vec<Event>);
    /// Feeds raw bytes (a UTF-8 sequence split across chunks is joined).
    fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>);
    /// Ends the reply; the parser is reset afterwards.
    fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>);
}

/// A streaming parser for any [`ToolFormat`]. See the module docs.
///
/// ```
/// use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
/// let events = FormatParser::parse_all(ToolFormat::Mistral, "[TOOL_CALLS]search[ARGS]{\"q\": \"rust\"} done", EndReason::Stop);
/// assert!(matches!(&events[1], Event::ArgumentsDelta { .. }));
/// assert_eq!(events.last(), Some(&Event::Text(" done".into())));
/// ```
#[derive(Debug)]
pub struct FormatParser {
    format: ToolFormat,
    inner: AnyParser,
    /// The leading `<think>` section, for formats whose models think (or when the reply
    /// starts in reasoning); boxed so that the formats without it stay small.
    think: Option<Box<Thinking>>,
}

/// The `<think>` splitter in front of the format's parser, and the byte front end it needs
/// (the format parser's own one sees only what the splitter passes on).
#[derive(Debug)]
struct Thinking {
    split: Think,
    utf8: Carry,
}

impl FormatParser {
    /// A parser for `format` with default options.
    ///
    /// ```
    /// let _ = tool_core::parse::FormatParser::new(tool_core::parse::ToolFormat::Harmony);
    /// ```
    pub fn new(format: ToolFormat) -> Self {
        Self::with_options(format, FormatOptions::default())
    }

    /// A parser for `format` with the given options.
    ///
    /// ```
    /// use tool_core::parse::{FormatOptions, FormatParser, ToolFormat};
    /// let _ = FormatParser::with_options(ToolFormat::Hermes, FormatOptions::default().with_fenced_calls(true));
    /// ```
    pub fn with_options(format: ToolFormat, mut options: FormatOptions) -> Self {
        let spec = format.spec();
        if options.id_prefix.is_none() {
            options.id_prefix = Some(spec.id_prefix().to_string());
        }
        let think = (spec.thinks() || options.start_in_reasoning).then(|| {
            Box::new(Thinking {
                split: Think::new(options.start_in_reasoning, spec.reasoning_ends_at()),
                utf8: Carry::default(),
            })
        });
        FormatParser {
            format,
            inner: spec.parser(options),
            think,
        }
    }

    /// The format this parser reads.
    ///
    /// ```
    /// use tool_core::parse::{FormatParser, ToolFormat};
    /// assert_eq!(FormatParser::new(ToolFormat::Hermes).format(), ToolFormat::Hermes);
    /// ```
    pub fn format(&self) -> ToolFormat {
        self.format
    }

    /// Parses a whole reply: `feed(input)` then `finish(reason)`.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
    /// let events = FormatParser::parse_all(ToolFormat::Hermes, "no call", EndReason::Stop);
    /// assert_eq!(events, [Event::Text("no call".into())]);
    /// ```
    pub fn parse_all(format: ToolFormat, input: &str, reason: EndReason) -> Vec<Event> {
        let mut parser = FormatParser::new(format);
        let mut out = Vec::new();
        parser.feed(input, &mut out);
        parser.finish(reason, &mut out);
        out
    }

    /// Feeds the next chunk of the reply, appending what it completes to `out`.
    ///
    /// ```
    /// use tool_core::parse::{Event, FormatParser, ToolFormat};
    /// let mut p = FormatParser::new(ToolFormat::Hermes);
    /// let mut out = Vec::new();
    /// p.feed("Hi <tool_", &mut out);
    /// assert_eq!(out, [Event::Text("Hi ".into())]);
    /// ```
    pub fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        if chunk.is_empty() {
            return;
        }
        match self.think.as_mut() {
            Some(think) => feed_split(&mut think.split, &mut self.inner, chunk, out),
            None => self.inner.feed(chunk, out),
        }
    }

    /// Feeds raw bytes: a UTF-8 sequence split across chunks is joined; invalid bytes become
    /// U+FFFD with a diagnostic.
    ///
    /// ```
    /// use tool_core::parse::{Event, FormatParser, ToolFormat};
    /// let mut p = FormatParser::new(ToolFormat::Mistral);
    /// let mut out = Vec::new();
    /// let snow = "☃".as_bytes();
    /// p.feed_bytes(&snow[..2], &mut out);
    /// p.feed_bytes(&snow[2..], &mut out);
    /// assert_eq!(out, [Event::Text("☃".into())]);
    /// ```
    pub fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        match self.think.as_mut() {
            Some(think) => {
                let mut sink = Split {
                    think,
                    inner: &mut self.inner,
                };
                utf8::feed_bytes(&mut sink, bytes, out);
            }
            None => self.inner.feed_bytes(bytes, out),
        }
    }

    /// Ends the reply. With [`EndReason::Stop`] a call missing only its end marker is
    /// completed (with a diagnostic); with any other reason an open call is
    /// [`Event::CallIncomplete`] and never runs. The parser is reset afterwards.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
    /// let mut p = FormatParser::new(ToolFormat::Hermes);
    /// let mut out = Vec::new();
    /// p.feed("<tool_call>{\"name\": \"a\", \"argu", &mut out);
    /// p.finish(EndReason::Length, &mut out);
    /// assert!(matches!(out.last(), Some(Event::CallIncomplete { .. })));
    /// ```
    pub fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        let Some(think) = self.think.as_mut() else {
            self.inner.finish(reason, out);
            return;
        };
        utf8::finish(
            &mut Split {
                think,
                inner: &mut self.inner,
            },
            out,
        );
        let shift = think.split.shift();
        let held = think.split.finish(out);
        // The splitter's own events are placed already; the format parser's move.
        let from = out.len();
        if let Some(held) = held {
            self.inner.feed(&held, out);
        }
        self.inner.finish(reason, out);
        shift_spans(out, from, shift);
    }
}

/// Feeds `chunk` through the `<think>` splitter to the format's parser.
fn feed_split(split: &mut Think, inner: &mut AnyParser, chunk: &str, out: &mut Vec<Event>) {
    if split.done() && split.shift() == 0 {
        // A reply without a section: the format's parser alone, as without a splitter.
        inner.feed(chunk, out);
        return;
    }
    let handoff = split.split(chunk, out);
    // The splitter's own events are placed already; the format parser's move.
    let from = out.len();
    match handoff {
        Handoff::Nothing => return,
        Handoff::Rest(rest) => inner.feed(rest, out),
        Handoff::Held(held) => inner.feed(&held, out),
    }
    shift_spans(out, from, split.shift());
}

/// The byte front end of a parser with a splitter.
struct Split<'a> {
    think: &'a mut Thinking,
    inner: &'a mut AnyParser,
}

impl Utf8Sink for Split<'_> {
    fn carry(&mut self) -> &mut Carry {
        &mut self.think.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        if !text.is_empty() {
            feed_split(&mut self.think.split, self.inner, text, out);
        }
    }
}

/// The format parser counts offsets from its own first byte, which follows the `<think>`
/// section: its spans move by the section's length.
fn shift_spans(out: &mut [Event], from: usize, shift: usize) {
    if shift == 0 {
        return;
    }
    for event in out.iter_mut().skip(from) {
        match event {
            Event::CallComplete { span, .. }
            | Event::CallError { span, .. }
            | Event::CallIncomplete { span, .. } => *span = span.start + shift..span.end + shift,
            Event::Text(chunk)
            | Event::Reasoning(chunk)
            | Event::Markup(chunk)
            | Event::ArgumentsDelta { delta: chunk, .. } => chunk.shift(shift),
            Event::CallStarted { .. } | Event::Name { .. } | Event::Diagnostic(_) => {}
        }
    }
}

impl TextCallParser for FormatParser {
    fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        FormatParser::feed(self, chunk, out);
    }

    fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        FormatParser::feed_bytes(self, bytes, out);
    }

    fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        FormatParser::finish(self, reason, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte front end feeds empty text around an invalid sequence: inside a call that must
    /// not be reported as an empty argument delta (a chunked parse then differed from a whole
    /// one; found by the fuzz targets).
    #[test]
    fn an_invalid_byte_inside_a_call_reports_no_empty_delta() {
        let calls = [
            (
                ToolFormat::Hermes,
                "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"",
                "\"}}</tool_call>",
            ),
            (
                ToolFormat::Qwen3Coder,
                "<tool_call><function=a><parameter=x>",
                "</parameter></function></tool_call>",
            ),
            (ToolFormat::Mistral, "[TOOL_CALLS]a[ARGS]{\"x\": \"", "\"}"),
            (
                ToolFormat::Harmony,
                "<|channel|>commentary to=functions.a <|constrain|>json<|message|>{\"x\": \"",
                "\"}<|call|>",
            ),
        ];
        for (format, head, tail) in calls {
            let mut parser = FormatParser::new(format);
            let mut out = Vec::new();
            for piece in [head.as_bytes(), b"v\xff", b"\xfe", tail.as_bytes()] {
                parser.feed_bytes(piece, &mut out);
            }
            parser.finish(EndReason::Stop, &mut out);
            let empty = out
                .iter()
                .any(|e| matches!(e, Event::ArgumentsDelta { delta, .. } if delta.is_empty()));
            assert!(!empty, "{format:?}: {out:?}");
            assert!(
                out.iter().any(|e| matches!(e, Event::CallComplete { .. })),
                "{format:?}: {out:?}"
            );
        }
    }
}
