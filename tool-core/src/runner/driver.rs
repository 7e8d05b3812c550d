//! [`Runner`]: the async driver around the sans-IO [`Run`].

use std::future::poll_fn;
use std::sync::Arc;

use crate::call::ToolCall;
use crate::context::{CallContext, CancelFlag};
use crate::dispatch::CallOptions;
use crate::model::{Model, ModelError, ModelErrorKind, ModelEvent};
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

use super::early::{push_result, run_batch, EarlyCalls};
use super::error::RunError;
use super::event::RunEvent;
use super::options::RunOptions;
use super::result::RunResult;
use super::run::{Run, RunOutcome, Step};
use super::stream::{EventSink, RunStream};
use super::telemetry::{self, Chat};

/// Runs the agent loop: a [`Model`], a [`ToolRegistry`] and default [`RunOptions`].
///
/// It drives a [`Run`] with no executor of its own: model streams and tool futures are polled
/// on the caller's task (tokio, `block_on`, anything), and the calls of one turn run
/// concurrently there, results in call order.
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::Runner;
/// use tool_core::{tool, tools, ToolCall};
///
/// /// Current weather for a city.
/// #[tool(read_only)]
/// fn get_weather(city: String) -> String { format!("21 C and sunny in {city}") }
///
/// let model = ScriptedModel::new([
///     ModelTurn::with_calls("Let me check.", vec![ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#)]),
///     ModelTurn::text("It is 21 C and sunny in Paris."),
/// ]);
/// let runner = Runner::new(model, tools![get_weather]);
/// let result = tool_core::block_on(runner.run("Weather in Paris?")).unwrap();
/// assert_eq!(result.text(), Some("It is 21 C and sunny in Paris."));
/// assert_eq!(result.run.turns(), 2);
/// ```
pub struct Runner<M> {
    model: M,
    registry: Arc<ToolRegistry>,
    options: RunOptions,
    context: CallContext,
    /// Record message content on the `chat` spans (feature `tracing`).
    trace_content: bool,
}

impl<M: Clone> Clone for Runner<M> {
    fn clone(&self) -> Self {
        Runner {
            model: self.model.clone(),
            registry: Arc::clone(&self.registry),
            options: self.options.clone(),
            context: self.context.clone(),
            trace_content: self.trace_content,
        }
    }
}

impl<M> std::fmt::Debug for Runner<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("tools", &self.registry.names().collect::<Vec<_>>())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<M: Model> Runner<M> {
    /// A runner with the default [`RunOptions`].
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// assert_eq!(runner.options().max_turns, 10);
    /// assert_eq!(tool_core::block_on(runner.run("Hello")).unwrap().text(), Some("Hi!"));
    /// ```
    pub fn new(model: M, registry: impl Into<Arc<ToolRegistry>>) -> Self {
        Runner {
            model,
            registry: registry.into(),
            options: RunOptions::default(),
            context: CallContext::new(),
            trace_content: false,
        }
    }

    /// Sets the options new runs start with.
    ///
    /// ```
    /// # use tool_core::{model::ScriptedModel, runner::{Runner, RunOptions}, ToolRegistry};
    /// let runner = Runner::new(ScriptedModel::new([]), ToolRegistry::new()).with_options(RunOptions::new().max_turns(3));
    /// assert_eq!(runner.options().max_turns, 3);
    /// ```
    pub fn with_options(mut self, options: RunOptions) -> Self {
        self.options = options;
        self
    }

    /// Hands tools that take context parameters these extensions on every call (the run's
    /// cancellation flag is added per run).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools, CallContext, Extension, ToolCall};
    ///
    /// /// Greets the signed-in user.
    /// #[tool]
    /// fn greet(user: Extension<String>) -> String { format!("Hello, {}", user.0) }
    ///
    /// let model = ScriptedModel::new([
    ///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "greet", "{}")]),
    ///     ModelTurn::text("Done."),
    /// ]);
    /// let runner = Runner::new(model, tools![greet])
    ///     .with_context(CallContext::new().with_extension(String::from("Ada")));
    /// let result = tool_core::block_on(runner.run("Greet me")).unwrap();
    /// let tool_core::model::Message::Tool { results } = &result.messages()[2] else { panic!() };
    /// assert_eq!(results[0].response.model_text(), "Hello, Ada");
    /// ```
    pub fn with_context(mut self, context: CallContext) -> Self {
        self.context = context;
        self
    }

