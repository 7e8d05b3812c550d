//! The engine for formats whose calls are blocks opened by a marker in the prose
//! (`<tool_call>`, `[TOOL_CALLS]`): prose is skipped with `memchr` for the marker's first byte,
//! the marker is matched across chunks, and the block's body is handed to the format's
//! [`Body`], which finds where the block ends in O(chunk) and reads it once when it closes.

use super::core::{Core, Parsed, Stream};
use super::options::FormatOptions;
use crate::parse::event::{DiagnosticKind, EndReason, Event};
use crate::parse::prose;
use crate::parse::repair::Arguments;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::text_chunk::TextChunk;
use crate::parse::utf8::{self, Carry, Utf8Sink};

/// One format's reading of a call block after its opening marker.
pub(crate) trait Body: std::fmt::Debug + Send + Sized {
    /// The marker that opens a call block.
    const OPEN: &'static [u8];
    /// A call written in the format, for messages that tell the model how to write one.
    const EXAMPLE: &'static str;
    /// What a call is called in messages (`"a <tool_call> block"`).
    const CALL_NOUN: &'static str;
    /// An empty body, right after the opening marker.
    fn new() -> Self;
    /// Consumes a prefix of `s` and says whether the block ended with it (its end marker, when
    /// it has one, is consumed too). Consuming nothing without ending is allowed only when
    /// the body changed phase: it is fed the same bytes again.
    fn feed(&mut self, s: &str) -> (usize, bool);
    /// The fast path for the bulk of a call: consumes the bytes at the start of `s` that are
    /// plain content (no marker can begin there, the block cannot end there, no marker is
    /// pending), appending them to `raw` verbatim, and stops before the first byte that needs
    /// [`feed`](Self::feed). It must leave the body exactly as if those bytes had been fed.
    fn scan_content(&mut self, s: &str) -> usize;
    /// The body bytes so far, end marker and held-back marker bytes excluded: they sit at
    /// consecutive stream offsets from the end of the opening marker.
    fn raw(&self) -> &str;
    /// Whether the reply may end here with the call complete (only its end marker missing).
    fn complete(&self) -> bool;
    /// The ids the model wrote for the calls of the block, in order, for formats whose calls
    /// carry one (an empty id, or none, leaves the parser's own).
    fn written_ids(&self) -> Vec<String> {
        Vec::new()
    }
    /// Reads the closed body: each call with the end of its span as an offset into `raw`
    /// (the last call's span runs to the end of the block whatever it says).
    fn close(self, options: &FormatOptions) -> Vec<(Parsed, usize)>;
}

#[derive(Debug)]
struct OpenBlock<B> {
    index: usize,
    start: usize,
    body_start: usize,
    body: B,
    /// How much of the body has been reported as argument deltas.
    sent: usize,
}

/// A parser for one marker-block format, whose body reads `B`. See
/// [`FormatParser`](super::FormatParser).
#[derive(Debug)]
pub(crate) struct BlockParser<B> {
    core: Core,
    tag: TagBuf,
    tag_at: usize,
    block: Option<OpenBlock<B>>,
    utf8: Carry,
}

impl<B: Body> BlockParser<B> {
    /// The opener's first byte, which prose is searched for.
    const OPENER_FIRST: u8 = match B::OPEN.first() {
        Some(b) => *b,
        None => b'<',
    };

