//! One text-mode reply as it streams: the format's parser events turned into model events,
//! and the finished turn (the neutral reading plus the reply exactly as written).

use serde_json::{json, Value};

use crate::call::ToolCall;
use crate::model::{ModelError, ModelErrorKind, ModelEvent, ModelTurn, NativeContent, StopReason};
use crate::parse::{EndReason, Event, FormatParser, ToolFormat};

/// The state of one reply being parsed.
pub(super) struct Reply {
    format: ToolFormat,
    parser: FormatParser,
    /// The reply exactly as the model wrote it.
    raw: String,
    /// The text for the user (no calls, reasoning or markup).
    text: String,
    /// The reasoning: a `<think>` block, harmony's analysis channel, or the inner model's.
    reasoning: String,
    calls: Vec<ToolCall>,
    /// The parser's diagnostics and rejections, for the turn's native content.
    diagnostics: Vec<Value>,
    /// Why the reply cannot be a turn: it was cut off inside a call (the parser's reason and
    /// the call's name when it had one).
    cut_off: Option<(String, Option<String>)>,
    /// The call the reply is inside, if any.
    open_call: Option<String>,
    events: Vec<Event>,
}

impl Reply {
    pub(super) fn new(format: ToolFormat, parser: FormatParser) -> Self {
        Reply {
            format,
            parser,
            raw: String::new(),
            text: String::new(),
            reasoning: String::new(),
            calls: Vec::new(),
            diagnostics: Vec::new(),
            cut_off: None,
            open_call: None,
            events: Vec::new(),
        }
    }

    /// Feeds the next piece of the reply; returns what the runner may see of it now.
    pub(super) fn feed(&mut self, delta: &str) -> Vec<ModelEvent> {
        // The format's parser splits off a leading `<think>` section itself (as reasoning
        // events), so it sees the reply exactly as written and its spans index `raw`.
        self.raw.push_str(delta);
        let mut events = std::mem::take(&mut self.events);
        self.parser.feed(delta, &mut events);
        let out = self.convert(&mut events);
        self.events = events;
        out
    }

    /// Reasoning the inner model reported apart from its text.
    pub(super) fn reasoning(&mut self, delta: &str) -> Option<ModelEvent> {
        self.reasoning.push_str(delta);
        (!delta.is_empty()).then(|| ModelEvent::ReasoningDelta(delta.to_owned()))
    }

    /// Ends the reply: the last events, then the finished turn, or an `Incomplete` error when
    /// the reply was cut off inside a call.
    pub(super) fn finish(mut self, inner: ModelTurn) -> Vec<Result<ModelEvent, ModelError>> {
        let mut out = Vec::new();
        // A model that does not stream hands its whole text over at the end.
        if self.raw.is_empty() && !inner.text.is_empty() {
            out = self.feed(&inner.text);
        }
        if self.reasoning.is_empty() && !inner.reasoning.is_empty() {
            out.extend(self.reasoning(&inner.reasoning.clone()));
        }
        let reason = match inner.stop_reason {
            StopReason::EndTurn | StopReason::ToolUse => EndReason::Stop,
            StopReason::MaxTokens => EndReason::Length,
            _ => EndReason::Other,
        };
        let mut events = std::mem::take(&mut self.events);
        self.parser.finish(reason, &mut events);
        out.extend(self.convert(&mut events));
        let mut out: Vec<Result<ModelEvent, ModelError>> = out.into_iter().map(Ok).collect();
        if let Some((why, name)) = self.cut_off {
            let error = if inner.stop_reason == StopReason::MaxTokens {
                // The same request stops at the same limit: not worth retrying as it is.
                let call = name
                    .map(|n| format!("the call `{n}`"))
                    .unwrap_or("a call".into());
                ModelError::new(
                    ModelErrorKind::Incomplete,
                    format!(
                        "the reply was cut at the output limit (the model stopped with \
                         max_tokens) after {} bytes of text; {call} was incomplete ({why}); \
                         raise the model's output limit, or ask for less, and send again",
                        self.raw.len()
                    ),
                )
                .with_retryable(false)
            } else {
                let name = name.map(|n| format!(" (tool '{n}')")).unwrap_or_default();
                ModelError::new(ModelErrorKind::Incomplete, format!("{why}{name}"))
            };
            out.push(Err(error));
            return out;
        }
        let stop_reason = if self.calls.is_empty() {
            inner.stop_reason
        } else {
            StopReason::ToolUse
        };
        let content = if self.diagnostics.is_empty() {
            Value::String(self.raw)
        } else {
            json!({"text": self.raw, "diagnostics": self.diagnostics})
        };
        out.push(Ok(ModelEvent::Finished(ModelTurn {
            text: self.text,
            reasoning: self.reasoning,
            calls: self.calls,
            stop_reason,
            usage: inner.usage,
            native: Some(NativeContent::new(
                self.format.spec().provider_tag(),
                content,
            )),
            response_id: inner.response_id,
        })));
        out
    }

