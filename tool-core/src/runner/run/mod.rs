//! [`Run`]: the sans-IO state machine of one agent run.

use serde::{Deserialize, Serialize};

use crate::definition::ToolDefinition;
use crate::model::{Message, ModelRequest, ModelTurn, OfferedTools, ToolResult, Usage};
use crate::provider::ToolChoice;
use crate::registry::ToolRegistry;
use crate::response::{ToolErrorCode, ToolResponse};

use super::error::RunError;
use super::options::{choice_serde, RunOptions};

mod access;
mod allowed;
mod approval;
mod deferred;
mod early;
mod output;
mod phase;
mod step;

use phase::{last_calls, paused, pending, plan_tools, Phase, Verdict};
pub use step::{RunOutcome, Step, ToolBatch};

/// One run: the neutral conversation, the options, and where the loop stands. It does no I/O
/// and never awaits: [`Run::step`] says what to do next, and the caller reports what happened
/// with [`Run::record_turn`], [`Run::record_results`] and [`Run::decide`]. Any transport and
/// any executor can drive it; [`Runner`](super::Runner) is the async driver.
///
/// The whole state is `serde`-serializable, so a run paused for approval can be stored and
/// resumed in another process.
///
/// ```
/// use tool_core::model::ModelTurn;
/// use tool_core::runner::{Run, RunOptions, RunOutcome, Step};
/// use tool_core::{tool, tools, ToolCall};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
/// let registry = tools![add];
///
/// let mut run = Run::new("What is 2 + 3?", RunOptions::default());
/// // 1. The run asks for a model turn; here the model calls `add`.
/// assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(_)));
/// let call = ToolCall::new("c1", "add", r#"{"a":2,"b":3}"#);
/// run.record_turn(ModelTurn::with_calls("", vec![call]), &registry).unwrap();
/// // 2. The run asks for the call to be run; the caller runs it however it likes.
/// let Step::RunTools(batch) = run.step(&registry).unwrap() else { panic!() };
/// let results = batch.calls.iter().map(|c| registry.call_blocking(c)).collect();
/// run.record_results(results).unwrap();
/// // 3. The model answers with text: the run is done.
/// assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(_)));
/// run.record_turn(ModelTurn::text("5"), &registry).unwrap();
/// let Step::Done(RunOutcome::Finished { text }) = run.step(&registry).unwrap() else { panic!() };
/// assert_eq!(text, "5");
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    options: RunOptions,
    messages: Vec<Message>,
    /// The `tool_choice` of the next request (the options' one until a reset).
    #[serde(with = "choice_serde")]
    tool_choice: ToolChoice,
    turns: u32,
    usage: Usage,
    /// Model requests and tool calls made, for [`UsageLimits`](super::UsageLimits).
    #[serde(default)]
    requests: u32,
    #[serde(default)]
    tool_calls: u32,
    cancelled: bool,
    phase: Phase,
    /// Definitions of `options.offered`, looked up once per process.
    #[serde(skip)]
    offered: Option<Vec<ToolDefinition>>,
    /// Typed output: the way chosen, invalid answers so far.
    #[serde(default, skip_serializing_if = "output::OutputState::is_idle")]
    output: output::OutputState,
    /// The offered tools plus the final-answer tool, when typed output uses one.
    #[serde(skip)]
    output_tools: Option<Vec<ToolDefinition>>,
    /// Deferred tools found by the run's `search_tools`, in the order found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    loaded_tools: Vec<String>,
    /// The model searches deferred tools itself (see [`Run::use_native_tool_search`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    native_tool_search: bool,
    /// The next request's tools when the run shapes them (its tool search, the per-turn
    /// hook); built once per turn.
    #[serde(skip)]
    shaped: Option<Vec<ToolDefinition>>,
    /// The deferred tools, read once per process.
    #[serde(skip)]
    catalogue: Option<std::sync::Arc<deferred::Catalogue>>,
}

/// Where the loop stands.
impl Run {
    /// A run that starts with one user message.
    ///
    /// ```
    /// use tool_core::model::Message;
    /// use tool_core::runner::{Run, RunOptions};
    /// let run = Run::new("Hello", RunOptions::default());
    /// assert_eq!(run.messages(), [Message::user("Hello")]);
    /// assert_eq!(run.turns(), 0);
    /// ```
    pub fn new(input: impl Into<String>, options: RunOptions) -> Self {
        Run::with_messages(vec![Message::user(input)], options)
    }