    /// With the `tracing` feature, records the conversation and each answer on the `chat`
    /// spans (`gen_ai.input.messages`, `gen_ai.output.messages`). Off by default: messages
    /// may hold personal data, and observability backends keep what they receive.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([]), tool_core::ToolRegistry::new()).with_trace_content(true);
    /// # let _ = runner;
    /// ```
    pub fn with_trace_content(mut self, record: bool) -> Self {
        self.trace_content = record;
        self
    }

    /// The model.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi")]), tool_core::ToolRegistry::new());
    /// tool_core::block_on(runner.run("Hello")).unwrap();
    /// assert_eq!(runner.model().requests().len(), 1);
    /// ```
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The registry.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let runner = Runner::new(ScriptedModel::new([]), tools![hi]);
    /// assert_eq!(runner.registry().names().collect::<Vec<_>>(), ["hi"]);
    /// ```
    pub fn registry(&self) -> &Arc<ToolRegistry> {
        &self.registry
    }

    /// The options new runs start with.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::{RunOptions, Runner};
    /// let runner = Runner::new(ScriptedModel::new([]), tool_core::ToolRegistry::new())
    ///     .with_options(RunOptions::new().instructions("Be brief."));
    /// assert_eq!(runner.options().instructions.as_deref(), Some("Be brief."));
    /// ```
    pub fn options(&self) -> &RunOptions {
        &self.options
    }

    /// A new run of `input` with this runner's options, not yet started.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// use tool_core::runner::{RunOptions, Runner};
    /// let runner = Runner::new(ScriptedModel::new([]), tool_core::ToolRegistry::new())
    ///     .with_options(RunOptions::new().max_turns(2));
    /// let run = runner.start("Hello");
    /// assert_eq!((run.turns(), run.options().max_turns, run.messages().len()), (0, 2, 1));
    /// ```
    pub fn start(&self, input: impl Into<String>) -> Run {
        Run::new(input, self.options.clone())
    }

    /// Runs the loop from one user message to the outcome.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunError, Runner};
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let result = tool_core::block_on(runner.run("Hello")).unwrap();
    /// assert_eq!((result.text(), result.run.turns()), (Some("Hi!"), 1));
    ///
    /// let failing = ScriptedModel::from_results([Err(tool_core::model::ModelError::from_status(401, "bad key"))]);
    /// let runner = Runner::new(failing, tool_core::ToolRegistry::new());
    /// assert!(matches!(tool_core::block_on(runner.run("Hello")), Err(RunError::Model(_))));
    /// ```
    pub async fn run(&self, input: impl Into<String>) -> Result<RunResult, RunError> {
        self.resume(self.start(input)).await
    }

    /// Continues a run (e.g. one restored after approval decisions) to its next outcome.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(
    ///     ScriptedModel::new([ModelTurn::text("Hi!"), ModelTurn::text("Salut !")]),
    ///     tool_core::ToolRegistry::new(),
    /// );
    /// let mut run = tool_core::block_on(runner.run("Hello")).unwrap().into_run();
    /// run.follow_up("And in French?").unwrap();
    /// let result = tool_core::block_on(runner.resume(run)).unwrap();
    /// assert_eq!(result.text(), Some("Salut !"));
    /// ```
    pub async fn resume(&self, mut run: Run) -> Result<RunResult, RunError> {
        let outcome = self.drive(&mut run, &CancelFlag::new()).await?;
        Ok(RunResult { outcome, run })
    }

    /// Drives `run` until it finishes, pauses for approval, fails, or `cancel` is set (then
    /// it stops after the step in progress; running tools see the flag in their context).
    /// On error the run is left before the failing step, so it can be driven again.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOutcome, Runner};
    /// use tool_core::CancelFlag;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut run = runner.start("Hello");
    /// let cancel = CancelFlag::new();
    /// cancel.cancel(); // e.g. the user pressed Stop
    /// let outcome = tool_core::block_on(runner.drive(&mut run, &cancel)).unwrap();
    /// assert_eq!(outcome, RunOutcome::Cancelled);
    /// ```
    pub async fn drive(&self, run: &mut Run, cancel: &CancelFlag) -> Result<RunOutcome, RunError> {
        drive(self, run, cancel, None).await
    }

