//! The part of the state machine inside a `<use_tool>` block: children, the name, the
//! arguments, and how a block ends.

use super::parser::{State, UseToolMachine};
use super::tags::{ARGS_CLOSE, IN_CALL, NAME_CLOSE};
use crate::parse::event::{Diagnostic, DiagnosticKind, EndReason, Event};
use crate::parse::json_scan::ArgScan;
use crate::parse::tag::Step;
use crate::parse::text_chunk::TextChunk;

impl UseToolMachine {
    pub(super) fn step_children(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if self.tag.is_empty() {
            let p = memchr::memchr(b'<', rest.as_bytes()).unwrap_or(rest.len());
            let gap = rest.get(..p).unwrap_or_default();
            if let Some(call) = self.call.as_mut() {
                call.stray(gap);
            }
            if p < rest.len() {
                self.tag.push(b'<', IN_CALL);
                return i + p + 1;
            }
            return chunk.len();
        }
        let b = rest.as_bytes().first().copied().unwrap_or_default();
        match self.tag.push(b, IN_CALL) {
            Step::Partial => i + 1,
            Step::Mismatch => {
                let pending = std::mem::take(&mut self.tag);
                if let Some(call) = self.call.as_mut() {
                    call.stray(pending.as_str());
                }
                i
            }
            Step::Full(4) => {
                self.tag.clear();
                self.close_call(self.core.offset + i + 1, out);
                i + 1
            }
            Step::Full(k) => {
                self.tag.clear();
                self.open_child(k, self.core.offset + i + 1, out);
                i + 1
            }
        }
    }

    /// Enters child `k` of `CHILD_OPEN`/`IN_CALL` (0, 1: name; 2, 3: arguments), whose content
    /// starts at byte `at` of the reply.
    pub(super) fn open_child(&mut self, k: usize, at: usize, out: &mut Vec<Event>) {
        let Some(call) = self.call.as_mut() else {
            return;
        };
        let index = call.index;
        let reversed = (k == 0 || k == 1) && call.args_before_name();
        if k == 0 || k == 1 {
            call.begin_name();
            self.state = State::Name;
        } else {
            call.begin_args(at);
            self.state = State::Args;
        }
        if reversed {
            // Accepted (the order carries no meaning), but reported like every tolerance.
            self.diagnose(
                Some(index),
                DiagnosticKind::ChildrenReversed,
                "<arguments> came before <tool_name>; read the call as written".to_string(),
                out,
            );
        }
        if k == 1 || k == 3 {
            let (alias, canonical) = if k == 1 {
                ("<name>", "<tool_name>")
            } else {
                ("<argument>", "<arguments>")
            };
            self.diagnose(
                Some(index),
                DiagnosticKind::AliasTag,
                format!("accepted {alias} as {canonical}"),
                out,
            );
        }
    }

    pub(super) fn step_name(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        if self.tag.is_empty() {
            let p = memchr::memchr(b'<', rest.as_bytes()).unwrap_or(rest.len());
            if let Some(call) = self.call.as_mut() {
                call.push_name(rest.get(..p).unwrap_or_default());
            }
            if p < rest.len() {
                self.tag.push(b'<', NAME_CLOSE);
                return i + p + 1;
            }
            return chunk.len();
        }
        let b = rest.as_bytes().first().copied().unwrap_or_default();
        match self.tag.push(b, NAME_CLOSE) {
            Step::Partial => i + 1,
            Step::Mismatch => {
                let pending = std::mem::take(&mut self.tag);
                if let Some(call) = self.call.as_mut() {
                    call.push_name(pending.as_str());
                }
                i
            }
            Step::Full(k) => {
                self.tag.clear();
                if let Some(call) = self.call.as_mut() {
                    let name = call.end_name();
                    out.push(Event::Name {
                        index: call.index,
                        name,
                    });
                }
                if k == 2 {
                    if let Some(call) = self.call.as_mut() {
                        call.structure_error(
                            "the <tool_name> element was never closed with </tool_name>",
                        );
                    }
                    self.close_call(self.core.offset + i + 1, out);
                } else {
                    self.state = State::Children;
                }
                i + 1
            }
        }
    }

