//! What the text-format parsers report: [`Event`], [`Diagnostic`], [`EndReason`].

use std::ops::Range;

use crate::call::ToolCall;
use crate::response::ToolResponse;

use super::text_chunk::TextChunk;

/// Why the model's reply ended, as the provider reported it.
///
/// ```
/// use tool_core::parse::{EndReason, Event, UseToolParser};
/// let mut events = Vec::new();
/// let mut parser = UseToolParser::new();
/// parser.feed("<use_tool><tool_name>a</tool_name><arguments>{\"x\":", &mut events);
/// parser.finish(EndReason::Length, &mut events);
/// assert!(events.iter().any(|e| matches!(e, Event::CallIncomplete { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The model finished (or hit a stop sequence such as `</use_tool>`).
    Stop,
    /// The model ran out of tokens: an open call is never run.
    Length,
    /// Anything else (content filter, cancellation): an open call is never run.
    Other,
}

/// What kind of repair or oddity a [`Diagnostic`] reports.
///
/// ```
/// use tool_core::parse::DiagnosticKind;
/// assert_ne!(DiagnosticKind::TrailingJunk, DiagnosticKind::CodeFenceAroundArguments);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// Raw control characters inside JSON strings were escaped.
    ControlCharactersEscaped,
    /// A ```` ```json ```` fence around the arguments object was removed.
    CodeFenceAroundArguments,
    /// Text after the complete arguments value was dropped.
    TrailingJunk,
    /// The arguments were a JSON string holding the object; it was decoded once.
    DoubleEncodedArguments,
    /// `</arguments>` was missing but the JSON was complete.
    MissingArgumentsClose,
    /// `</use_tool>` was missing at the end of the reply but the call was complete.
    MissingUseToolClose,
    /// `<arguments>` was empty or absent; the call gets `{}`.
    EmptyArguments,
    /// The alias `<name>` or `<argument>` was used.
    AliasTag,
    /// `<arguments>` came before `<tool_name>`; the call was read as written.
    ChildrenReversed,
    /// A `<use_tool>` block inside a markdown code fence was left as text, not run.
    CallInCodeFence,
    /// The reply ended inside a tag (e.g. `<use_to`); the bytes were emitted as text.
    TruncatedTag,
    /// A text format's end-of-call marker (`</tool_call>`, `<|call|>`) was missing at the end
    /// of the reply but the call was complete.
    MissingCallEnd,
    /// A Qwen3-Coder `<parameter=...>` value was not closed with `</parameter>`; it ended at
    /// the next parameter or at `</function>`.
    MissingParameterClose,
    /// Invalid UTF-8 given to a parser's `feed_bytes`
    /// was replaced by U+FFFD.
    InvalidUtf8,
}

/// A repair the parser made or something it noticed, for logs and UIs. Never silent.
///
/// ```
/// use tool_core::parse::{Diagnostic, DiagnosticKind};
/// let d = Diagnostic { call: Some(0), kind: DiagnosticKind::TrailingJunk, message: "dropped ' ok'".into() };
/// assert_eq!(d.call, Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The index of the call it concerns, if any.
    pub call: Option<usize>,
    /// What happened.
    pub kind: DiagnosticKind,
    /// A short human-readable explanation.
    pub message: String,
}