    fn convert(&mut self, events: &mut Vec<Event>) -> Vec<ModelEvent> {
        let mut out = Vec::with_capacity(events.len());
        for event in events.drain(..) {
            match event {
                Event::Text(text) => {
                    self.text.push_str(&text);
                    out.push(ModelEvent::TextDelta(text.to_string()));
                }
                // Calls in text come one after another, so the open call's position in the
                // turn is the number of calls already complete (a call cut off by the end of
                // the reply is the last one and never gets a position in `calls`).
                Event::Name { index, name } => {
                    self.open_call = Some(name.clone());
                    out.push(ModelEvent::CallStarted {
                        index: self.calls.len(),
                        id: format!("{}{index}", self.format.spec().id_prefix()),
                        name,
                    })
                }
                // Only some formats' deltas are the arguments' JSON text; the block formats'
                // are the whole block body (`{"name": ..., "arguments": ...}`, XML), which is
                // not what the event promises.
                Event::ArgumentsDelta { delta, .. } if self.format.spec().streams_arguments() => {
                    out.push(ModelEvent::ArgumentsDelta {
                        index: self.calls.len(),
                        delta: delta.to_string(),
                    })
                }
                Event::CallComplete { call, .. } => out.push(self.add_call(call)),
                Event::CallError {
                    index,
                    id,
                    name,
                    span,
                    response,
                } => {
                    self.diagnostics.push(json!({
                        "call": index,
                        "kind": "CallError",
                        "message": response.model_text(),
                    }));
                    let block = self.raw.get(span).unwrap_or_default();
                    let arguments = self.format.spec().raw_arguments(block);
                    let call = ToolCall::new(id, name.unwrap_or_default(), arguments);
                    out.push(self.add_call(call));
                }
                Event::CallIncomplete { name, reason, .. } => {
                    let name = name.or_else(|| self.open_call.take());
                    self.cut_off = Some((reason, name));
                }
                Event::Diagnostic(d) => self.diagnostics.push(json!({
                    "call": d.call,
                    "kind": format!("{:?}", d.kind),
                    "message": d.message,
                })),
                // Reasoning (harmony's analysis channel) is reported as such; markup (its
                // framing) is not for the user. Both stay in `raw`, the history.
                Event::Reasoning(reasoning) => {
                    self.reasoning.push_str(&reasoning);
                    out.push(ModelEvent::ReasoningDelta(reasoning.to_string()));
                }
                Event::ArgumentsDelta { .. } | Event::CallStarted { .. } | Event::Markup(_) => {}
            }
        }
        out
    }

    /// An error of the inner model, saying which call the reply was inside when it came.
    pub(super) fn inner_error(mut self, error: ModelError) -> ModelError {
        if error.kind() != ModelErrorKind::Incomplete {
            return error;
        }
        // Ending the parse as aborted names the open call, if the reply was inside one.
        let mut events = std::mem::take(&mut self.events);
        self.parser.finish(EndReason::Other, &mut events);
        let cut = events.into_iter().find_map(|event| match event {
            Event::CallIncomplete { name, .. } => Some(name.or_else(|| self.open_call.take())),
            _ => None,
        });
        let Some(name) = cut else {
            return error;
        };
        let call = name
            .map(|n| format!("the call `{n}`"))
            .unwrap_or("a call".into());
        let message = format!(
            "{} (the reply was {} bytes in, inside {call}, which did not run)",
            error.message(),
            self.raw.len()
        );
        let retryable = error.is_retryable();
        ModelError::new(ModelErrorKind::Incomplete, message)
            .with_retryable(retryable)
            .with_source(error)
    }

    fn add_call(&mut self, call: ToolCall) -> ModelEvent {
        self.open_call = None;
        let index = self.calls.len();
        self.calls.push(call.clone());
        ModelEvent::CallReady { index, call }
    }
}
