//! The engine for formats whose calls have no opening marker of their own: Llama 3.x's JSON
//! object (`{"name": ..., "parameters": {...}}`) and the pythonic list (`[f(a=1), g()]`) are
//! written straight into the prose, at most after a special token (`<|python_tag|>`,
//! `<|python_start|>`), which is reported as markup.
//!
//! A candidate starts at the format's opening bracket. Its first few bytes decide at once
//! whether it can be a call (`{"name"`, `[get_weather(`): when they cannot, the bracket is
//! prose and is passed on with no delay. A candidate that can be one is held back until its
//! value closes and then read whole, so a call is reported only when complete, and a JSON
//! object that turns out not to be a call (no `"name"`, no arguments) is passed on as text.
//! A candidate whose lead shows a value of the prose instead (a JSON object whose first key is
//! another) is passed on as it arrives up to its end, so an object nested in it never starts
//! a candidate: `{"user": {"name": "Bob"}}` is data, not a call.
//! The lead is bounded ([`MAX_LEAD`]) and the value is scanned once, so the work stays linear.

use super::core::{Core, Parsed, Stream};
use super::options::FormatOptions;
use crate::parse::event::{DiagnosticKind, EndReason, Event};
use crate::parse::tag::{Step, TagBuf};
use crate::parse::utf8::{self, Carry, Utf8Sink};

/// The most bytes a candidate's lead may take before it counts as prose (whitespace, a name).
pub(crate) const MAX_LEAD: usize = 128;

/// What one byte of a candidate's lead says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// Part of the lead; the candidate may still be a call.
    More,
    /// Not a call: the byte is not part of the lead and is read again as prose.
    Prose,
    /// Part of the lead, which is complete: the value is read to its end.
    Call,
    /// Part of the lead, which shows a value written in the prose: it is text up to its end,
    /// and nothing inside it starts a candidate.
    Object,
}

/// One bare-call format.
pub(crate) trait Bare: std::fmt::Debug + Default + Send {
    /// The byte that opens a candidate (`{`, `[`).
    const OPEN: u8;
    /// Special tokens that may precede the calls or follow them: markup, not text.
    const TOKENS: &'static [&'static [u8]];
    /// The byte written between calls (`;`), reported as markup when a call follows; `0`: none.
    const SEPARATOR: u8;
    /// A call written in the format, for messages that tell the model how to write one.
    const EXAMPLE: &'static str;
    /// What a call is called in messages (`"a JSON tool call"`).
    const CALL_NOUN: &'static str;
    /// Reads the next byte of the lead (the opening byte already seen).
    fn lead(&mut self, b: u8) -> Lead;
    /// Scans value bytes (the first call gets the whole lead, opening byte included); the
    /// length up to and including the byte that closes the value, if `s` holds it.
    fn scan(&mut self, s: &[u8]) -> Option<usize>;
    /// Whether a candidate the reply left open (`text`, its bytes so far) was meant as a call:
    /// then it is reported as one that could not be read (or was cut off), else as text.
    fn attempt(_text: &str, _options: &FormatOptions) -> bool {
        true
    }
    /// Reads a closed value: its calls, each with the end of its span as an offset into
    /// `text`, or `None` when it is prose after all.
    fn read(text: &str, options: &FormatOptions) -> Option<Vec<(Parsed, usize)>>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Prose,
    Lead,
    Value,
    /// Right after a call: whitespace and one separator are held until the next byte shows
    /// whether another call follows.
    After,
    /// Inside a value of the prose ([`Lead::Object`]): text up to the value's end.
    Skip,
}

/// A parser for one bare-call format `F`. See [`FormatParser`](super::FormatParser).
#[derive(Debug)]
pub(crate) struct BareParser<F> {
    core: Core,
    utf8: Carry,
    tag: TagBuf,
    state: State,
    shape: F,
    /// The candidate's bytes so far (lead and value).
    held: String,
    /// Whitespace and separator after a call, held until the next byte decides what they are.
    sep: String,
    /// Stream offset of `held`'s first byte.
    start: usize,
    /// Whether the candidate began inside a code fence.
    fenced: bool,
}

impl<F: Bare> BareParser<F> {
    pub(crate) fn new(options: FormatOptions) -> Self {
        BareParser {
            core: Core::new(options),
            utf8: Carry::default(),
            tag: TagBuf::default(),
            state: State::Prose,
            shape: F::default(),
            held: String::new(),
            sep: String::new(),
            start: 0,
            fenced: false,
        }
    }

