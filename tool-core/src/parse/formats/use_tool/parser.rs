//! The `<use_tool>` state machine: prose, the opening tag and what may follow it. The part
//! inside a call is in `in_call.rs`; offsets, code fences, call indexes and text output are
//! the shared [`Core`]'s.

use super::call::OpenCall;
use super::tags::{CHILD_OPEN, USE_TOOL};
use crate::parse::event::{DiagnosticKind, EndReason, Event};
use crate::parse::formats::core::{Core, Stream};
use crate::parse::formats::options::FormatOptions;
use crate::parse::prose;
use crate::parse::tag::{Step, TagBuf};
use crate::parse::utf8::{self, Carry, Utf8Sink};

/// How much whitespace may separate `<use_tool>` from its first child before it is prose.
const MAX_GAP: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
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

/// The `<use_tool>` state machine, on the shared core.
#[derive(Debug)]
pub(crate) struct UseToolMachine {
    pub(super) core: Core,
    pub(super) state: State,
    /// A tag being matched (held back from output until it matches or cannot).
    pub(super) tag: TagBuf,
    /// Stream offset of the current tag's `<`.
    tag_at: usize,
    /// `<use_tool>` and the whitespace after it, held while undecided.
    held: String,
    held_at: usize,
    pub(super) call: Option<OpenCall>,
    utf8: Carry,
}

impl UseToolMachine {
    pub(crate) fn new(options: FormatOptions) -> Self {
        UseToolMachine {
            core: Core::new(options),
            state: State::Text,
            tag: TagBuf::default(),
            tag_at: 0,
            held: String::new(),
            held_at: 0,
            call: None,
            utf8: Carry::default(),
        }
    }

    pub(crate) fn feed(&mut self, chunk: &str, out: &mut Vec<Event>) {
        self.core.out_start = out.len();
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
                self.core.emit_first(Stream::Text, chunk, run.plain, out);
                self.core.offset += bytes.len();
                return;
            }
            let text = chunk.get(..run.len).unwrap_or_default();
            self.core.emit_first(Stream::Text, text, run.plain, out);
            i = run.len;
        } else if self.state == State::Args && self.tag.is_empty() {
            // Inside a long argument most chunks are pure JSON content.
            i = self.feed_args_content(chunk, out);
            if i == bytes.len() {
                self.core.offset += bytes.len();
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
        self.core.offset += bytes.len();
    }

    pub(crate) fn feed_bytes(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        utf8::feed_bytes(self, bytes, out);
    }

    pub(crate) fn finish(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.core.out_start = out.len();
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
        let options = std::mem::take(&mut self.core.options);
        *self = UseToolMachine::new(options);
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
        self.tag_at = self.core.offset + i + run.len;
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
                self.tag_at = self.core.offset + i;
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
                if self.core.fence.inside && !self.core.options.run_fenced_calls {
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
                self.held.clear();
                self.tag.clear();
                let index = self.core.start_call(out);
                self.call = Some(OpenCall::new(index, self.held_at));
                self.open_child(k, self.core.offset + i + 1, out);
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
        self.core.emit(Stream::Text, text, out);
    }

    /// Emits text; `plain` says it holds no backtick or newline (see `prose::scan`).
    #[inline(always)]
    fn emit_prose(&mut self, text: &str, plain: bool, out: &mut Vec<Event>) {
        self.core.emit_prose(Stream::Text, text, plain, out);
    }

    pub(super) fn diagnose(
        &self,
        call: Option<usize>,
        kind: DiagnosticKind,
        message: String,
        out: &mut Vec<Event>,
    ) {
        self.core.diagnose(call, kind, message, out);
    }
}

impl Utf8Sink for UseToolMachine {
    fn carry(&mut self) -> &mut Carry {
        &mut self.utf8
    }

    fn feed_str(&mut self, text: &str, out: &mut Vec<Event>) {
        self.feed(text, out);
    }
}
