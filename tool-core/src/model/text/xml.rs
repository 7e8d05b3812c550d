//! [`XmlMode`]: tool calling for a model that only writes text, with the `<use_tool>` format.

use serde_json::Value;

use crate::call::ToolCall;
use crate::model::queue::queue_stream;
use crate::model::{
    next_item, Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream,
    ModelTurn, NativeContent, OfferedTools, StopReason,
};
use crate::parse::{EndReason, Event, ParserOptions, XmlParser};
use crate::prompt::{escape_text, render_tool_results, ToolResultItem};
use crate::provider::ToolChoice;

/// The [`NativeContent::provider`] tag of XML-mode turns; the content is the reply's raw text.
pub const XML_PROVIDER: &str = "xml";

/// Runs the tool loop on any plain-text streaming model (seed 000): the tools go into the
/// instructions as the TOOLS section, the model's reply is parsed as it streams with the
/// `<use_tool>` parser (prose is handed out at once, a call only once complete), and results
/// go back as a `<tool_results>` user message. The runner sees an ordinary model.
///
/// The inner model receives no tools and `tool_choice` auto; a forced `tool_choice` becomes a
/// sentence in the instructions, and `ToolChoice::None` leaves the TOOLS section out. Calls
/// the parser rejects (unknown name, arguments that are not a JSON object) are passed on as
/// written, so the dispatcher answers them with its instructive error; a call cut off by the
/// end of the reply never runs.
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel, XmlMode};
/// use tool_core::runner::Runner;
/// use tool_core::{tool, tools};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// // A model without native tool calling: it only writes text.
/// let text_model = ScriptedModel::new([
///     ModelTurn::text("Adding.\n<use_tool><tool_name>add</tool_name><arguments>{\"a\":2,\"b\":3}</arguments></use_tool>"),
///     ModelTurn::text("2 + 3 = 5."),
/// ]);
/// let runner = Runner::new(XmlMode::new(text_model.clone()), tools![add]);
/// let result = tool_core::block_on(runner.run("What is 2 + 3?")).unwrap();
/// assert_eq!(result.text(), Some("2 + 3 = 5."));
///
/// let second = &text_model.requests()[1];
/// assert!(second.instructions.as_deref().unwrap().contains("<name>add</name>"));
/// assert!(second.tools.is_empty());
/// let tool_core::model::Message::User { content } = &second.messages[2] else { panic!() };
/// assert!(content.contains("<output>5</output>"));
/// ```
#[derive(Debug, Clone)]
pub struct XmlMode<M> {
    inner: M,
    run_fenced_calls: bool,
}

impl<M: Model> XmlMode<M> {
    /// XML mode over `inner`.
    pub fn new(inner: M) -> Self {
        XmlMode {
            inner,
            run_fenced_calls: false,
        }
    }

    /// Also runs `<use_tool>` blocks the model put inside a markdown code fence (off by
    /// default: a model showing an example is not asking for a call).
    pub fn run_fenced_calls(mut self, run: bool) -> Self {
        self.run_fenced_calls = run;
        self
    }

    /// The wrapped model.
    pub fn inner(&self) -> &M {
        &self.inner
    }
}

impl<M: Model> Model for XmlMode<M> {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let messages = text_conversation(request.messages);
        let instructions = instructions(&request);
        let parser = XmlParser::with_options(ParserOptions {
            run_fenced_calls: self.run_fenced_calls,
            known_tools: Some(
                request
                    .tools
                    .definitions()
                    .iter()
                    .map(|d| d.name.clone())
                    .collect(),
            ),
            ..ParserOptions::default()
        });
        queue_stream(move |out| async move {
            let mut inner_request = ModelRequest::new(&messages, OfferedTools::none());
            if !instructions.is_empty() {
                inner_request = inner_request.with_instructions(&instructions);
            }
            let mut inner = self.inner.stream(inner_request);
            let mut reply = Reply::new(parser);
            loop {
                match next_item(inner.as_mut()).await {
                    Some(Ok(ModelEvent::TextDelta(delta))) => {
                        for event in reply.feed(&delta) {
                            out.send(Ok(event)).await;
                        }
                    }
                    Some(Ok(ModelEvent::Finished(turn))) => {
                        for event in reply.finish(turn) {
                            out.send(Ok(event)).await;
                        }
                        return;
                    }
                    // A plain-text model has no calls of its own to report.
                    Some(Ok(_)) => {}
                    Some(Err(error)) => {
                        out.send(Err(error)).await;
                        return;
                    }
                    None => {
                        out.send(Err(ModelError::new(
                            ModelErrorKind::Incomplete,
                            "the model's stream ended before the turn was finished",
                        )))
                        .await;
                        return;
                    }
                }
            }
        })
    }
}

/// The state of one reply being parsed.
struct Reply {
    parser: XmlParser,
    raw: String,
    text: String,
    calls: Vec<ToolCall>,
    events: Vec<Event>,
}

impl Reply {
    fn new(parser: XmlParser) -> Self {
        Reply {
            parser,
            raw: String::new(),
            text: String::new(),
            calls: Vec::new(),
            events: Vec::new(),
        }
    }

    fn feed(&mut self, delta: &str) -> Vec<ModelEvent> {
        self.raw.push_str(delta);
        let mut events = std::mem::take(&mut self.events);
        self.parser.feed(delta, &mut events);
        let out = self.convert(&mut events);
        self.events = events;
        out
    }

