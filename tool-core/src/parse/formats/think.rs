//! Reasoning apart from text for the formats whose models think in a `<think>...</think>`
//! section at the start of the reply (DeepSeek R1, GLM, MiniMax-M2, Kimi K2 Thinking, Qwen3).
//!
//! The splitter sits in front of the format's own parser: the `<think>` and `</think>` tags are
//! [`Event::Markup`], what lies between them [`Event::Reasoning`], and everything after
//! `</think>` (or the whole reply, when it does not open with `<think>`) goes to the format's
//! parser. Only the leading section counts, as in the chat templates: a `<think>` later in
//! the reply is the format's text. When the chat template opens `<think>` in the generation
//! prompt ([`FormatOptions::start_in_reasoning`](super::FormatOptions::start_in_reasoning)),
//! the reply starts inside it and runs to `</think>`.
//!
//! A format may name a special token that ends the reasoning on its own
//! ([`FormatSpec::reasoning_ends_at`](super::spec::FormatSpec::reasoning_ends_at)): Kimi K2
//! Thinking opens its tool section inside `<think>` without closing it, and a special token
//! cannot be part of a thought; the token and all after it are then the format's.
//!
//! Each byte is looked at once (prose is skipped with `memchr` for `<`); a tag cut across
//! chunks is held back until it is known, so a reply can be cut anywhere.

use super::core::Stream;
use crate::parse::event::Event;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::TextChunk;

const OPEN: &[u8] = b"<think>";
const CLOSE: &[u8] = b"</think>";
/// Whitespace before `<think>` is held back (as text) up to this many bytes; a reply that
/// opens with more is not a thinking reply.
const MAX_LEADING_SPACE: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the start of the reply: whitespace, then `<think>` or the answer.
    Start,
    /// Inside the `<think>` section.
    Reasoning,
    /// After it (or without one): everything is the format's.
    Done,
}

/// What the splitter passes on to the format's parser from one chunk.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Handoff<'a> {
    /// Nothing (the chunk was reasoning, or is held back).
    Nothing,
    /// The rest of the chunk from this byte on.
    Rest(&'a str),
    /// Bytes held back from earlier chunks followed by the rest of this one (once per reply).
    Held(String),
}

/// The leading `<think>` section's splitter. See the module docs.
#[derive(Debug, Clone)]
pub(crate) struct Think {
    start_in_reasoning: bool,
    /// `CLOSE`, `OPEN` and the format's token that ends the reasoning (handed on, not markup).
    in_reasoning: [&'static [u8]; 3],
    state: State,
    tag: TagBuf,
    /// Whitespace held back at the start, before `<think>` is known or ruled out.
    space: String,
    /// Bytes taken by the splitter: the offset of the format parser's first byte once done.
    taken: usize,
    /// Whether any reasoning text has been seen (a `<think>` after it is reasoning).
    reasoned: bool,
}

impl Think {
    /// `ends_at`: a token that ends the reasoning and starts the format's input (`&[]`: none).
    pub(crate) fn new(start_in_reasoning: bool, ends_at: &'static [u8]) -> Self {
        Think {
            start_in_reasoning,
            in_reasoning: [CLOSE, OPEN, ends_at],
            state: if start_in_reasoning {
                State::Reasoning
            } else {
                State::Start
            },
            tag: TagBuf::default(),
            space: String::new(),
            taken: 0,
            reasoned: false,
        }
    }

    /// Whether the section is over: every later byte is the format's.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.state == State::Done
    }

    /// Where the format parser's input starts in the reply: add it to the spans it reports.
    pub(crate) fn shift(&self) -> usize {
        self.taken
    }

