//! [`ScriptedModel`]: canned assistant turns, streamed in small chunks, no network.

use std::sync::{Arc, Mutex, PoisonError};

use crate::provider::ToolChoice;

use super::{
    from_events, JsonOutput, Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest,
    ModelStream, ModelTurn, Reasoning,
};

/// A model that plays a script: the n-th assistant turn of a conversation is the script's
/// n-th entry, streamed as the real adapters stream (reasoning, then text in chunks, then each call
/// started, its arguments in chunks, ready, then the finished turn).
///
/// The turn is chosen by counting the assistant messages already in the request, so one
/// scripted model serves any number of runs, and a run restored from storage continues where
/// it stopped. It records what each request carried, for tests ([`ScriptedModel::requests`]).
///
/// ```
/// use tool_core::model::{self, Message, Model, ModelEvent, ModelRequest, ModelTurn, OfferedTools, ScriptedModel};
///
/// let model = ScriptedModel::new([ModelTurn::text("Hello, world")]).with_chunk_size(5);
/// let messages = [Message::user("Hi")];
/// let stream = model.stream(ModelRequest::new(&messages, OfferedTools::none()));
/// let events = tool_core::block_on(async {
///     let mut stream = stream;
///     let mut out = Vec::new();
///     while let Some(e) = std::future::poll_fn(|cx| stream.as_mut().poll_next(cx)).await { out.push(e.unwrap()); }
///     out
/// });
/// assert_eq!(events[0], ModelEvent::TextDelta("Hello".into()));
/// assert_eq!(events[1], ModelEvent::TextDelta(", wor".into()));
/// assert!(matches!(events.last(), Some(ModelEvent::Finished(t)) if t.text == "Hello, world"));
/// # use tool_core::model::Stream;
/// ```
#[derive(Debug, Clone)]
pub struct ScriptedModel {
    script: Arc<[Result<ModelTurn, ModelError>]>,
    chunk_size: usize,
    record: bool,
    native_output: bool,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
}

/// What one request to a [`ScriptedModel`] carried.
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::{RunOptions, Runner};
/// let model = ScriptedModel::new([ModelTurn::text("Hi!")]);
/// let runner = Runner::new(model.clone(), tool_core::ToolRegistry::new())
///     .with_options(RunOptions::new().instructions("Be brief."));
/// tool_core::block_on(runner.run("Hello")).unwrap();
/// let seen = &model.requests()[0];
/// assert_eq!((seen.instructions.as_deref(), seen.messages.len()), (Some("Be brief."), 1));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SeenRequest {
    /// The instructions.
    pub instructions: Option<String>,
    /// Names of the offered tools, in order.
    pub tools: Vec<String>,
    /// `tool_choice`.
    pub tool_choice: ToolChoice,
    /// The parallel-calls flag.
    pub parallel_tool_calls: bool,
    /// The conversation.
    pub messages: Vec<Message>,
    /// The reasoning asked for.
    pub reasoning: Option<Reasoning>,
    /// The JSON answer asked for through native structured output, if any.
    pub output: Option<JsonOutput>,
}

impl ScriptedModel {
    /// A model that answers turn n with `turns[n]`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let model = ScriptedModel::new([ModelTurn::text("First answer")]);
    /// let runner = Runner::new(model, tool_core::ToolRegistry::new());
    /// assert_eq!(tool_core::block_on(runner.run("Hi")).unwrap().text(), Some("First answer"));
    /// ```
    pub fn new(turns: impl IntoIterator<Item = ModelTurn>) -> Self {
        ScriptedModel::from_results(turns.into_iter().map(Ok))
    }

    /// A script in which some turns fail.
    ///
    /// ```
    /// use tool_core::model::{ModelError, ModelErrorKind, ScriptedModel};
    /// use tool_core::runner::{RunError, Runner};
    /// let model = ScriptedModel::from_results([Err(ModelError::from_status(503, "overloaded"))]);
    /// let error = tool_core::block_on(Runner::new(model, tool_core::ToolRegistry::new()).run("Hi")).unwrap_err();
    /// assert!(matches!(error, RunError::Model(e) if e.kind() == ModelErrorKind::Server));
    /// ```
    pub fn from_results(turns: impl IntoIterator<Item = Result<ModelTurn, ModelError>>) -> Self {
        ScriptedModel {
            script: turns.into_iter().collect(),
            chunk_size: 8,
            record: true,
            native_output: false,
            seen: Arc::default(),
        }
    }

