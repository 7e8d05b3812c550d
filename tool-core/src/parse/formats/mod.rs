//! Open models' own tool-call formats, each parsed with the guarantees of the `<use_tool>`
//! parser: O(chunk) work per chunk, text plus call spans rebuild the input exactly, never a
//! partial call (a reply cut off inside a call is [`Event::CallIncomplete`]), calls inside a
//! markdown code fence stay text, every repair reported as a [`Event::Diagnostic`], no panic.
//!
//! | [`ToolFormat`] | a call as the model writes it |
//! |---|---|
//! | `UseTool` | `<use_tool><tool_name>NAME</tool_name><arguments>{...}</arguments></use_tool>` |
//! | `Hermes` (Hermes, Qwen2.5, Qwen3) | `<tool_call>{"name": NAME, "arguments": {...}}</tool_call>` |
//! | `QwenXml` (Qwen3-Coder) | `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>` |
//! | `Mistral` | `[TOOL_CALLS] [{"name": NAME, "arguments": {...}}]` or `[TOOL_CALLS]NAME[ARGS]{...}` |
//! | `Harmony` (gpt-oss) | `<\|channel\|>commentary to=functions.NAME <\|constrain\|>json<\|message\|>{...}<\|call\|>` |
//!
//! [`FormatParser`] takes any of them and reports the same [`Event`]s as
//! [`XmlParser`](crate::parse::XmlParser). Harmony also reports [`Event::Reasoning`] (the
//! analysis channel) and [`Event::Markup`] (its framing tokens); text, reasoning, markup and
//! call spans together rebuild the input.
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

mod any_body;
mod blocks;
mod convert;
mod core;
mod dispatch;
mod escape;
mod harmony;
mod hermes;
mod json;
mod mistral;
mod qwen_xml;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::{EndReason, Event, ParserOptions, XmlParser};
use blocks::BlockParser;
use harmony::HarmonyParser;

/// A tool-call text format: how a model family writes calls in its reply.
///
/// ```
/// use tool_core::parse::ToolFormat;
/// assert_eq!(ToolFormat::ALL.len(), 5);
/// assert_eq!(ToolFormat::QwenXml.name(), "qwen_xml");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolFormat {
    /// `<use_tool>` (this crate's XML prompt format).
    UseTool,
    /// Hermes / Qwen2.5 / Qwen3: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.
    Hermes,
    /// Qwen3-Coder: `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>`.
    QwenXml,
    /// Mistral: `[TOOL_CALLS] [{...}]` or `[TOOL_CALLS]NAME[ARGS]{...}`.
    Mistral,
    /// gpt-oss harmony: `<|channel|>commentary to=functions.NAME ...<|message|>{...}<|call|>`.
    Harmony,
}

impl ToolFormat {
    /// Every format.
    pub const ALL: [ToolFormat; 5] = [
        ToolFormat::UseTool,
        ToolFormat::Hermes,
        ToolFormat::QwenXml,
        ToolFormat::Mistral,
        ToolFormat::Harmony,
    ];

    /// A short lower-case name (`"use_tool"`, `"hermes"`, `"qwen_xml"`, `"mistral"`,
    /// `"harmony"`).
    ///
    /// ```
    /// assert_eq!(tool_core::parse::ToolFormat::Harmony.name(), "harmony");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ToolFormat::UseTool => "use_tool",
            ToolFormat::Hermes => "hermes",
            ToolFormat::QwenXml => "qwen_xml",
            ToolFormat::Mistral => "mistral",
            ToolFormat::Harmony => "harmony",
        }
    }

    /// Guesses the format from the start of a reply (or any text that holds a call): the
    /// first marker found decides; `None` when there is none yet. `<tool_call>` followed by
    /// `<function=` is Qwen3-Coder, by anything else Hermes.
    ///
    /// ```
    /// use tool_core::parse::ToolFormat;
    /// assert_eq!(ToolFormat::detect("Sure.\n<tool_call>\n<function=f>"), Some(ToolFormat::QwenXml));
    /// assert_eq!(ToolFormat::detect("[TOOL_CALLS]f[ARGS]{}"), Some(ToolFormat::Mistral));
    /// assert_eq!(ToolFormat::detect("plain prose"), None);
    /// ```
    pub fn detect(text: &str) -> Option<ToolFormat> {
        let markers: [(&str, ToolFormat); 6] = [
            ("<use_tool>", ToolFormat::UseTool),
            ("<tool_call>", ToolFormat::Hermes),
            ("[TOOL_CALLS]", ToolFormat::Mistral),
            ("<|channel|>", ToolFormat::Harmony),
            ("<|start|>", ToolFormat::Harmony),
            ("<|message|>", ToolFormat::Harmony),
        ];
        let (at, format, marker) = markers
            .iter()
            .filter_map(|(m, f)| text.find(m).map(|at| (at, *f, *m)))
            .min_by_key(|(at, _, _)| *at)?;
        if format == ToolFormat::Hermes {
            let after = text
                .get(at + marker.len()..)
                .unwrap_or_default()
                .trim_start();
            if after.starts_with("<function=") {
                return Some(ToolFormat::QwenXml);
            }
        }
        Some(format)
    }

    /// The marker that opens a call block (block formats only).
    fn opener(self) -> &'static [u8] {
        match self {
            ToolFormat::Mistral => mistral::OPEN,
            ToolFormat::QwenXml => qwen_xml::OPEN,
            _ => hermes::OPEN,
        }
    }

    /// A call written in this format, for messages that tell the model how to write one.
    ///
    /// ```
    /// assert!(tool_core::parse::ToolFormat::Mistral.example().starts_with("[TOOL_CALLS]"));
    /// ```
    pub fn example(self) -> &'static str {
        match self {
            ToolFormat::UseTool => {
                "<use_tool><tool_name>NAME</tool_name><arguments>{...}</arguments></use_tool>"
            }
            ToolFormat::Hermes => hermes::EXAMPLE,
            ToolFormat::QwenXml => qwen_xml::EXAMPLE,
            ToolFormat::Mistral => mistral::EXAMPLE,
            ToolFormat::Harmony => harmony::EXAMPLE,
        }
    }

    fn call_noun(self) -> &'static str {
        match self {
            ToolFormat::Mistral => "a [TOOL_CALLS] call",
            _ => "a <tool_call> block",
        }
    }
}