    /// Reads `chunk`, reporting reasoning and tags to `out`, and says what the format's
    /// parser gets.
    pub(crate) fn split<'a>(&mut self, chunk: &'a str, out: &mut Vec<Event>) -> Handoff<'a> {
        let out_start = out.len();
        let mut i = 0;
        while i < chunk.len() {
            let rest = chunk.get(i..).unwrap_or_default();
            match self.state {
                State::Done => {
                    return if self.space.is_empty() && self.tag.is_empty() {
                        Handoff::Rest(rest)
                    } else {
                        Handoff::Held(self.release() + rest)
                    };
                }
                State::Start => i += self.step_start(rest, out, out_start),
                State::Reasoning => i += self.step_reasoning(rest, out, out_start),
            }
        }
        if self.state == State::Done && !(self.space.is_empty() && self.tag.is_empty()) {
            return Handoff::Held(self.release());
        }
        Handoff::Nothing
    }

    /// Ends the reply: what was held back goes to the format's parser (still at the start) or
    /// is reasoning (inside the section). The splitter is reset.
    pub(crate) fn finish(&mut self, out: &mut Vec<Event>) -> Option<String> {
        let held = match self.state {
            State::Reasoning => {
                let pending = std::mem::take(&mut self.tag);
                push(
                    out,
                    out.len(),
                    Stream::Reasoning,
                    pending.as_str(),
                    self.taken,
                );
                None
            }
            _ => {
                let held = self.release();
                (!held.is_empty()).then_some(held)
            }
        };
        *self = Think::new(self.start_in_reasoning, self.in_reasoning[2]);
        held
    }

    /// The held-back start of the reply (whitespace and a partial tag), which is then the
    /// format's.
    fn release(&mut self) -> String {
        let mut held = std::mem::take(&mut self.space);
        held.push_str(std::mem::take(&mut self.tag).as_str());
        held
    }

    /// One step at the start of the reply; returns the bytes consumed.
    fn step_start(&mut self, rest: &str, out: &mut Vec<Event>, out_start: usize) -> usize {
        let Some(&b) = rest.as_bytes().first() else {
            return 0;
        };
        if self.tag.is_empty() && b.is_ascii_whitespace() {
            if self.space.len() >= MAX_LEADING_SPACE {
                self.state = State::Done;
                return 0;
            }
            let n = rest
                .bytes()
                .take_while(u8::is_ascii_whitespace)
                .count()
                .min(MAX_LEADING_SPACE - self.space.len())
                .max(1);
            self.space.push_str(rest.get(..n).unwrap_or_default());
            return n;
        }
        match self.tag.push(b, &[OPEN]) {
            Step::Partial => 1,
            Step::Full(_) => {
                // The whitespace before the tag is the reply's text, the tag is markup.
                let space = std::mem::take(&mut self.space);
                let at = self.taken;
                push(out, out_start, Stream::Text, &space, at);
                push(
                    out,
                    out_start,
                    Stream::Markup,
                    self.tag.as_str(),
                    at + space.len(),
                );
                self.taken += space.len() + self.tag.len();
                self.tag.clear();
                self.state = State::Reasoning;
                1
            }
            Step::Mismatch => {
                // Not a thinking reply: all of it, held bytes included, is the format's.
                self.state = State::Done;
                0
            }
        }
    }

    /// One step inside the section; returns the bytes consumed.
    fn step_reasoning(&mut self, rest: &str, out: &mut Vec<Event>, out_start: usize) -> usize {
        if self.tag.is_empty() {
            let p = memchr::memchr(b'<', rest.as_bytes()).unwrap_or(rest.len());
            let text = rest.get(..p).unwrap_or_default();
            self.reason(text, out, out_start);
            if p == rest.len() {
                return p;
            }
            self.tag.push(b'<', &self.in_reasoning);
            return p + 1;
        }
        // A whole character at a time: the format's token may hold non-ASCII characters
        // (DeepSeek's `<｜DSML｜tool_calls>`), and the next step must start on a character.
        let n = rest.chars().next().map_or(0, char::len_utf8);
        let Some(c) = rest.as_bytes().get(..n).filter(|c| !c.is_empty()) else {
            return 0;
        };
        match self.tag.push_char(c, &self.in_reasoning) {
            Step::Partial => n,
            Step::Full(0) => {
                push(out, out_start, Stream::Markup, CLOSE_STR, self.taken);
                self.taken += CLOSE.len();
                self.tag.clear();
                self.state = State::Done;
                n
            }
            Step::Full(2) => {
                // The format's own token: the reasoning ends without `</think>`, and the
                // held token is the first input of the format's parser.
                self.state = State::Done;
                n
            }
            Step::Full(_) if !self.reasoned => {
                // A reply that repeats the `<think>` its template already opened.
                push(out, out_start, Stream::Markup, OPEN_STR, self.taken);
                self.taken += OPEN.len();
                self.tag.clear();
                n
            }
            Step::Full(_) | Step::Mismatch => {
                // Not the end tag: its bytes are reasoning; a mismatching character is read
                // again.
                let full = self.tag.len() == OPEN.len() && self.tag.as_str() == OPEN_STR;
                let pending = std::mem::take(&mut self.tag);
                self.reason(pending.as_str(), out, out_start);
                if full {
                    n
                } else {
                    0
                }
            }
        }
    }

    fn reason(&mut self, text: &str, out: &mut Vec<Event>, out_start: usize) {
        if !text.is_empty() {
            self.reasoned = true;
            push(out, out_start, Stream::Reasoning, text, self.taken);
            self.taken += text.len();
        }
    }
}

