//! What every text format's parser shares once it has found its markers: the stream offset,
//! the code-fence state of the prose, merging text into events, call indexes, and turning a
//! closed call into `CallComplete` or `CallError` (name check, repairs reported).

use std::ops::Range;

use super::options::FormatOptions;
use crate::call::ToolCall;
use crate::parse::check::check_known;
use crate::parse::event::{Diagnostic, DiagnosticKind, Event};
use crate::parse::fence::FenceTracker;
use crate::parse::repair::Arguments;
use crate::parse::text_chunk::TextChunk;
use crate::response::{ToolErrorCode, ToolResponse};

/// Which kind of non-call output a piece of the reply is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Text,
    Reasoning,
    Markup,
}

/// A call read whole: what the format found, before the name check.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) name: Option<String>,
    pub(crate) result: Result<Arguments, ToolResponse>,
    pub(crate) repairs: Vec<(DiagnosticKind, String)>,
}

impl Parsed {
    /// A call that could not be read at all (`INVALID_FORMAT`).
    pub(crate) fn invalid(name: Option<String>, message: String) -> Self {
        Parsed {
            name,
            result: Err(ToolResponse::error(ToolErrorCode::InvalidFormat, message)),
            repairs: Vec::new(),
        }
    }
}

/// A new event of `stream` holding `text`, found at byte `start` of the reply.
#[inline]
fn event(stream: Stream, text: &str, start: usize) -> Event {
    let chunk = TextChunk::at(text, start);
    match stream {
        Stream::Text => Event::Text(chunk),
        Stream::Reasoning => Event::Reasoning(chunk),
        Stream::Markup => Event::Markup(chunk),
    }
}

#[derive(Debug)]
pub(crate) struct Core {
    pub(crate) options: FormatOptions,
    /// Bytes of text fed before the current chunk.
    pub(crate) offset: usize,
    /// Bytes of the reply reported so far, as text, reasoning or markup or inside an ended
    /// call's span: where the next text event starts. These events tile the reply in stream
    /// order, so a counter is all it takes, whether the text comes from the current chunk or
    /// from marker bytes held back from earlier ones.
    reported: usize,
    pub(crate) fence: FenceTracker,
    /// `out.len()` when the current feed began: text merges only into events of this feed.
    pub(crate) out_start: usize,
    next_index: usize,
}

impl Core {
    pub(crate) fn new(options: FormatOptions) -> Self {
        Core {
            options,
            offset: 0,
            reported: 0,
            fence: FenceTracker::default(),
            out_start: 0,
            next_index: 0,
        }
    }

    /// Starts the next call: reports `CallStarted` and returns its index.
    pub(crate) fn start_call(&mut self, out: &mut Vec<Event>) -> usize {
        let index = self.next_index;
        self.next_index += 1;
        out.push(Event::CallStarted { index });
        index
    }

    /// Appends non-call output, merged into the previous event of the same kind in this feed.
    /// Only the user's text moves the code-fence state.
    pub(crate) fn emit(&mut self, stream: Stream, text: &str, out: &mut Vec<Event>) {
        self.emit_prose(stream, text, false, out);
    }

    /// [`emit`](Self::emit) for text that `plain` says holds no backtick or newline (see
    /// `prose::scan`), which the fence tracker then skips.
    pub(crate) fn emit_prose(
        &mut self,
        stream: Stream,
        text: &str,
        plain: bool,
        out: &mut Vec<Event>,
    ) {
        if text.is_empty() {
            return;
        }
        self.observe_fence(stream, text, plain);
        let start = self.reported;
        self.reported += text.len();
        if out.len() > self.out_start {
            match (out.last_mut(), stream) {
                (Some(Event::Text(last)), Stream::Text)
                | (Some(Event::Reasoning(last)), Stream::Reasoning)
                | (Some(Event::Markup(last)), Stream::Markup) => {
                    last.push_str(text);
                    return;
                }
                _ => {}
            }
        }
        out.push(event(stream, text, start));
    }

    /// Only the user's text moves the code-fence state; `plain` text (no backtick or newline)
    /// is only counted.
    #[inline(always)]
    fn observe_fence(&mut self, stream: Stream, text: &str, plain: bool) {
        if stream == Stream::Text {
            if plain {
                self.fence.observe_plain(text);
            } else {
                self.fence.observe(text);
            }
        }
    }

