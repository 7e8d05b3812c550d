//! gpt-oss harmony: messages framed by special tokens. A message whose header names a
//! recipient is a call:
//! `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>`.
//! Other messages are text: the `analysis` channel is reported as [`Event::Reasoning`], the
//! `final` and `commentary` channels (and text outside any message) as [`Event::Text`], and the
//! framing (headers, `<|end|>`, `<|return|>`) as [`Event::Markup`].

use crate::parse::event::{DiagnosticKind, EndReason, Event};
use crate::parse::formats::core::{Core, Parsed, Stream};
use crate::parse::formats::options::FormatOptions;
use crate::parse::json_scan::ArgScan;
use crate::parse::prose;
use crate::parse::repair;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::TextChunk;
use crate::parse::utf8::{self, Carry, Utf8Sink};
use crate::response::{ToolErrorCode, ToolResponse};

pub(super) const EXAMPLE: &str =
    "<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>";
/// Header openers (0, 1), the header's end (2), message ends (3, 4, 5), others (6, 7).
const TOKENS: &[&[u8]] = &[
    b"<|start|>",
    b"<|channel|>",
    b"<|message|>",
    b"<|end|>",
    b"<|return|>",
    b"<|call|>",
    b"<|constrain|>",
    b"<|endoftext|>",
];
const CALL_END: &[&[u8]] = &[b"<|call|>", b"<|end|>", b"<|return|>"];
/// A header longer than this is not one: it is emitted as markup and the text goes on.
const MAX_HEADER: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Content,
    Header,
    Call,
}

#[derive(Debug)]
struct OpenCall {
    index: usize,
    start: usize,
    name: String,
    /// Addressed to one of the model's built-in tools (`browser.search`, `python`), not to
    /// one of ours: reported, never run.
    builtin: bool,
    scan: ArgScan,
    /// Where the arguments start in the reply: the scanner's bytes sit at consecutive offsets
    /// from here.
    args_start: usize,
    sent: usize,
}

#[derive(Debug)]
pub(crate) struct HarmonyParser {
    core: Core,
    state: State,
    /// Where message content goes: the user's text, or reasoning.
    stream: Stream,
    tag: TagBuf,
    tag_at: usize,
    header: String,
    header_at: usize,
    call: Option<OpenCall>,
    utf8: Carry,
}

impl HarmonyParser {
    pub(crate) fn new(options: FormatOptions) -> Self {
        HarmonyParser {
            core: Core::new(options),
            state: State::Content,
            stream: Stream::Text,
            tag: TagBuf::default(),
            tag_at: 0,
            header: String::new(),
            header_at: 0,
            call: None,
            utf8: Carry::default(),
        }
    }