    pub(crate) fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        if chunk.is_empty() {
            return;
        }
        self.core.out_start = out.len();
        let mut i = 0;
        while i < chunk.len() {
            i = match self.state {
                State::Prose => self.step_prose(chunk, i, out),
                State::Lead => self.step_lead(chunk, i, out),
                State::Value => self.step_value(chunk, i, out),
                State::After => self.step_after(chunk, i, out),
                State::Skip => self.step_skip(chunk, i, out),
            };
        }
        self.core.offset += chunk.len();
    }

    pub(crate) fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        utf8::feed_bytes(self, bytes, out);
    }

    pub(crate) fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.core.out_start = out.len();
        utf8::finish(self, out);
        match self.state {
            State::Prose | State::After | State::Lead | State::Skip => {
                let pending = std::mem::take(&mut self.tag);
                if pending.len() > 1 {
                    self.core.diagnose(
                        None,
                        DiagnosticKind::TruncatedTag,
                        format!("the reply ended inside the marker {:?}", pending.as_str()),
                        out,
                    );
                }
                self.core.emit(Stream::Text, pending.as_str(), out);
                self.release(out);
            }
            State::Value if !F::attempt(&self.held, &self.core.options) => self.release(out),
            State::Value => {
                let sep = std::mem::take(&mut self.sep);
                self.core.emit(Stream::Text, &sep, out);
                let index = self.core.start_call(out);
                let span = self.start..self.core.offset;
                if reason != EndReason::Stop {
                    self.core.incomplete(index, None, F::CALL_NOUN, span, out);
                } else {
                    let parsed = Parsed::invalid(
                        None,
                        format!(
                            "The tool call could not be read: your reply ended inside {} \
                             before the call was complete. Write it as {}.",
                            F::CALL_NOUN,
                            F::EXAMPLE
                        ),
                    );
                    self.core.end_call(index, span, parsed, F::EXAMPLE, out);
                }
            }
        }
        let options = std::mem::take(&mut self.core.options);
        *self = BareParser::new(options);
    }

    /// Passes the held separator and candidate on as text.
    fn release(&mut self, out: &mut Vec<Event>) {
        let sep = std::mem::take(&mut self.sep);
        self.core.emit(Stream::Text, &sep, out);
        let held = std::mem::take(&mut self.held);
        self.core.emit(Stream::Text, &held, out);
        self.state = State::Prose;
    }

    fn step_prose(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if self.tag.is_empty() {
            let p = memchr::memchr2(F::OPEN, b'<', rest.as_bytes()).unwrap_or(rest.len());
            self.core
                .emit(Stream::Text, rest.get(..p).unwrap_or_default(), out);
            match rest.as_bytes().get(p) {
                None => chunk.len(),
                Some(&b) if b == F::OPEN => {
                    self.begin(self.core.offset + i + p);
                    i + p + 1
                }
                Some(_) => {
                    if self.tag.push(b'<', F::TOKENS) == Step::Mismatch {
                        self.core.emit(Stream::Text, "<", out);
                    }
                    i + p + 1
                }
            }
        } else {
            // A whole character at a time: a mismatch must not split one.
            let n = rest.chars().next().map_or(1, char::len_utf8);
            let c = rest.as_bytes().get(..n).unwrap_or_default();
            match self.tag.push_char(c, F::TOKENS) {
                Step::Partial => i + n,
                Step::Mismatch => {
                    let pending = std::mem::take(&mut self.tag);
                    self.core.emit(Stream::Text, pending.as_str(), out);
                    i
                }
                Step::Full(_) => {
                    let token = std::mem::take(&mut self.tag);
                    self.core.emit(Stream::Markup, token.as_str(), out);
                    i + n
                }
            }
        }
    }

    /// A candidate opens at stream offset `at` (its opening byte just read).
    fn begin(&mut self, at: usize) {
        self.state = State::Lead;
        self.shape = F::default();
        self.held.clear();
        self.held.push(char::from(F::OPEN));
        self.start = at;
        self.fenced = self.core.fence.inside;
    }

    fn step_lead(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let bytes = chunk.as_bytes();
        let mut j = i;
        while let Some(&b) = bytes.get(j) {
            let step = if self.held.len() >= MAX_LEAD || !b.is_ascii() {
                Lead::Prose
            } else {
                self.shape.lead(b)
            };
            match step {
                Lead::More => {
                    self.held.push(char::from(b));
                    j += 1;
                }
                Lead::Prose => {
                    self.release(out);
                    return j;
                }
                Lead::Object => {
                    self.held.push(char::from(b));
                    let closed = self.shape.scan(self.held.as_bytes()).is_some();
                    self.release(out);
                    if !closed {
                        self.state = State::Skip;
                    }
                    return j + 1;
                }
                Lead::Call => {
                    self.held.push(char::from(b));
                    self.state = State::Value;
                    let lead = std::mem::take(&mut self.held);
                    let closed = self.shape.scan(lead.as_bytes());
                    self.held = lead;
                    if let Some(n) = closed {
                        // A lead never closes its value; if a format's did, read it there.
                        self.held.truncate(n);
                        self.close(out);
                    }
                    return j + 1;
                }
            }
        }
        j
    }

    fn step_value(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        match self.shape.scan(rest.as_bytes()) {
            Some(n) => {
                self.held.push_str(rest.get(..n).unwrap_or_default());
                self.close(out);
                i + n
            }
            None => {
                self.held.push_str(rest);
                chunk.len()
            }
        }
    }

    /// Passes a value of the prose on as text as it arrives, up to its end.
    fn step_skip(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        match self.shape.scan(rest.as_bytes()) {
            Some(n) => {
                self.core
                    .emit(Stream::Text, rest.get(..n).unwrap_or_default(), out);
                self.state = State::Prose;
                i + n
            }
            None => {
                self.core.emit(Stream::Text, rest, out);
                chunk.len()
            }
        }
    }

    fn step_after(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let bytes = chunk.as_bytes();
        let mut j = i;
        while let Some(&b) = bytes.get(j) {
            let separator = F::SEPARATOR != 0 && b == F::SEPARATOR;
            if b == F::OPEN {
                let sep = std::mem::take(&mut self.sep);
                self.begin(self.core.offset + j);
                self.sep = sep;
                return j + 1;
            }
            let fits = self.sep.len() < MAX_LEAD;
            if fits && (b.is_ascii_whitespace() || (separator && !has_separator::<F>(&self.sep))) {
                self.sep.push(char::from(b));
                j += 1;
            } else {
                self.release(out);
                return j;
            }
        }
        j
    }

    /// The candidate's value closed: report its calls, or pass it on as prose.
    fn close(&mut self, out: &mut Vec<Event>) {
        let text = std::mem::take(&mut self.held);
        let end = self.start + text.len();
        let Some(calls) = F::read(&text, &self.core.options) else {
            self.held = text;
            self.release(out);
            return;
        };
        if self.fenced && !self.core.options.run_fenced_calls {
            self.core.diagnose(
                None,
                DiagnosticKind::CallInCodeFence,
                format!(
                    "{} inside a code fence was shown as text, not run",
                    F::CALL_NOUN
                ),
                out,
            );
            self.held = text;
            self.release(out);
            return;
        }
        let sep = std::mem::take(&mut self.sep);
        let stream = if has_separator::<F>(&sep) {
            Stream::Markup
        } else {
            Stream::Text
        };
        self.core.emit(stream, &sep, out);
        let count = calls.len();
        let mut from = self.start;
        for (k, (parsed, call_end)) in calls.into_iter().enumerate() {
            let index = self.core.start_call(out);
            let to = if k + 1 == count {
                end
            } else {
                (self.start + call_end).clamp(from, end)
            };
            if let Some(name) = &parsed.name {
                out.push(Event::Name {
                    index,
                    name: name.clone(),
                });
            }
            self.core.end_call(index, from..to, parsed, F::EXAMPLE, out);
            from = to;
        }
        self.state = if F::SEPARATOR != 0 {
            State::After
        } else {
            State::Prose
        };
    }
}

/// Whether held whitespace `sep` holds the format's separator.
fn has_separator<F: Bare>(sep: &str) -> bool {
    F::SEPARATOR != 0 && sep.as_bytes().contains(&F::SEPARATOR)
}

impl<F: Bare> Utf8Sink for BareParser<F> {
    fn carry(&mut self) -> &mut Carry {
        &mut self.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        self.feed(text, out);
    }
}