    fn finish(mut self, inner: ModelTurn) -> Vec<ModelEvent> {
        let mut out = Vec::new();
        // A model that does not stream hands its whole text over at the end.
        if self.raw.is_empty() && !inner.text.is_empty() {
            out = self.feed(&inner.text);
        }
        let reason = match inner.stop_reason {
            StopReason::EndTurn | StopReason::ToolUse => EndReason::Stop,
            StopReason::MaxTokens => EndReason::Length,
            _ => EndReason::Other,
        };
        let mut events = std::mem::take(&mut self.events);
        self.parser.finish(reason, &mut events);
        out.extend(self.convert(&mut events));
        let stop_reason = if self.calls.is_empty() {
            inner.stop_reason
        } else {
            StopReason::ToolUse
        };
        out.push(ModelEvent::Finished(ModelTurn {
            text: self.text,
            calls: self.calls,
            stop_reason,
            usage: inner.usage,
            native: Some(NativeContent::new(XML_PROVIDER, Value::String(self.raw))),
        }));
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
                Event::Name { index, name } => out.push(ModelEvent::CallStarted {
                    index: self.calls.len(),
                    id: call_id(index),
                    name,
                }),
                Event::ArgumentsDelta { delta, .. } => out.push(ModelEvent::ArgumentsDelta {
                    index: self.calls.len(),
                    delta: delta.to_string(),
                }),
                Event::CallComplete { call, .. } => out.push(self.add_call(call)),
                Event::CallError { id, name, span, .. } => {
                    let block = self.raw.get(span).unwrap_or_default();
                    let call = ToolCall::new(id, name.unwrap_or_default(), raw_arguments(block));
                    out.push(self.add_call(call));
                }
                // The `<use_tool>` parser reports no reasoning or markup (only harmony does).
                Event::CallStarted { .. }
                | Event::CallIncomplete { .. }
                | Event::Diagnostic(_)
                | Event::Reasoning(_)
                | Event::Markup(_) => {}
            }
        }
        out
    }

    fn add_call(&mut self, call: ToolCall) -> ModelEvent {
        let index = self.calls.len();
        self.calls.push(call.clone());
        ModelEvent::CallReady { index, call }
    }
}

/// The parser's ids, so the ids in events and in the finished turn agree.
fn call_id(index: usize) -> String {
    format!("{}{index}", ParserOptions::default().id_prefix)
}

/// What the model wrote inside `<arguments>` in a rejected block (the whole block when the
/// element cannot be found), for the dispatcher to judge.
fn raw_arguments(block: &str) -> String {
    let start = block.find("<arguments>").map(|i| i + "<arguments>".len());
    let end = block.rfind("</arguments>");
    match (start, end) {
        (Some(start), Some(end)) if start <= end => block.get(start..end).unwrap_or(block),
        (Some(start), None) => block.get(start..).unwrap_or(block),
        _ => block,
    }
    .trim()
    .to_string()
}

/// The instructions for the inner model: the application's, then the TOOLS section.
fn instructions(request: &ModelRequest<'_>) -> String {
    let mut out = request.instructions.unwrap_or_default().to_string();
    if request.tools.is_empty() || *request.tool_choice == ToolChoice::None {
        return out;
    }
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(&request.tools.tools_prompt());
    match request.tool_choice {
        ToolChoice::Required => out.push_str("\nIn this reply you must use at least one tool.\n"),
        ToolChoice::Tool(name) => {
            out.push_str("\nIn this reply you must use the tool '");
            escape_text(name, &mut out);
            out.push_str("'.\n");
        }
        ToolChoice::Auto | ToolChoice::None => {}
    }
    out
}

/// The conversation as plain text: assistant turns as the model wrote them, results as the
/// `<tool_results>` follow-up message.
fn text_conversation(messages: &[Message]) -> Vec<Message> {
    messages
        .iter()
        .map(|message| match message {
            Message::Assistant(turn) => Message::Assistant(ModelTurn {
                text: reply_text(turn),
                stop_reason: turn.stop_reason.clone(),
                usage: turn.usage,
                ..ModelTurn::default()
            }),
            Message::Tool { results } => {
                let items: Vec<ToolResultItem<'_>> = results
                    .iter()
                    .map(|r| ToolResultItem {
                        name: &r.name,
                        response: &r.response,
                    })
                    .collect();
                Message::user(render_tool_results(&items))
            }
            other => other.clone(),
        })
        .collect()
}

/// The raw reply of an XML-mode turn; any other turn (another model earlier in the
/// conversation) written in the `<use_tool>` format.
fn reply_text(turn: &ModelTurn) -> String {
    if let Some(NativeContent {
        provider,
        content: Value::String(raw),
    }) = &turn.native
    {
        if provider == XML_PROVIDER {
            return raw.clone();
        }
    }
    let mut out = turn.text.clone();
    for call in &turn.calls {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("<use_tool>\n<tool_name>");
        escape_text(&call.name, &mut out);
        out.push_str("</tool_name>\n<arguments>");
        out.push_str(&call.arguments);
        out.push_str("</arguments>\n</use_tool>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejected_blocks_pass_on_what_the_model_wrote_inside_arguments() {
        assert_eq!(
            raw_arguments(
                "<use_tool><tool_name>a</tool_name><arguments> [1, 2] </arguments></use_tool>"
            ),
            "[1, 2]"
        );
        assert_eq!(
            raw_arguments("<use_tool><tool_name>a</tool_name><arguments>{\"x\":"),
            "{\"x\":"
        );
        assert_eq!(
            raw_arguments("<use_tool>junk</use_tool>"),
            "<use_tool>junk</use_tool>"
        );
    }

    #[test]
    fn turns_of_other_models_are_written_in_the_use_tool_format() {
        let turn = ModelTurn::with_calls("Checking.", vec![ToolCall::new("1", "f", r#"{"x":1}"#)]);
        assert_eq!(
            reply_text(&turn),
            "Checking.\n<use_tool>\n<tool_name>f</tool_name>\n<arguments>{\"x\":1}</arguments>\n</use_tool>"
        );
    }
}