    /// [`Runner::run`] as a stream of [`RunEvent`]s, ending with `RunFinished` or
    /// `RunFailed`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hello there")]), tool_core::ToolRegistry::new());
    /// let events = tool_core::block_on(runner.run_streamed("Hi").collect_events());
    /// let text: String = events.iter().filter_map(|e| match e { RunEvent::TextDelta { text } => Some(text.as_str()), _ => None }).collect();
    /// assert_eq!(text, "Hello there");
    /// assert!(matches!(events.last(), Some(RunEvent::RunFinished { .. })));
    /// ```
    pub fn run_streamed(&self, input: impl Into<String>) -> RunStream<'_> {
        self.resume_streamed(self.start(input), CancelFlag::new())
    }

    /// [`Runner::drive`] as a stream of [`RunEvent`]s; the run is handed back by
    /// [`RunStream::take_run`] once the stream has ended.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// use tool_core::CancelFlag;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut stream = runner.resume_streamed(runner.start("Hello"), CancelFlag::new());
    /// let mut last = None;
    /// tool_core::block_on(async { while let Some(e) = stream.next_event().await { last = Some(e) } });
    /// assert!(matches!(last, Some(RunEvent::RunFinished { turns: 1, .. })));
    /// assert_eq!(stream.take_run().unwrap().messages().len(), 2);
    /// ```
    pub fn resume_streamed(&self, run: Run, cancel: CancelFlag) -> RunStream<'_> {
        RunStream::new(move |sink| async move {
            let mut run = run;
            let result = drive(self, &mut run, &cancel, Some(&sink)).await;
            (run, result)
        })
    }
}

impl<M: Model + 'static> Runner<M> {
    /// [`Runner::resume_streamed`] on a shared runner, for a stream that must be `'static`
    /// (an HTTP response body, a spawned task).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// let runner = Arc::new(Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new()));
    /// let run = runner.start("Hello");
    /// let stream = runner.stream_shared(run, tool_core::CancelFlag::new()); // owns the runner
    /// let events = tool_core::block_on(stream.collect_events());
    /// assert!(matches!(events.last(), Some(RunEvent::RunFinished { .. })));
    /// ```
    pub fn stream_shared(self: Arc<Self>, run: Run, cancel: CancelFlag) -> RunStream<'static> {
        RunStream::new(move |sink| async move {
            let mut run = run;
            let result = drive(&self, &mut run, &cancel, Some(&sink)).await;
            (run, result)
        })
    }
}

/// Drives the run inside its `invoke_agent` span (feature `tracing`).
async fn drive<M: Model>(
    runner: &Runner<M>,
    run: &mut Run,
    cancel: &CancelFlag,
    sink: Option<&EventSink>,
) -> Result<RunOutcome, RunError> {
    let result =
        telemetry::in_agent_span(&runner.model, drive_steps(runner, run, cancel, sink)).await;
    // Every failure says what the run had spent, whichever step it came from.
    result.map_err(|error| error.with_usage(run.usage()))
}