const OPEN_STR: &str = "<think>";
const CLOSE_STR: &str = "</think>";

/// Appends `text`, found at byte `start` of the reply, as an event of `kind`, merged into the
/// previous one of the same kind when that came from this chunk (`out_start` on).
fn push(out: &mut Vec<Event>, out_start: usize, kind: Stream, text: &str, start: usize) {
    if text.is_empty() {
        return;
    }
    if out.len() > out_start {
        match (out.last_mut(), kind) {
            (Some(Event::Text(last)), Stream::Text)
            | (Some(Event::Reasoning(last)), Stream::Reasoning)
            | (Some(Event::Markup(last)), Stream::Markup) => {
                last.push_str(text);
                return;
            }
            _ => {}
        }
    }
    let chunk = TextChunk::at(text, start);
    out.push(match kind {
        Stream::Text => Event::Text(chunk),
        Stream::Reasoning => Event::Reasoning(chunk),
        Stream::Markup => Event::Markup(chunk),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits `reply` fed in `size`-byte pieces (on char boundaries): the events of the
    /// splitter and what it handed on, in order.
    fn run(reply: &str, size: usize, start_in_reasoning: bool) -> (String, String, String) {
        let mut think = Think::new(start_in_reasoning, &[]);
        let mut out = Vec::new();
        let mut handed = String::new();
        let mut at = 0;
        while at < reply.len() {
            let mut end = (at + size).min(reply.len());
            while !reply.is_char_boundary(end) {
                end += 1;
            }
            match think.split(reply.get(at..end).unwrap_or_default(), &mut out) {
                Handoff::Nothing => {}
                Handoff::Rest(r) => handed.push_str(r),
                Handoff::Held(h) => handed.push_str(&h),
            }
            at = end;
        }
        if let Some(h) = think.finish(&mut out) {
            handed.push_str(&h);
        }
        let mut reasoning = String::new();
        let mut markup = String::new();
        for e in &out {
            match e {
                Event::Reasoning(t) => reasoning.push_str(t),
                Event::Markup(t) => markup.push_str(t),
                Event::Text(t) => handed.insert_str(0, t),
                _ => {}
            }
        }
        (reasoning, markup, handed)
    }

    #[test]
    fn the_leading_section_is_reasoning_cut_anywhere() {
        let cases: &[(&str, bool, &str, &str, &str)] = &[
            (
                "<think>\nLet me see: a<b.\n</think>\n\nThe answer.",
                false,
                "\nLet me see: a<b.\n",
                "<think></think>",
                "\n\nThe answer.",
            ),
            ("  <think>x</think>y", false, "x", "<think></think>", "  y"),
            (
                "No thinking <think>here</think>",
                false,
                "",
                "",
                "No thinking <think>here</think>",
            ),
            ("<thinking>", false, "", "", "<thinking>"),
            ("<thi", false, "", "", "<thi"),
            (" \n", false, "", "", " \n"),
            (
                "plan </thin</think>go",
                true,
                "plan </thin",
                "</think>",
                "go",
            ),
            (
                "<think>plan</think>go",
                true,
                "plan",
                "<think></think>",
                "go",
            ),
            ("a<think>b</think>c", true, "a<think>b", "</think>", "c"),
            ("still thinking <", true, "still thinking <", "", ""),
            (
                "<think>日本</think>語",
                false,
                "日本",
                "<think></think>",
                "語",
            ),
        ];
        for &(reply, start, reasoning, markup, rest) in cases {
            for size in 1..=reply.len() {
                let got = run(reply, size, start);
                assert_eq!(
                    got,
                    (reasoning.to_string(), markup.to_string(), rest.to_string()),
                    "{reply:?} in {size}-byte pieces"
                );
            }
        }
    }

    #[test]
    fn the_shift_is_the_length_of_the_section() {
        let mut think = Think::new(false, &[]);
        let mut out = Vec::new();
        let reply = " <think>ab</think>tail";
        assert_eq!(think.split(reply, &mut out), Handoff::Rest("tail"));
        assert_eq!(think.shift(), reply.len() - "tail".len());
        assert!(think.done());
    }

    /// Rebuilds the reply from the events: text, reasoning and markup in order, calls by span.
    fn rebuild(reply: &str, events: &[Event]) -> String {
        let mut out = String::new();
        for e in events {
            match e {
                Event::Text(t) | Event::Reasoning(t) | Event::Markup(t) => out.push_str(t),
                Event::ArgumentsDelta { .. } => {}
                _ => {
                    if let Some(span) = e.span() {
                        out.push_str(reply.get(span).unwrap_or("<bad span>"));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_call_after_the_section_keeps_its_span_cut_at_any_two_bytes() {
        use crate::parse::{EndReason, FormatOptions, FormatParser, ToolFormat};
        let call = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich\"}}\n</tool_call>";
        for (start, reply) in [
            (true, format!("Need the wéather.</think>\n\n{call}")),
            (
                false,
                format!("\n<think>Need the wéather.</think>\n\n{call}"),
            ),
        ] {
            let options = FormatOptions::default().with_start_in_reasoning(start);
            let bytes = reply.as_bytes();
            for a in 0..=bytes.len() {
                for b in a..=bytes.len() {
                    let mut parser =
                        FormatParser::with_options(ToolFormat::Hermes, options.clone());
                    let mut out = Vec::new();
                    for piece in [&bytes[..a], &bytes[a..b], &bytes[b..]] {
                        parser.feed_bytes(piece, &mut out);
                    }
                    parser.finish(EndReason::Stop, &mut out);
                    assert_eq!(rebuild(&reply, &out), reply, "cut at {a}, {b}: {out:?}");
                    let reasoning: String = out
                        .iter()
                        .filter_map(|e| match e {
                            Event::Reasoning(t) => Some(t.as_str()),
                            _ => None,
                        })
                        .collect();
                    assert_eq!(
                        reasoning, "Need the wéather.",
                        "{start} cut at {a}, {b}: {out:?}"
                    );
                    let spans: Vec<_> = out
                        .iter()
                        .filter_map(|e| match e {
                            Event::CallComplete { span, call, .. } => {
                                Some((reply.get(span.clone()), call.name.as_str()))
                            }
                            _ => None,
                        })
                        .collect();
                    assert_eq!(spans, [(Some(call), "get_weather")], "cut at {a}, {b}");
                }
            }
        }
    }

    /// Kimi K2 Thinking opens its tool section inside `<think>`: the section's token ends the
    /// reasoning and is the format's, cut anywhere.
    #[test]
    fn a_token_that_ends_the_reasoning_is_handed_on() {
        const TOKEN: &[u8] = b"<|tool_calls_section_begin|>";
        let reply = "<think>Let me read it <|tool_calls| a<b<|tool_calls_section_begin|>X";
        for size in [1, 2, 3, 5, 64] {
            let mut think = Think::new(false, TOKEN);
            let mut out = Vec::new();
            let mut handed = String::new();
            let mut at = 0;
            while at < reply.len() {
                let end = (at + size).min(reply.len());
                match think.split(reply.get(at..end).unwrap_or_default(), &mut out) {
                    Handoff::Nothing => {}
                    Handoff::Rest(r) => handed.push_str(r),
                    Handoff::Held(h) => handed.push_str(&h),
                }
                at = end;
            }
            let reasoning: String = out
                .iter()
                .filter_map(|e| match e {
                    Event::Reasoning(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(reasoning, "Let me read it <|tool_calls| a<b", "size {size}");
            assert_eq!(handed, "<|tool_calls_section_begin|>X", "size {size}");
            assert_eq!(
                think.shift(),
                "<think>Let me read it <|tool_calls| a<b".len()
            );
        }
    }
}