    pub(super) fn step_args(&mut self, chunk: &str, i: usize, out: &mut Vec<Event>) -> usize {
        let rest = chunk.get(i..).unwrap_or_default();
        let Some(scan) = self.call.as_mut().and_then(|c| c.args.as_mut()) else {
            self.state = State::Children;
            return i;
        };
        if self.tag.is_empty() {
            let n = scan.scan(rest);
            if n < rest.len() {
                self.tag.push(b'<', ARGS_CLOSE);
                return i + n + 1;
            }
            return chunk.len();
        }
        let b = rest.as_bytes().first().copied().unwrap_or_default();
        match self.tag.push(b, ARGS_CLOSE) {
            Step::Partial => i + 1,
            Step::Mismatch => {
                scan.absorb(self.tag.as_str());
                self.tag.clear();
                i
            }
            Step::Full(k) => {
                self.tag.clear();
                let complete = scan.value_complete() || scan.is_blank();
                self.flush_delta(out);
                let index = self.call.as_ref().map(|c| c.index);
                match k {
                    2 => {
                        if complete {
                            self.diagnose(
                                index,
                                DiagnosticKind::MissingArgumentsClose,
                                "</arguments> was missing; the JSON was complete".to_string(),
                                out,
                            );
                        }
                        self.close_call(self.core.offset + i + 1, out);
                    }
                    k => {
                        if k == 1 {
                            self.diagnose(
                                index,
                                DiagnosticKind::AliasTag,
                                "accepted </argument> as </arguments>".to_string(),
                                out,
                            );
                        }
                        self.state = State::Children;
                    }
                }
                i + 1
            }
        }
    }

    /// Scans `chunk` as `<arguments>` content up to a possible closing tag and returns how far
    /// it got; when that is the whole chunk, its delta is reported straight from the chunk
    /// (cheaper than slicing it back out of the scanner's buffer).
    /// Stopping at a `<` changes no scanner state, so the state machine resumes there.
    pub(super) fn feed_args_content(&mut self, chunk: &str, out: &mut Vec<Event>) -> usize {
        let Some(call) = self.call.as_mut() else {
            return 0;
        };
        let Some(scan) = call.args.as_mut() else {
            return 0;
        };
        let n = scan.scan(chunk);
        if n == chunk.len() {
            // Every feed ends with all content reported, so what is unsent now is this chunk.
            debug_assert_eq!(scan.delta_sent + n, scan.raw.len());
            let at = call.args_start + scan.delta_sent;
            scan.delta_sent = scan.raw.len();
            out.push(Event::ArgumentsDelta {
                index: call.index,
                delta: TextChunk::at(chunk, at),
            });
        }
        n
    }

    /// Reports argument bytes not yet sent. Held-back tag bytes are never in the buffer, so a
    /// delta is never retracted.
    pub(super) fn flush_delta(&mut self, out: &mut Vec<Event>) {
        let Some(call) = self.call.as_mut() else {
            return;
        };
        let index = call.index;
        let args_start = call.args_start;
        if let Some(scan) = call.args.as_mut() {
            if scan.delta_sent < scan.raw.len() {
                let delta = TextChunk::at(
                    scan.raw.get(scan.delta_sent..).unwrap_or_default(),
                    args_start + scan.delta_sent,
                );
                scan.delta_sent = scan.raw.len();
                out.push(Event::ArgumentsDelta { index, delta });
            }
        }
    }

    pub(super) fn close_call(&mut self, end: usize, out: &mut Vec<Event>) {
        self.flush_delta(out);
        self.state = State::Text;
        if let Some(call) = self.call.take() {
            call.close(end, &self.core, out);
            self.core.reported_to(end);
        }
    }

    pub(super) fn end_open_call(&mut self, reason: EndReason, out: &mut Vec<Event>) {
        self.flush_delta(out);
        let end = self.core.offset;
        let Some(mut call) = self.call.take() else {
            return;
        };
        self.core.reported_to(end);
        let closable = match self.state {
            State::Children => true,
            State::Args => call.args.as_ref().is_some_and(ArgScan::value_complete),
            _ => false,
        };
        if reason != EndReason::Stop {
            out.push(call.incomplete(reason, end));
        } else if closable {
            out.push(Event::Diagnostic(Diagnostic {
                call: Some(call.index),
                kind: DiagnosticKind::MissingUseToolClose,
                message: "the reply ended before </use_tool>; the call was complete".to_string(),
            }));
            call.close(end, &self.core, out);
        } else {
            call.structure_error(
                "your reply ended inside the <use_tool> block before the call was complete",
            );
            call.close(end, &self.core, out);
        }
    }
}