async fn drive_steps<M: Model>(
    runner: &Runner<M>,
    run: &mut Run,
    cancel: &CancelFlag,
    sink: Option<&EventSink>,
) -> Result<RunOutcome, RunError> {
    let registry = &*runner.registry;
    let context = runner.context.clone().with_cancel(cancel.clone());
    run.choose_output(registry, |with_tools| {
        runner.model.native_output(with_tools)
    });
    // Asked only when it matters: a model that cannot tell from its name reports that it
    // falls back to the run's own search.
    if run.has_deferred_tools(registry) {
        run.use_native_tool_search(runner.model.native_tool_search());
    }
    run.restore_hooks(&runner.options);
    // Calls that start while the model still streams: the same dispatch options as the
    // turn's batch (see `run_batch`), held across turns.
    let gate = run.early_gate(registry);
    let early_offered: Option<Vec<&str>> = gate
        .as_ref()
        .and_then(|gate| gate.offered())
        .map(|names| names.iter().map(String::as_str).collect());
    let mut early_options = CallOptions::new().context(&context).model_calls();
    if let Some(offered) = &early_offered {
        early_options = early_options.offer(offered);
    }
    let mut early = EarlyCalls::new(run.options().max_concurrency);
    loop {
        if cancel.is_cancelled() {
            run.cancel();
        }
        let turn_number = run.turns() + 1;
        match run.step(registry)? {
            Step::CallModel(request) => {
                emit(sink, || RunEvent::TurnStarted { turn: turn_number }).await;
                let chat = Chat::start(&runner.model, &request, runner.trace_content);
                let mut stream = runner.model.stream(request);
                let mut announced: Vec<bool> = Vec::new();
                let mut on_done = |call: &ToolCall, response: &ToolResponse| {
                    push_result(sink, call, response);
                };
                let turn = loop {
                    let item = poll_fn(|cx| {
                        early.poll_calls(cx, &mut on_done);
                        chat.in_scope(|| stream.as_mut().poll_next(cx))
                    })
                    .await;
                    let event = match item {
                        Some(Ok(event)) => event,
                        Some(Err(error)) => {
                            chat.fail(&error);
                            return Err(RunError::Model(error));
                        }
                        None => {
                            let error = ModelError::new(
                                ModelErrorKind::Incomplete,
                                "the model's stream ended before the turn was finished",
                            );
                            chat.fail(&error);
                            return Err(RunError::Model(error));
                        }
                    };
                    let event = match event {
                        ModelEvent::Finished(turn) => break turn,
                        ModelEvent::TextDelta(text) => RunEvent::TextDelta { text },
                        ModelEvent::ReasoningDelta(text) => RunEvent::ReasoningDelta { text },
                        ModelEvent::CallStarted { index, id, name } => {
                            RunEvent::CallStarted { index, id, name }
                        }
                        ModelEvent::ArgumentsDelta { index, delta } => {
                            RunEvent::ArgumentsDelta { index, delta }
                        }
                        ModelEvent::CallReady { index, call } => {
                            if announced.len() <= index {
                                announced.resize(index + 1, false);
                            }
                            if let Some(slot) = announced.get_mut(index) {
                                *slot = true;
                            }
                            let may_start = gate.as_ref().is_some_and(|gate| {
                                !cancel.is_cancelled()
                                    && early.has_room()
                                    && gate.allows(&call, registry)
                            });
                            if may_start {
                                let owned = call.clone();
                                let options = &early_options;
                                let future =
                                    async move { registry.call_with(&owned, options).await };
                                early.start(index, call.clone(), Box::pin(future));
                            }
                            RunEvent::CallReady { index, call }
                        }
                    };
                    emit(sink, || event).await;
                };
                drop(stream);
                chat.finish(&turn, runner.trace_content);
                for (index, call) in turn.calls.iter().enumerate() {
                    if !announced.get(index).copied().unwrap_or(false) {
                        emit(sink, || RunEvent::CallReady {
                            index,
                            call: call.clone(),
                        })
                        .await;
                    }
                }
                emit(sink, || RunEvent::TurnFinished {
                    turn: turn_number,
                    stop_reason: turn.stop_reason.clone(),
                    usage: turn.usage,
                })
                .await;
                run.record_turn(turn, registry)?;
                // Calls that started early and finished while others wait for a person are
                // kept, so the resumed run does not run them again.
                if !early.is_empty() && matches!(run.step(registry)?, Step::AwaitApproval(_)) {
                    let ran = early.finish(|call, response| push_result(sink, call, response));
                    run.record_ran(ran.await);
                }
            }
            Step::RunTools(batch) => {
                for denied in batch.denied {
                    emit(sink, || RunEvent::ToolResult {
                        call_id: denied.call_id.clone(),
                        name: denied.name.clone(),
                        response: denied.response.clone(),
                    })
                    .await;
                }
                let responses = run_batch(registry, batch, &context, &mut early, sink).await;
                run.record_results(responses)?;
            }
            Step::AwaitApproval(calls) => {
                let calls: Vec<ToolCall> = calls.into_iter().cloned().collect();
                emit(sink, || RunEvent::ApprovalRequired {
                    calls: calls.clone(),
                })
                .await;
                return Ok(RunOutcome::AwaitingApproval { calls });
            }
            Step::Done(outcome) => return Ok(outcome.clone()),
        }
    }
}

/// Hands an event to the stream's consumer (building it only when someone listens) and lets
/// the consumer take it before the run goes on, so text is never held back behind a call.
async fn emit(sink: Option<&EventSink>, event: impl FnOnce() -> RunEvent) {
    if let Some(sink) = sink {
        sink.push(event());
        sink.flush().await;
    }
}