    /// [`emit_prose`](Self::emit_prose) for the first output of a feed, which has nothing to
    /// merge with: the fast path of a chunk of plain prose. Always inlined: with the stream
    /// known at the call site most of it folds away, and a call costs a tenth of a chunk.
    #[inline(always)]
    pub(crate) fn emit_first(
        &mut self,
        stream: Stream,
        text: &str,
        plain: bool,
        out: &mut Vec<Event>,
    ) {
        debug_assert_eq!(out.len(), self.out_start);
        if text.is_empty() {
            return;
        }
        self.observe_fence(stream, text, plain);
        let start = self.reported;
        self.reported += text.len();
        out.push(event(stream, text, start));
    }

    pub(crate) fn diagnose(
        &self,
        call: Option<usize>,
        kind: DiagnosticKind,
        message: String,
        out: &mut Vec<Event>,
    ) {
        out.push(Event::Diagnostic(Diagnostic {
            call,
            kind,
            message,
        }));
    }

    /// The id of call `index`: the prefix, resolved when the parser was made, then the index.
    pub(crate) fn id(&self, index: usize) -> String {
        format!(
            "{}{}",
            self.options.id_prefix.as_deref().unwrap_or_default(),
            index
        )
    }

    /// Marks the reply up to `end` as reported: a call ending there was reported with its span.
    #[inline]
    pub(crate) fn reported_to(&mut self, end: usize) {
        self.reported = end;
    }

    /// Reports a closed call: its repairs, then `CallComplete`, or `CallError` when it could not
    /// be read, has no name, or names an unknown tool. `example` shows the format in messages.
    pub(crate) fn end_call(
        &mut self,
        index: usize,
        span: Range<usize>,
        parsed: Parsed,
        example: &str,
        out: &mut Vec<Event>,
    ) {
        self.reported_to(span.end);
        for (kind, message) in parsed.repairs {
            self.diagnose(Some(index), kind, message, out);
        }
        let id = self.id(index);
        let fail = |name: Option<String>, response: ToolResponse, out: &mut Vec<Event>| {
            out.push(Event::CallError {
                index,
                id: id.clone(),
                name,
                response: Box::new(response),
                span: span.clone(),
            });
        };
        let name = match parsed.name {
            Some(name) if !name.is_empty() => name,
            other if parsed.result.is_err() => {
                // The call could not be read far enough to find its name: say why.
                if let Err(response) = parsed.result {
                    fail(other, response, out);
                }
                return;
            }
            other => {
                let message = format!(
                    "The tool call has no tool name. Write it as {example}.{}",
                    self.listed_tools()
                );
                fail(
                    other,
                    ToolResponse::error(ToolErrorCode::InvalidFormat, message),
                    out,
                );
                return;
            }
        };
        if let Err(response) = check_known(&name, self.options.known_tools()) {
            fail(Some(name), response, out);
            return;
        }
        match parsed.result {
            Ok(args) => out.push(Event::CallComplete {
                index,
                call: ToolCall::new(id.clone(), name, args.json),
                raw_arguments: args.raw,
                span: span.clone(),
            }),
            Err(response) => fail(Some(name), response, out),
        }
    }

    /// `" Available tools: 'a', 'b'."` when the names are known, else nothing.
    pub(crate) fn listed_tools(&self) -> String {
        self.options
            .known_tools()
            .map(|t| {
                format!(
                    " Available tools: {}.",
                    crate::suggest::quoted_list(t.iter().map(String::as_str))
                )
            })
            .unwrap_or_default()
    }

    /// Reports a call cut off by the length limit or an abort: it must not run.
    pub(crate) fn incomplete(
        &mut self,
        index: usize,
        name: Option<String>,
        what: &str,
        span: Range<usize>,
        out: &mut Vec<Event>,
    ) {
        self.reported_to(span.end);
        out.push(Event::CallIncomplete {
            index,
            name,
            reason: format!("the reply was cut off inside {what}; the call was not run"),
            span,
        });
    }
}