/// One thing the parser learned from the stream, in stream order.
///
/// Every event that stands for bytes of the reply has their byte range, [`span`](Self::span):
/// text, reasoning and markup (in their [`TextChunk`]), argument deltas, and the events that end
/// a call (its whole block). The spans of the text, reasoning, markup and call-ending events
/// tile the reply: in stream order, each starts where the previous one ended, from 0 to the
/// reply's length, and a text event's span holds exactly its text. An argument delta's span lies
/// inside its call block (in formats that put several calls in one block, the deltas are the
/// block's). `CallStarted`, `Name` and `Diagnostic` are about bytes other events
/// carry, so they have none.
///
/// ```
/// use tool_core::parse::{EndReason, Event, UseToolParser};
/// let events = UseToolParser::parse_all(
///     "Checking.\n<use_tool><tool_name>get_weather</tool_name><arguments>{\"city\":\"Paris\"}</arguments></use_tool>",
///     EndReason::Stop,
/// );
/// assert_eq!(events[0], Event::Text("Checking.\n".into()));
/// let call = events.iter().find_map(|e| match e { Event::CallComplete { call, .. } => Some(call), _ => None }).unwrap();
/// assert_eq!(call.arguments, r#"{"city":"Paris"}"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Prose to show the user, and where it is in the reply. Consecutive text within one
    /// `feed` is merged into one event.
    Text(TextChunk),
    /// A call began (for `<use_tool>`: the block followed by a child tag): a call is underway.
    CallStarted {
        /// 0-based call index within this reply.
        index: usize,
    },
    /// The call's name was read (`<tool_name>` closed, or the format's equivalent).
    Name {
        /// Call index.
        index: usize,
        /// The name, whitespace-trimmed.
        name: String,
    },
    /// Raw bytes of the call's arguments (or, for formats without a separate arguments part,
    /// of its body) as they arrive, for progress display, with where they are in the reply.
    ArgumentsDelta {
        /// Call index.
        index: usize,
        /// The new bytes.
        delta: TextChunk,
    },
    /// A well-formed call, ready to dispatch.
    CallComplete {
        /// Call index.
        index: usize,
        /// The call; `arguments` is the JSON object exactly as written unless a repair applied.
        call: ToolCall,
        /// When a repair changed the arguments, the bytes the model actually wrote.
        raw_arguments: Option<String>,
        /// Byte range of the call in the stream, its markers included.
        span: Range<usize>,
    },
    /// A call that cannot run; `response` is the `ERROR` to send back to the model.
    CallError {
        /// Call index.
        index: usize,
        /// The synthesized call id.
        id: String,
        /// The tool name, when one was given.
        name: Option<String>,
        /// `INVALID_FORMAT`, `INVALID_PARAM` or `NOT_FOUND`, with an instructive message.
        /// Boxed so that the frequent small events (text, deltas) stay small.
        response: Box<ToolResponse>,
        /// Byte range of the block in the stream.
        span: Range<usize>,
    },
    /// The reply ended (length limit or abort) while a call was open; it must not run.
    CallIncomplete {
        /// Call index.
        index: usize,
        /// The tool name, when it had been read.
        name: Option<String>,
        /// Why it is incomplete.
        reason: String,
        /// Byte range of the block in the stream (to the end of input).
        span: Range<usize>,
    },
    /// A repair or oddity.
    Diagnostic(Diagnostic),
    /// The model's reasoning (gpt-oss harmony's `analysis` channel, the leading
    /// `<think>...</think>` section of the thinking models): not for the user's answer, not a
    /// call. Only [`FormatParser`](crate::parse::FormatParser) reports it.
    Reasoning(TextChunk),
    /// A format's control text that is neither prose nor part of a call (harmony's
    /// `<|channel|>final<|message|>` headers and `<|end|>` markers, `<think>` and `</think>`), kept so that text,
    /// reasoning, markup and call spans still rebuild the input exactly.
    Markup(TextChunk),
}

impl Event {
    /// The text of a [`Event::Text`].
    ///
    /// ```
    /// assert_eq!(tool_core::parse::Event::Text("hi".into()).as_text(), Some("hi"));
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Event::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The event's byte range in the reply: where its text, reasoning, markup or argument
    /// delta was found, or a call-ending event's whole block. `None` for `CallStarted`, `Name`
    /// and `Diagnostic`, which carry no bytes of their own: a call's bytes are in the span of
    /// the event that ends it, its name among them.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
    /// let reply = "Hi.<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>";
    /// let events = FormatParser::parse_all(ToolFormat::Hermes, reply, EndReason::Stop);
    /// let spans: Vec<_> = events.iter().filter(|e| !matches!(e, Event::ArgumentsDelta { .. }))
    ///     .filter_map(Event::span).collect();
    /// assert_eq!(spans, [0..3, 3..reply.len()]);
    /// assert!(matches!(&events[1], Event::CallStarted { .. }) && events[1].span().is_none());
    /// ```
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            Event::CallComplete { span, .. }
            | Event::CallError { span, .. }
            | Event::CallIncomplete { span, .. } => Some(span.clone()),
            Event::Text(chunk)
            | Event::Reasoning(chunk)
            | Event::Markup(chunk)
            | Event::ArgumentsDelta { delta: chunk, .. } => Some(chunk.span()),
            Event::CallStarted { .. } | Event::Name { .. } | Event::Diagnostic(_) => None,
        }
    }
}

impl DiagnosticKind {
    /// Whether this diagnostic means the model's text was changed before use.
    ///
    /// ```
    /// use tool_core::parse::DiagnosticKind;
    /// assert!(DiagnosticKind::TrailingJunk.is_repair());
    /// assert!(!DiagnosticKind::CallInCodeFence.is_repair());
    /// ```
    pub fn is_repair(self) -> bool {
        matches!(
            self,
            DiagnosticKind::ControlCharactersEscaped
                | DiagnosticKind::CodeFenceAroundArguments
                | DiagnosticKind::TrailingJunk
                | DiagnosticKind::DoubleEncodedArguments
                | DiagnosticKind::MissingArgumentsClose
                | DiagnosticKind::MissingUseToolClose
                | DiagnosticKind::MissingCallEnd
                | DiagnosticKind::MissingParameterClose
                | DiagnosticKind::EmptyArguments
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_stay_small_because_the_error_response_is_boxed() {
        // The largest variant is a completed call: a `ToolCall` (id, name, arguments, the
        // caller and the namespace a provider names) plus the raw arguments and the span.
        assert!(
            std::mem::size_of::<Event>() <= 192,
            "{}",
            std::mem::size_of::<Event>()
        );
    }
}