    /// Streams text and arguments in pieces of at most `bytes` bytes (default 8; split on
    /// character boundaries).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// let model = ScriptedModel::new([ModelTurn::text("abcdef")]).with_chunk_size(2);
    /// let runner = Runner::new(model, tool_core::ToolRegistry::new());
    /// let events = tool_core::block_on(runner.run_streamed("Hi").collect_events());
    /// let deltas = events.iter().filter(|e| matches!(e, RunEvent::TextDelta { .. })).count();
    /// assert_eq!(deltas, 3);
    /// ```
    pub fn with_chunk_size(mut self, bytes: usize) -> Self {
        self.chunk_size = bytes.max(1);
        self
    }

    /// Stops recording requests (recording copies the conversation on every request; a
    /// benchmark of the loop should not pay for it).
    ///
    /// ```
    /// let m = tool_core::model::ScriptedModel::new([]).without_recording();
    /// assert!(m.requests().is_empty());
    /// ```
    pub fn without_recording(mut self) -> Self {
        self.record = false;
        self
    }

    /// Acts like a provider with native structured output: a run asking for a typed answer
    /// sends its schema in [`ModelRequest::output`] and reads the answer from the text,
    /// instead of offering a final-answer tool.
    ///
    /// ```
    /// use tool_core::model::{Model, ScriptedModel};
    /// assert!(ScriptedModel::new([]).with_native_output().native_output(true));
    /// ```
    pub fn with_native_output(mut self) -> Self {
        self.native_output = true;
        self
    }

    /// The requests received so far, oldest first (shared between clones).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let model = ScriptedModel::new([ModelTurn::text("Hi!")]);
    /// let runner = Runner::new(model.clone(), tool_core::ToolRegistry::new());
    /// tool_core::block_on(runner.run("Hello")).unwrap();
    /// assert_eq!(model.requests().len(), 1); // clones share what they saw
    /// ```
    pub fn requests(&self) -> Vec<SeenRequest> {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn events(&self, turn: &ModelTurn) -> Vec<Result<ModelEvent, ModelError>> {
        let mut events = Vec::new();
        for piece in chunks(&turn.reasoning, self.chunk_size) {
            events.push(Ok(ModelEvent::ReasoningDelta(piece.to_string())));
        }
        for piece in chunks(&turn.text, self.chunk_size) {
            events.push(Ok(ModelEvent::TextDelta(piece.to_string())));
        }
        for (index, call) in turn.calls.iter().enumerate() {
            events.push(Ok(ModelEvent::CallStarted {
                index,
                id: call.id.clone(),
                name: call.name.clone(),
            }));
            for piece in chunks(&call.arguments, self.chunk_size) {
                events.push(Ok(ModelEvent::ArgumentsDelta {
                    index,
                    delta: piece.to_string(),
                }));
            }
            events.push(Ok(ModelEvent::CallReady {
                index,
                call: call.clone(),
            }));
        }
        events.push(Ok(ModelEvent::Finished(turn.clone())));
        events
    }
}

impl Model for ScriptedModel {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        if self.record {
            self.record(&request);
        }
        let index = request
            .messages
            .iter()
            .filter(|m| matches!(m, Message::Assistant(_)))
            .count();
        let events = match self.script.get(index) {
            Some(Ok(turn)) => self.events(turn),
            Some(Err(error)) => vec![Err(error.clone())],
            None => vec![Err(ModelError::new(
                ModelErrorKind::Other,
                format!(
                    "the script has no turn {} (it has {})",
                    index + 1,
                    self.script.len()
                ),
            ))],
        };
        from_events(events)
    }

    fn native_output(&self, _with_tools: bool) -> bool {
        self.native_output
    }

    fn provider_name(&self) -> &str {
        "scripted"
    }

    fn model_name(&self) -> &str {
        "scripted"
    }
}

impl ScriptedModel {
    fn record(&self, request: &ModelRequest<'_>) {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(SeenRequest {
                instructions: request.instructions.map(str::to_string),
                tools: request
                    .tools
                    .definitions()
                    .iter()
                    .map(|d| d.name.clone())
                    .collect(),
                tool_choice: request.tool_choice.clone(),
                parallel_tool_calls: request.parallel_tool_calls,
                messages: request.messages.to_vec(),
                reasoning: request.reasoning.copied(),
                output: request.output.cloned(),
            });
    }
}

/// Splits `text` into pieces of at most `size` bytes, never inside a character.
fn chunks(text: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = size.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_never_split_a_character() {
        let pieces: Vec<&str> = chunks("héllo wörld", 2).collect();
        assert_eq!(pieces.concat(), "héllo wörld");
        assert!(pieces.iter().all(|p| p.len() <= 3));
        assert_eq!(pieces[0], "h\u{e9}");
    }
}