    pub(crate) fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        if chunk.is_empty() {
            // Nothing to report (the fast paths below would report an empty delta); the byte
            // front end feeds empty text around an invalid sequence.
            return;
        }
        self.core.out_start = out.len();
        let mut i = 0;
        if self.state == State::Content && self.tag.is_empty() {
            // A chunk of message text with no token in it skips the loop.
            let run = prose::scan(chunk.as_bytes());
            let (text, _) = chunk.split_at_checked(run.len).unwrap_or((chunk, ""));
            self.core.emit_first(self.stream, text, run.plain, out);
            if !run.at_lt {
                self.core.offset += chunk.len();
                return;
            }
            i = run.len;
        } else if self.state == State::Call && self.tag.is_empty() {
            if let Some(call) = self.call.as_mut() {
                // A chunk of plain argument content skips the loop, and the delta is the chunk
                // itself (every feed ends with the arguments fully reported). The scanner
                // stops only before a `<` outside a string, changing nothing for it.
                i = call.scan.scan(chunk);
                if i == chunk.len() {
                    debug_assert_eq!(call.sent + i, call.scan.raw.len());
                    let at = call.args_start + call.sent;
                    call.sent += i;
                    out.push(Event::ArgumentsDelta {
                        index: call.index,
                        delta: TextChunk::at(chunk, at),
                    });
                    self.core.offset += chunk.len();
                    return;
                }
            }
        }
        while i < chunk.len() {
            i = match self.state {
                State::Content => self.step_content(chunk, i, out),
                State::Header => self.step_header(chunk, i, out),
                State::Call => self.step_call(chunk, i, out),
            };
        }
        self.flush_delta(out);
        self.core.offset += chunk.len();
    }

    pub(crate) fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        utf8::feed_bytes(self, bytes, out);
    }

    pub(crate) fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.core.out_start = out.len();
        utf8::finish(self, out);
        let pending = std::mem::take(&mut self.tag);
        if pending.len() > 1 {
            self.core.diagnose(
                None,
                DiagnosticKind::TruncatedTag,
                format!("the reply ended inside the token {:?}", pending.as_str()),
                out,
            );
        }
        match self.state {
            State::Content => self.core.emit(self.stream, pending.as_str(), out),
            State::Header => {
                let mut header = std::mem::take(&mut self.header);
                header.push_str(pending.as_str());
                self.core.emit(Stream::Markup, &header, out);
            }
            State::Call => {
                if let Some(call) = self.call.as_mut() {
                    if !pending.is_empty() {
                        call.scan.absorb(pending.as_str());
                    }
                }
                self.flush_delta(out);
                if let Some(call) = self.call.take() {
                    let end = self.core.offset;
                    let span = call.start..end;
                    if reason != EndReason::Stop {
                        self.core.incomplete(
                            call.index,
                            Some(call.name),
                            "a harmony call",
                            span,
                            out,
                        );
                    } else if call.scan.value_complete() {
                        self.core.diagnose(
                            Some(call.index),
                            DiagnosticKind::MissingCallEnd,
                            "the reply ended before <|call|>; the call was complete".to_string(),
                            out,
                        );
                        self.close(call, end, out);
                    } else {
                        let parsed = Parsed::invalid(
                            Some(call.name),
                            format!(
                                "The tool call could not be read: your reply ended inside its \
                                 arguments. Write it as {EXAMPLE}."
                            ),
                        );
                        self.core.end_call(call.index, span, parsed, EXAMPLE, out);
                    }
                }
            }
        }
        let options = std::mem::take(&mut self.core.options);
        *self = HarmonyParser::new(options);
    }

    fn step_content(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if self.tag.is_empty() {
            let p = prose::find(rest.as_bytes(), b'<');
            self.core
                .emit(self.stream, rest.get(..p).unwrap_or_default(), out);
            if p == rest.len() {
                return chunk.len();
            }
            self.tag_at = self.core.offset + i + p;
            self.tag.push(b'<', TOKENS);
            return i + p + 1;
        }
        let b = rest.as_bytes().first().copied().unwrap_or_default();
        match self.tag.push(b, TOKENS) {
            Step::Partial => i + 1,
            Step::Mismatch => {
                let pending = std::mem::take(&mut self.tag);
                self.core.emit(self.stream, pending.as_str(), out);
                i
            }
            Step::Full(k) => {
                let token = std::mem::take(&mut self.tag);
                if self.stream == Stream::Text
                    && self.core.fence.inside
                    && !self.core.options.run_fenced_calls
                {
                    // Tokens shown in a code fence are an example: all of them stay text.
                    if k <= 1 {
                        self.core.diagnose(
                            None,
                            DiagnosticKind::CallInCodeFence,
                            "a harmony message header inside a code fence was shown as text"
                                .to_string(),
                            out,
                        );
                    }
                    self.core.emit(Stream::Text, token.as_str(), out);
                    return i + 1;
                }
                if k <= 1 {
                    self.header.clear();
                    self.header.push_str(token.as_str());
                    self.header_at = self.tag_at;
                    self.state = State::Header;
                } else {
                    if matches!(k, 3..=5 | 7) {
                        // The message ended: what follows is outside any channel.
                        self.stream = Stream::Text;
                    }
                    self.core.emit(Stream::Markup, token.as_str(), out);
                }
                i + 1
            }
        }
    }

    fn step_header(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if self.tag.is_empty() {
            let p = memchr::memchr(b'<', rest.as_bytes()).unwrap_or(rest.len());
            let room = MAX_HEADER.saturating_sub(self.header.len());
            if p > room {
                // Not a header: give it up at the same stream offset however the reply was
                // chunked (the first character that would pass the limit), as markup.
                let mut cut = room;
                while !rest.is_char_boundary(cut) {
                    cut -= 1;
                }
                self.header.push_str(rest.get(..cut).unwrap_or_default());
                let header = std::mem::take(&mut self.header);
                self.core.emit(Stream::Markup, &header, out);
                self.state = State::Content;
                return i + cut;
            }
            self.header.push_str(rest.get(..p).unwrap_or_default());
            if p < rest.len() {
                self.tag.push(b'<', TOKENS);
                return i + p + 1;
            }
            return chunk.len();
        }
        let b = rest.as_bytes().first().copied().unwrap_or_default();
        match self.tag.push(b, TOKENS) {
            Step::Partial => i + 1,
            Step::Mismatch => {
                let pending = std::mem::take(&mut self.tag);
                self.header.push_str(pending.as_str());
                i
            }
            Step::Full(2) => {
                let token = std::mem::take(&mut self.tag);
                self.header.push_str(token.as_str());
                self.open_message(self.core.offset + i + 1, out);
                i + 1
            }
            Step::Full(3..=5 | 7) => {
                // A message end inside a header: the header was not one.
                let token = std::mem::take(&mut self.tag);
                let mut header = std::mem::take(&mut self.header);
                header.push_str(token.as_str());
                self.core.emit(Stream::Markup, &header, out);
                self.stream = Stream::Text;
                self.state = State::Content;
                i + 1
            }
            Step::Full(_) => {
                let token = std::mem::take(&mut self.tag);
                self.header.push_str(token.as_str());
                i + 1
            }
        }
    }

    /// The header is complete: a recipient makes the message a call, otherwise its channel
    /// says where the content goes.
    /// `end` is where the header ends in the reply.
    fn open_message(&mut self, end: usize, out: &mut Vec<Event>) {
        let header = std::mem::take(&mut self.header);
        let recipient = header
            .split(|c: char| c.is_whitespace() || c == '<')
            .find_map(|w| w.strip_prefix("to="))
            .filter(|r| !r.is_empty() && *r != "assistant");
        if let Some(recipient) = recipient {
            let (name, builtin) = match recipient.strip_prefix("functions.") {
                Some(name) => (name, false),
                None => (recipient, is_builtin(recipient)),
            };
            let name = name.to_string();
            let index = self.core.start_call(out);
            out.push(Event::Name {
                index,
                name: name.clone(),
            });
            self.call = Some(OpenCall {
                index,
                start: self.header_at,
                name,
                builtin,
                scan: ArgScan::new(),
                args_start: end,
                sent: 0,
            });
            self.state = State::Call;
            return;
        }
        let channel = header
            .split("<|channel|>")
            .nth(1)
            .and_then(|c| c.split(|ch: char| ch.is_whitespace() || ch == '<').next())
            .unwrap_or_default();
        self.stream = if channel == "analysis" {
            Stream::Reasoning
        } else {
            Stream::Text
        };
        self.core.emit(Stream::Markup, &header, out);
        self.state = State::Content;
    }

    fn step_call(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        let Some(call) = self.call.as_mut() else {
            self.state = State::Content;
            return i;
        };
        if !self.tag.is_empty() {
            let b = rest.as_bytes().first().copied().unwrap_or_default();
            match self.tag.push(b, CALL_END) {
                Step::Partial => return i + 1,
                Step::Full(_) => {
                    self.tag.clear();
                    self.flush_delta(out);
                    if let Some(call) = self.call.take() {
                        self.close(call, self.core.offset + i + 1, out);
                    }
                    self.state = State::Content;
                    self.stream = Stream::Text;
                    return i + 1;
                }
                Step::Mismatch => {
                    let pending = std::mem::take(&mut self.tag);
                    call.scan.absorb(pending.as_str());
                }
            }
        }
        let n = call.scan.scan(rest);
        if n < rest.len() {
            self.tag.push(b'<', CALL_END);
            return i + n + 1;
        }
        chunk.len()
    }

    fn close(&mut self, call: OpenCall, end: usize, out: &mut Vec<Event>) {
        if call.builtin {
            // Not ours: its result goes back under its own recipient, saying so.
            let message = format!(
                "'{}' is one of the model's built-in tools, which this application does not \
                 provide; it was not run. Call one of the functions instead.{}",
                call.name,
                self.core.listed_tools()
            );
            self.core.reported_to(end);
            out.push(Event::CallError {
                index: call.index,
                id: self.core.id(call.index),
                name: Some(call.name),
                response: Box::new(ToolResponse::error(ToolErrorCode::NotFound, message)),
                span: call.start..end,
            });
            return;
        }
        let outcome = repair::finish(call.scan, &call.name);
        // The shared JSON messages speak of `<arguments>`, which harmony does not have.
        let result = outcome.result.map_err(|response| {
            let message = response
                .error_message()
                .unwrap_or_default()
                .replace("The <arguments> for", "The arguments for");
            let code = response
                .error_code()
                .unwrap_or(ToolErrorCode::InvalidFormat);
            ToolResponse::error(code, message)
        });
        let parsed = Parsed {
            name: Some(call.name),
            result,
            repairs: outcome.repairs,
        };
        self.core
            .end_call(call.index, call.start..end, parsed, EXAMPLE, out);
    }

    fn flush_delta(&mut self, out: &mut Vec<Event>) {
        let Some(call) = self.call.as_mut() else {
            return;
        };
        if call.sent < call.scan.raw.len() {
            let delta = TextChunk::at(
                call.scan.raw.get(call.sent..).unwrap_or_default(),
                call.args_start + call.sent,
            );
            call.sent = call.scan.raw.len();
            out.push(Event::ArgumentsDelta {
                index: call.index,
                delta,
            });
        }
    }
}

/// Whether a recipient outside `functions.` is one of gpt-oss's built-in tools: a namespaced
/// name (`browser.search`, `container.exec`) or `python`. A bare name is read as a function
/// whose `functions.` the model left out.
fn is_builtin(recipient: &str) -> bool {
    recipient.contains('.') || recipient == "python"
}

impl Utf8Sink for HarmonyParser {
    fn carry(&mut self) -> &mut Carry {
        &mut self.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        self.feed(text, out);
    }
}