    pub(crate) fn new(options: FormatOptions) -> Self {
        BlockParser {
            core: Core::new(options),
            tag: TagBuf::default(),
            tag_at: 0,
            block: None,
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
        if let Some(block) = self.block.as_mut() {
            // Inside a long call most chunks are plain content: they skip the loop, and the
            // delta is the chunk itself (every feed ends with the body fully reported).
            i = block.body.scan_content(chunk);
            if i == chunk.len() {
                debug_assert_eq!(block.sent + i, block.body.raw().len());
                let at = block.body_start + block.sent;
                block.sent += i;
                out.push(Event::ArgumentsDelta {
                    index: block.index,
                    delta: TextChunk::at(chunk, at),
                });
                self.core.offset += chunk.len();
                return;
            }
        } else if self.tag.is_empty() {
            // The common case of a streamed reply, a chunk of plain prose, skips the loop.
            let run = prose::scan_until(chunk.as_bytes(), Self::OPENER_FIRST);
            let (text, _) = chunk.split_at_checked(run.len).unwrap_or((chunk, ""));
            self.core.emit_first(Stream::Text, text, run.plain, out);
            if !run.at_lt {
                self.core.offset += chunk.len();
                return;
            }
            i = run.len;
        }
        while i < chunk.len() {
            i = if self.block.is_some() {
                self.step_block(chunk, i, out)
            } else {
                self.step_prose(chunk, i, out)
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
        if let Some(mut block) = self.block.take() {
            flush(&mut block, out);
            let end = self.core.offset;
            let what = B::CALL_NOUN;
            if reason != EndReason::Stop {
                // The cut call's name, when the part that arrived names it (for the error).
                let start = block.start;
                let index = block.index;
                let name = block
                    .body
                    .close(&self.core.options)
                    .pop()
                    .and_then(|(parsed, _)| parsed.name);
                self.core.incomplete(index, name, what, start..end, out);
            } else if block.body.complete() {
                self.core.diagnose(
                    Some(block.index),
                    DiagnosticKind::MissingCallEnd,
                    format!("the reply ended before the end of {what}; the call was complete"),
                    out,
                );
                self.close(block, end, out);
            } else {
                let example = B::EXAMPLE;
                let parsed = Parsed::invalid(
                    None,
                    format!(
                        "The tool call could not be read: your reply ended inside {what} \
                         before the call was complete. Write it as {example}."
                    ),
                );
                self.core
                    .end_call(block.index, block.start..end, parsed, example, out);
            }
        } else if !self.tag.is_empty() {
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
        }
        let options = std::mem::take(&mut self.core.options);
        *self = BlockParser::new(options);
    }

    fn step_prose(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        let opener = B::OPEN;
        if self.tag.is_empty() {
            let first = Self::OPENER_FIRST;
            let p = prose::find(rest.as_bytes(), first);
            self.core
                .emit(Stream::Text, rest.get(..p).unwrap_or_default(), out);
            if p == rest.len() {
                return chunk.len();
            }
            self.tag_at = self.core.offset + i + p;
            self.tag.push(first, &[opener]);
            return i + p + 1;
        }
        // A whole character at a time: a marker may hold non-ASCII characters.
        let n = rest.chars().next().map_or(1, char::len_utf8);
        let c = rest.as_bytes().get(..n).unwrap_or_default();
        match self.tag.push_char(c, &[opener]) {
            Step::Partial => i + n,
            Step::Mismatch => {
                let pending = std::mem::take(&mut self.tag);
                self.core.emit(Stream::Text, pending.as_str(), out);
                i
            }
            Step::Full(_) => {
                let pending = std::mem::take(&mut self.tag);
                if self.core.fence.inside && !self.core.options.run_fenced_calls {
                    self.core.diagnose(
                        None,
                        DiagnosticKind::CallInCodeFence,
                        format!(
                            "a {} inside a code fence was shown as text, not run",
                            B::CALL_NOUN
                        ),
                        out,
                    );
                    self.core.emit(Stream::Text, pending.as_str(), out);
                    return i + n;
                }
                let index = self.core.start_call(out);
                self.block = Some(OpenBlock {
                    index,
                    start: self.tag_at,
                    body_start: self.core.offset + i + n,
                    body: B::new(),
                    sent: 0,
                });
                i + n
            }
        }
    }

    fn step_block(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        let Some(block) = self.block.as_mut() else {
            return chunk.len();
        };
        // A body may consume nothing when it only changes phase: feed it again. Bounded, so
        // that a body that neither consumes nor ends closes the block instead of looping.
        let (mut n, mut ended) = block.body.feed(rest);
        let mut tries = 0;
        while n == 0 && !ended {
            tries += 1;
            (n, ended) = if tries < 4 {
                block.body.feed(rest)
            } else {
                (0, true)
            };
        }
        if ended {
            if let Some(mut block) = self.block.take() {
                flush(&mut block, out);
                self.close(block, self.core.offset + i + n, out);
            }
        }
        i + n
    }

    fn flush_delta(&mut self, out: &mut Vec<Event>) {
        if let Some(block) = self.block.as_mut() {
            flush(block, out);
        }
    }

    /// Reads a closed block and reports its calls, their spans dividing `start..end`.
    fn close(&mut self, block: OpenBlock<B>, end: usize, out: &mut Vec<Event>) {
        let example = B::EXAMPLE;
        let ids = block.body.written_ids();
        let mut calls = block.body.close(&self.core.options);
        if calls.is_empty() {
            calls.push((
                Parsed::invalid(
                    None,
                    format!("The tool call block holds no call. Write it as {example}."),
                ),
                0,
            ));
        }
        let count = calls.len();
        let mut from = block.start;
        for (k, (parsed, call_end)) in calls.into_iter().enumerate() {
            let index = if k == 0 {
                block.index
            } else {
                self.core.start_call(out)
            };
            let to = if k + 1 == count {
                end
            } else {
                (block.body_start + call_end).clamp(from, end)
            };
            if let Some(name) = &parsed.name {
                out.push(Event::Name {
                    index,
                    name: name.clone(),
                });
            }
            let reported = out.len();
            self.core.end_call(index, from..to, parsed, example, out);
            if let Some(id) = ids.get(k).filter(|id| !id.is_empty()) {
                set_id(out.get_mut(reported..).unwrap_or_default(), id);
            }
            from = to;
        }
    }
}

/// Gives the call ended in `events` the id the model wrote.
fn set_id(events: &mut [Event], written: &str) {
    for event in events {
        match event {
            Event::CallComplete { call, .. } => call.id = written.to_string(),
            Event::CallError { id, .. } => *id = written.to_string(),
            _ => {}
        }
    }
}

fn flush<B: Body>(block: &mut OpenBlock<B>, out: &mut Vec<Event>) {
    let raw = block.body.raw();
    if block.sent < raw.len() {
        // The body's bytes sit at consecutive offsets from the end of the opening marker.
        let delta = TextChunk::at(
            raw.get(block.sent..).unwrap_or_default(),
            block.body_start + block.sent,
        );
        block.sent = raw.len();
        out.push(Event::ArgumentsDelta {
            index: block.index,
            delta,
        });
    }
}

impl<B: Body> Utf8Sink for BlockParser<B> {
    fn carry(&mut self) -> &mut Carry {
        &mut self.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        self.feed(text, out);
    }
}

/// Arguments that are the given JSON object text.
pub(crate) fn object(json: String) -> Arguments {
    Arguments { json, raw: None }
}