    /// A run that continues an existing conversation (which should end with a user message
    /// or tool results).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelTurn};
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// let history = vec![
    ///     Message::user("Hi"),
    ///     Message::Assistant(ModelTurn::text("Hello!")),
    ///     Message::user("How are you?"),
    /// ];
    /// let mut run = Run::with_messages(history, RunOptions::default());
    /// let registry = tool_core::ToolRegistry::new();
    /// assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(r) if r.messages.len() == 3));
    /// ```
    pub fn with_messages(messages: Vec<Message>, options: RunOptions) -> Self {
        // What the provider's own tool search loaded earlier in the conversation stays
        // callable.
        let mut loaded_tools = Vec::new();
        for message in &messages {
            if let Message::Assistant(turn) = message {
                deferred::provider_loaded(turn, &mut loaded_tools);
            }
        }
        Run {
            tool_choice: options.tool_choice.clone(),
            options,
            messages,
            turns: 0,
            usage: Usage::default(),
            requests: 0,
            tool_calls: 0,
            cancelled: false,
            phase: Phase::CallModel,
            offered: None,
            output: output::OutputState::default(),
            output_tools: None,
            loaded_tools,
            native_tool_search: false,
            shaped: None,
            catalogue: None,
        }
    }

    /// What to do next. Repeats itself until the matching `record_*` or [`Run::decide`] call.
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, RunOutcome, Step};
    /// let registry = tool_core::ToolRegistry::new();
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(_)));
    /// run.record_turn(ModelTurn::text("Hi!"), &registry).unwrap();
    /// assert!(matches!(run.step(&registry).unwrap(), Step::Done(RunOutcome::Finished { text }) if text == "Hi!"));
    /// ```
    pub fn step<'a>(&'a mut self, registry: &'a ToolRegistry) -> Result<Step<'a>, RunError> {
        if self.cancelled && !matches!(self.phase, Phase::RunTools { .. } | Phase::Done(_)) {
            self.phase = Phase::Done(RunOutcome::Cancelled);
        }
        if let Phase::Approval { verdicts } = &self.phase {
            if verdicts.iter().all(|v| *v != Verdict::Pending) {
                self.phase = plan_tools(verdicts, last_calls(&self.messages));
            }
        }
        if self.phase == Phase::CallModel
            && self.options.offered.is_some()
            && self.offered.is_none()
        {
            self.offered = Some(self.offered_definitions(registry)?);
        }
        if self.phase == Phase::CallModel {
            self.prepare_output_tools(registry);
            self.shape_tools(registry)?;
        }
        match &self.phase {
            Phase::CallModel => {
                if self.turns >= self.options.max_turns {
                    return Err(RunError::MaxTurns {
                        limit: self.options.max_turns,
                        usage: self.usage,
                    });
                }
                if let Some(error) = self.output_exhausted() {
                    return Err(error);
                }
                self.options
                    .usage_limits
                    .check_request(self.requests, self.usage)?;
                let tools = match (&self.shaped, &self.output_tools, &self.offered) {
                    (Some(definitions), _, _)
                    | (None, Some(definitions), _)
                    | (None, None, Some(definitions)) => {
                        OfferedTools::from_definitions(definitions)
                    }
                    (None, None, None) => OfferedTools::all(registry),
                };
                let mut request = ModelRequest::new(&self.messages, tools)
                    .with_tool_choice(self.request_tool_choice())
                    .with_parallel_tool_calls(self.options.parallel_tool_calls);
                if let Some(instructions) = &self.options.instructions {
                    request = request.with_instructions(instructions);
                }
                if let Some(reasoning) = &self.options.reasoning {
                    request = request.with_reasoning(reasoning);
                }
                if let Some(format) = self.native_format() {
                    request = request.with_output(format);
                }
                Ok(Step::CallModel(request))
            }
            Phase::Approval { verdicts } => Ok(Step::AwaitApproval(pending(
                verdicts,
                last_calls(&self.messages),
            ))),
            Phase::RunTools {
                approved,
                denied,
                subset,
                ..
            } => {
                let calls = subset
                    .as_deref()
                    .unwrap_or_else(|| last_calls(&self.messages));
                let limits = self.options.usage_limits;
                limits.check_tools(self.tool_calls, calls.len(), self.usage)?;
                Ok(Step::RunTools(ToolBatch {
                    calls: subset
                        .as_deref()
                        .unwrap_or_else(|| last_calls(&self.messages)),
                    approved,
                    denied,
                    offered: self.options.offered.as_deref(),
                    max_concurrency: self.options.max_concurrency,
                }))
            }
            Phase::Done(outcome) => Ok(Step::Done(outcome)),
        }
    }

    /// Reports the model's finished turn (after [`Step::CallModel`]).
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions, Step};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "hi", "{}")]), &registry).unwrap();
    /// assert_eq!(run.turns(), 1);
    /// assert!(matches!(run.step(&registry).unwrap(), Step::RunTools(batch) if batch.calls[0].id == "c1"));
    /// // A second turn before the results is refused.
    /// assert!(run.record_turn(ModelTurn::text("?"), &registry).is_err());
    /// ```
    pub fn record_turn(
        &mut self,
        turn: ModelTurn,
        registry: &ToolRegistry,
    ) -> Result<(), RunError> {
        if self.phase != Phase::CallModel {
            return Err(self.out_of_order("a model turn"));
        }
        // The tools this turn was offered; the next turn's are built again.
        let offered = self.shaped.take();
        self.turns += 1;
        self.requests = self.requests.saturating_add(1);
        if let Some(usage) = turn.usage {
            self.usage += usage;
        }
        if paused(&turn) {
            // The provider paused a long turn (Anthropic's `pause_turn`, while its server
            // tools run): the paused response goes back as it came, as the last message with
            // nothing after it, and the model continues the same turn.
            self.messages.push(Message::Assistant(turn));
            return Ok(());
        }
        // The tools this turn's calls may name, as the request said (before any reset).
        let allowed = self.allowed_this_turn();
        let forced = matches!(self.tool_choice, ToolChoice::Required | ToolChoice::Tool(_));
        if forced && self.options.reset_tool_choice {
            self.tool_choice = ToolChoice::Auto;
        }
        self.relax_allowed_choice();
        let mut invalid_call = None;
        match self.read_output(&turn) {
            output::OutputRead::None => {}
            output::OutputRead::Valid(value) => {
                self.close_output_turn(turn);
                self.phase = Phase::Done(RunOutcome::Output { value });
                return Ok(());
            }
            output::OutputRead::Retry { message, error } => {
                self.count_invalid(error);
                self.messages.push(Message::Assistant(turn));
                self.messages.push(Message::user(message));
                return Ok(());
            }
            output::OutputRead::InvalidCall {
                position,
                message,
                error,
            } => {
                self.count_invalid(error);
                invalid_call = Some((position, message));
            }
        }
        let mut answered = self.answer_calls(&turn, offered.as_deref(), registry);
        let stop_call = self
            .options
            .stop_at_tool
            .as_deref()
            .and_then(|stop| turn.calls.iter().find(|c| c.name == stop))
            .cloned();
        self.phase = if let Some(call) = stop_call {
            Phase::Done(RunOutcome::StoppedAtTool { call })
        } else if turn.calls.is_empty() {
            Phase::Done(RunOutcome::Finished {
                text: turn.text.clone(),
            })
        } else {
            let verdicts: Vec<Verdict> = turn
                .calls
                .iter()
                .enumerate()
                .map(|(position, call)| {
                    if let Some((_, message)) =
                        invalid_call.as_ref().filter(|(at, _)| *at == position)
                    {
                        Verdict::Invalid(message.clone())
                    } else if let Some(response) = answered.get_mut(position).and_then(Option::take)
                    {
                        Verdict::Ran(response)
                    } else if let Some(refusal) = allowed::refuse(allowed.as_deref(), call) {
                        // Answered without running, like a call that already ran.
                        Verdict::Ran(refusal)
                    } else if self.needs_approval(call, registry) {
                        Verdict::Pending
                    } else {
                        Verdict::Run
                    }
                })
                .collect();
            if verdicts.contains(&Verdict::Pending) {
                Phase::Approval { verdicts }
            } else {
                plan_tools(&verdicts, &turn.calls)
            }
        };
        self.messages.push(Message::Assistant(turn));
        Ok(())
    }

    /// Reports the responses of the batch's calls, one per call in order (after
    /// [`Step::RunTools`]). A missing response becomes an `ERROR`, so every call still gets
    /// exactly one result.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelTurn};
    /// use tool_core::runner::{Run, RunOptions};
    /// use tool_core::{tool, tools, ToolCall, ToolResponse};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.record_turn(ModelTurn::with_calls("", vec![ToolCall::new("c1", "hi", "{}")]), &registry).unwrap();
    /// run.record_results(vec![ToolResponse::success("hi")]).unwrap();
    /// let Some(Message::Tool { results }) = run.messages().last() else { panic!() };
    /// assert_eq!(results[0].call_id, "c1");
    /// assert_eq!(results[0].response.model_text(), "hi");
    /// ```
    pub fn record_results(&mut self, responses: Vec<ToolResponse>) -> Result<(), RunError> {
        if !matches!(self.phase, Phase::RunTools { .. }) {
            return Err(self.out_of_order("tool results"));
        }
        let Phase::RunTools {
            denied, denied_at, ..
        } = std::mem::replace(&mut self.phase, Phase::CallModel)
        else {
            return Err(self.out_of_order("tool results"));
        };
        let dispatched = last_calls(&self.messages)
            .len()
            .saturating_sub(denied_at.len());
        self.tool_calls = self
            .tool_calls
            .saturating_add(u32::try_from(dispatched).unwrap_or(u32::MAX));
        let mut responses = responses.into_iter();
        let mut denied = denied_at.into_iter().zip(denied).peekable();
        let results = last_calls(&self.messages)
            .iter()
            .enumerate()
            .map(|(position, call)| {
                if let Some((_, result)) = denied.next_if(|(at, _)| *at == position) {
                    return result;
                }
                let response = responses.next().unwrap_or_else(|| {
                    ToolResponse::error(
                        ToolErrorCode::Unknown,
                        format!(
                            "no result was produced for call '{}' of '{}'",
                            call.id, call.name
                        ),
                    )
                });
                ToolResult::new(call.id.clone(), call.name.clone(), response)
            })
            .collect();
        self.messages.push(Message::Tool { results });
        if self.cancelled {
            self.phase = Phase::Done(RunOutcome::Cancelled);
        }
        Ok(())
    }

    /// Asks the run to stop: the step in progress completes (running tools finish and their
    /// results are recorded), then [`Run::step`] answers [`RunOutcome::Cancelled`].
    ///
    /// ```
    /// use tool_core::runner::{Run, RunOptions, RunOutcome, Step};
    /// let registry = tool_core::ToolRegistry::new();
    /// let mut run = Run::new("Hello", RunOptions::default());
    /// run.cancel();
    /// assert!(matches!(run.step(&registry).unwrap(), Step::Done(RunOutcome::Cancelled)));
    /// ```
    pub fn cancel(&mut self) {
        self.cancelled = true;
    }

    /// Adds a user message to a finished run and makes it ready for the next model turn
    /// (the turn count starts again). Fails unless the run [`RunOutcome::Finished`].
    ///
    /// ```
    /// use tool_core::model::ModelTurn;
    /// use tool_core::runner::{Run, RunOptions};
    /// let registry = tool_core::ToolRegistry::new();
    /// let mut run = Run::new("Hi", RunOptions::default());
    /// run.record_turn(ModelTurn::text("Hello!"), &registry).unwrap();
    /// run.follow_up("And in French?").unwrap();
    /// assert_eq!(run.messages().len(), 3);
    /// ```
    pub fn follow_up(&mut self, input: impl Into<String>) -> Result<(), RunError> {
        if !matches!(
            self.phase,
            Phase::Done(RunOutcome::Finished { .. } | RunOutcome::Output { .. })
        ) {
            return Err(self.out_of_order("a follow-up message"));
        }
        self.messages.push(Message::user(input));
        self.turns = 0;
        self.reset_output_retries();
        self.phase = Phase::CallModel;
        Ok(())
    }

    fn offered_definitions(
        &self,
        registry: &ToolRegistry,
    ) -> Result<Vec<ToolDefinition>, RunError> {
        let names = self.options.offered.as_deref().unwrap_or_default();
        names
            .iter()
            .map(|name| {
                registry
                    .definition(name)
                    .cloned()
                    .ok_or_else(|| RunError::UnknownOfferedTool { name: name.clone() })
            })
            .collect()
    }

    fn out_of_order(&self, given: &'static str) -> RunError {
        let expected = match &self.phase {
            Phase::CallModel => "a model turn",
            Phase::Approval { .. } => "approval decisions",
            Phase::RunTools { .. } => "tool results",
            Phase::Done(_) => "nothing (the run is over)",
        };
        RunError::OutOfOrder { given, expected }
    }
}