/// Settings for a [`FormatParser`].
///
/// ```
/// use tool_core::parse::FormatOptions;
/// let options = FormatOptions { known_tools: Some(vec!["search".into()]), ..FormatOptions::default() };
/// assert_eq!(options.id_prefix, "call_");
/// ```
#[derive(Debug, Clone)]
pub struct FormatOptions {
    /// Run calls that appear inside a markdown code fence (off by default: an example).
    pub run_fenced_calls: bool,
    /// Call ids are this prefix followed by the call index (`"call_0"`).
    pub id_prefix: String,
    /// Known tool names: a call to any other name is a `NOT_FOUND` error with a suggestion.
    pub known_tools: Option<Vec<String>>,
    /// Each tool's input schema, by name: Qwen3-Coder's untyped parameter values are
    /// converted with it (`"5"` for an integer is `5`). Without one, values stay strings.
    pub schemas: Option<Arc<HashMap<String, Arc<Value>>>>,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            run_fenced_calls: false,
            id_prefix: "call_".to_string(),
            known_tools: None,
            schemas: None,
        }
    }
}

impl FormatOptions {
    fn schema(&self, tool: &str) -> Option<&Value> {
        self.schemas.as_ref()?.get(tool).map(|s| &**s)
    }
}

/// A streaming parser of tool calls in a model's text reply: what a text-mode runner needs
/// from any format. [`XmlParser`] and [`FormatParser`] implement it.
///
/// ```
/// use tool_core::parse::{EndReason, Event, FormatParser, TextCallParser, ToolFormat, XmlParser};
/// fn calls(parser: &mut dyn TextCallParser, reply: &str) -> usize {
///     let mut out = Vec::new();
///     parser.feed(reply, &mut out);
///     parser.finish(EndReason::Stop, &mut out);
///     out.iter().filter(|e| matches!(e, Event::CallComplete { .. })).count()
/// }
/// assert_eq!(calls(&mut XmlParser::new(), "<use_tool><tool_name>a</tool_name></use_tool>"), 1);
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

impl TextCallParser for XmlParser {
    fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        XmlParser::feed(self, chunk, out);
    }

    fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        XmlParser::feed_bytes(self, bytes, out);
    }

    fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        XmlParser::finish(self, reason, out);
    }
}

#[derive(Debug)]
enum Inner {
    UseTool(XmlParser),
    Blocks(BlockParser),
    Harmony(HarmonyParser),
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
    inner: Inner,
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
    /// let _ = FormatParser::with_options(ToolFormat::Hermes, FormatOptions { run_fenced_calls: true, ..Default::default() });
    /// ```
    pub fn with_options(format: ToolFormat, options: FormatOptions) -> Self {
        let inner = match format {
            ToolFormat::UseTool => Inner::UseTool(XmlParser::with_options(ParserOptions {
                run_fenced_calls: options.run_fenced_calls,
                id_prefix: options.id_prefix,
                known_tools: options.known_tools,
            })),
            ToolFormat::Harmony => Inner::Harmony(HarmonyParser::new(options)),
            _ => Inner::Blocks(BlockParser::new(format, options)),
        };
        FormatParser { format, inner }
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
        match &mut self.inner {
            Inner::UseTool(p) => p.feed(chunk, out),
            Inner::Blocks(p) => p.feed(chunk, out),
            Inner::Harmony(p) => p.feed(chunk, out),
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
        match &mut self.inner {
            Inner::UseTool(p) => p.feed_bytes(bytes, out),
            Inner::Blocks(p) => p.feed_bytes(bytes, out),
            Inner::Harmony(p) => p.feed_bytes(bytes, out),
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
        match &mut self.inner {
            Inner::UseTool(p) => p.finish(reason, out),
            Inner::Blocks(p) => p.finish(reason, out),
            Inner::Harmony(p) => p.finish(reason, out),
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
                ToolFormat::QwenXml,
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
