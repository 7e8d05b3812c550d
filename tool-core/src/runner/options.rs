//! [`RunOptions`]: what a run may do, with the defaults users expect.

use serde::{Deserialize, Serialize};

use crate::definition::ToolDefinition;
use crate::model::Reasoning;

use super::limits::UsageLimits;
use crate::provider::ToolChoice;

use super::hooks::{PrepareTools, SearchChoice, DEFAULT_SEARCH_LIMIT};
use super::output::OutputSpec;

/// How many model turns a run may take unless told otherwise.
pub(crate) const DEFAULT_MAX_TURNS: u32 = 10;

/// Settings of one run. They are part of the run's state, so a paused run resumes with the
/// same settings in another process.
///
/// Defaults: at most 10 model turns, `tool_choice` auto (reset to auto
/// after a turn in which it was forced), parallel calls allowed and run concurrently with no
/// cap, every tool offered, calls of `destructive` tools held for approval, stop on the first
/// turn without calls.
///
/// ```
/// use tool_core::provider::ToolChoice;
/// use tool_core::runner::{ApprovalPolicy, RunOptions};
///
/// let options = RunOptions::new()
///     .instructions("You are a travel agent.")
///     .max_turns(4)
///     .max_concurrency(2)
///     .tool_choice(ToolChoice::tool("search_flights"))
///     .approval(ApprovalPolicy::Never);
/// assert_eq!(options.max_turns, 4);
/// assert_eq!(RunOptions::default().max_turns, 10);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunOptions {
    /// The system prompt / developer instructions sent with every request.
    pub instructions: Option<String>,
    /// The most model turns the run may take; one more is a
    /// [`RunError::MaxTurns`](super::RunError::MaxTurns).
    pub max_turns: u32,
    /// `tool_choice` of the first request.
    #[serde(with = "choice_serde")]
    pub tool_choice: ToolChoice,
    /// After a turn sent with a forced `tool_choice` (`Required` or `Tool`), send `Auto` from
    /// then on, so the model can answer instead of calling the same tool forever. Default on.
    pub reset_tool_choice: bool,
    /// Whether the model may make several calls per turn.
    pub parallel_tool_calls: bool,
    /// At most this many calls of one turn run at the same time (`None`: all at once).
    /// Results are always in call order.
    pub max_concurrency: Option<usize>,
    /// Offer only these tools (by name, in this order); `None` offers the whole registry.
    /// Calls of any other tool are answered `PERMISSION_DENIED` without running.
    pub offered: Option<Vec<String>>,
    /// Which calls wait for a person's approval.
    pub approval: ApprovalPolicy,
    /// End the run as soon as the model calls this tool, without running it, and return its
    /// arguments (structured output through a forced tool).
    pub stop_at_tool: Option<String>,
    /// The reasoning to ask the model for on every turn (`None`: the model adapter's own
    /// setting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<Reasoning>,
    /// In a streamed turn, start each call that needs no approval as soon as its arguments
    /// are complete (within `max_concurrency`), instead of after the whole turn. Results
    /// still go back in call order. Default on; off while a tool-call or token limit is set
    /// (those are checked against the whole turn before any of its calls runs).
    #[serde(default = "yes")]
    pub start_calls_early: bool,
    /// The typed answer the run must end with (see [`RunOptions::output`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputSpec>,
    /// Caps on requests, tokens and tool calls (none by default).
    #[serde(default)]
    pub usage_limits: UsageLimits,
    /// The most tools one `search_tools` call returns (see [`RunOptions::tool_search_limit`]).
    #[serde(default = "super::hooks::default_limit")]
    pub tool_search_limit: usize,
    /// The search behind `search_tools` (`None`: the built-in ranking); not stored.
    #[serde(skip)]
    pub(crate) tool_search: Option<SearchChoice>,
    /// The per-turn hook of [`RunOptions::prepare_tools`]; not stored.
    #[serde(skip)]
    pub(crate) prepare_tools: Option<PrepareTools>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            instructions: None,
            max_turns: DEFAULT_MAX_TURNS,
            tool_choice: ToolChoice::Auto,
            reset_tool_choice: true,
            parallel_tool_calls: true,
            max_concurrency: None,
            offered: None,
            approval: ApprovalPolicy::Destructive,
            stop_at_tool: None,
            reasoning: None,
            start_calls_early: true,
            output: None,
            usage_limits: UsageLimits::default(),
            tool_search_limit: DEFAULT_SEARCH_LIMIT,
            tool_search: None,
            prepare_tools: None,
        }
    }
}

impl RunOptions {
    /// The defaults.
    ///
    /// ```
    /// use tool_core::runner::{ApprovalPolicy, RunOptions};
    /// let options = RunOptions::new();
    /// assert_eq!(options.approval, ApprovalPolicy::Destructive);
    /// assert!(options.parallel_tool_calls && options.reset_tool_choice && options.offered.is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the instructions (system prompt).
    ///
    /// ```
    /// let options = tool_core::runner::RunOptions::new().instructions("Answer in French.");
    /// assert_eq!(options.instructions.as_deref(), Some("Answer in French."));
    /// ```
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }

    /// Sets the turn limit.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunError, RunOptions, Runner};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", vec![ToolCall::new("c1", "hi", "{}")])]);
    /// let runner = Runner::new(model, tools![hi]).with_options(RunOptions::new().max_turns(1));
    /// let error = tool_core::block_on(runner.run("Say hi")).unwrap_err();
    /// assert!(matches!(error, RunError::MaxTurns { limit: 1, .. }));
    /// ```
    pub fn max_turns(mut self, limit: u32) -> Self {
        self.max_turns = limit;
        self
    }

    /// Sets the first request's `tool_choice`.
    ///
    /// ```
    /// use tool_core::provider::ToolChoice;
    /// let options = tool_core::runner::RunOptions::new().tool_choice(ToolChoice::Required);
    /// assert_eq!(options.tool_choice, ToolChoice::Required);
    /// ```
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.tool_choice = choice;
        self
    }

    /// Lets the model call only `tools` while every tool is still sent, so the tools part
    /// of each request stays the same and the provider's prompt cache holds
    /// ([`ToolChoice::Allowed`]). The restriction lasts the whole run; with
    /// [`AllowedMode::Required`](crate::provider::AllowedMode) the first turn must call one
    /// of them (later turns too with [`keep_tool_choice`](Self::keep_tool_choice)). A call
    /// of another tool is answered with a `PERMISSION_DENIED` error and does not run, on
    /// every API (Anthropic and text-mode models have no field that enforces it).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelTurn, ScriptedModel};
    /// use tool_core::provider::AllowedMode;
    /// use tool_core::runner::{RunOptions, Runner};
    /// use tool_core::{tool, tools, ToolCall, ToolErrorCode};
    /// /// Reads a file.
    /// #[tool]
    /// fn read_file(path: String) -> String { path }
    /// /// Deletes a file.
    /// #[tool]
    /// fn delete_file(path: String) -> String { path }
    /// let model = ScriptedModel::new([
    ///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"a"}"#)]),
    ///     ModelTurn::text("I may not delete it."),
    /// ]);
    /// let runner = Runner::new(model, tools![read_file, delete_file])
    ///     .with_options(RunOptions::new().allowed_tools(["read_file"], AllowedMode::Auto));
    /// let result = tool_core::block_on(runner.run("Delete a")).unwrap();
    /// let Message::Tool { results } = &result.messages()[2] else { panic!() };
    /// assert_eq!(results[0].response.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// // Both tools were still sent.
    /// assert_eq!(runner.model().requests()[0].tools, ["read_file", "delete_file"]);
    /// ```
    pub fn allowed_tools<I, S>(mut self, tools: I, mode: crate::provider::AllowedMode) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tool_choice = ToolChoice::allowed(tools, mode);
        self
    }

    /// Keeps a forced `tool_choice` for every turn instead of resetting it to auto.
    ///
    /// ```
    /// use tool_core::provider::ToolChoice;
    /// let options = tool_core::runner::RunOptions::new().tool_choice(ToolChoice::Required).keep_tool_choice();
    /// assert!(!options.reset_tool_choice);
    /// ```
    pub fn keep_tool_choice(mut self) -> Self {
        self.reset_tool_choice = false;
        self
    }

    /// Allows or forbids several calls per turn.
    ///
    /// ```
    /// let options = tool_core::runner::RunOptions::new().parallel_tool_calls(false);
    /// assert!(!options.parallel_tool_calls);
    /// ```
    pub fn parallel_tool_calls(mut self, parallel: bool) -> Self {
        self.parallel_tool_calls = parallel;
        self
    }

    /// Caps how many calls of one turn run at the same time (at least one).
    ///
    /// ```
    /// let options = tool_core::runner::RunOptions::new().max_concurrency(0);
    /// assert_eq!(options.max_concurrency, Some(1)); // at least one
    /// ```
    pub fn max_concurrency(mut self, limit: usize) -> Self {
        self.max_concurrency = Some(limit.max(1));
        self
    }

    /// Offers only these tools.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOptions, Runner};
    /// use tool_core::{tool, tools, ToolCall, ToolErrorCode};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// let model = ScriptedModel::new([
    ///     ModelTurn::with_calls("", vec![ToolCall::new("c1", "bye", "{}")]),
    ///     ModelTurn::text("ok"),
    /// ]);
    /// let runner = Runner::new(model, tools![hi, bye]).with_options(RunOptions::new().offer(["hi"]));
    /// let result = tool_core::block_on(runner.run("Hello")).unwrap();
    /// let tool_core::model::Message::Tool { results } = &result.messages()[2] else { panic!() };
    /// assert_eq!(results[0].response.error_code(), Some(ToolErrorCode::PermissionDenied));
    /// ```
    pub fn offer<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.offered = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Sets which calls wait for approval.
    ///
    /// ```
    /// use tool_core::runner::{ApprovalPolicy, RunOptions};
    /// let options = RunOptions::new().approval(ApprovalPolicy::Always);
    /// assert_eq!(options.approval, ApprovalPolicy::Always);
    /// ```
    pub fn approval(mut self, policy: ApprovalPolicy) -> Self {
        self.approval = policy;
        self
    }

    /// Ends the run at the first call of `tool` and returns its arguments; see
    /// [`RunResult::output`](super::RunResult::output). Usually paired with
    /// `tool_choice(ToolChoice::tool(name))`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOptions, RunOutcome, Runner};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Records the answer.
    /// #[tool]
    /// fn answer(value: i64) -> i64 { value }
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", vec![ToolCall::new("c1", "answer", r#"{"value":42}"#)])]);
    /// let runner = Runner::new(model, tools![answer]).with_options(RunOptions::new().stop_at_tool("answer"));
    /// let result = tool_core::block_on(runner.run("Answer")).unwrap();
    /// assert!(matches!(result.outcome, RunOutcome::StoppedAtTool { ref call } if call.arguments == r#"{"value":42}"#));
    /// ```
    pub fn stop_at_tool(mut self, tool: impl Into<String>) -> Self {
        self.stop_at_tool = Some(tool.into());
        self
    }

    /// Asks the model for reasoning on every turn of the run (over the adapter's own
    /// setting); its text streams as [`RunEvent::ReasoningDelta`](super::RunEvent).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, Reasoning, ReasoningEffort, ScriptedModel};
    /// use tool_core::runner::{RunEvent, RunOptions, Runner};
    /// let turn = ModelTurn { reasoning: "The user greets me.".into(), ..ModelTurn::text("Hi!") };
    /// let model = ScriptedModel::new([turn]);
    /// let runner = Runner::new(model.clone(), tool_core::ToolRegistry::new())
    ///     .with_options(RunOptions::new().reasoning(Reasoning::effort(ReasoningEffort::High)));
    /// let events = tool_core::block_on(runner.run_streamed("Hello").collect_events());
    /// let reasoning: String = events.iter().filter_map(|e| match e {
    ///     RunEvent::ReasoningDelta { text } => Some(text.as_str()),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(reasoning, "The user greets me.");
    /// assert_eq!(model.requests()[0].reasoning, Some(Reasoning::effort(ReasoningEffort::High)));
    /// ```
    pub fn reasoning(mut self, reasoning: Reasoning) -> Self {
        self.reasoning = Some(reasoning);
        self
    }

    /// Sets the run's caps on requests, tokens and tool calls.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunError, RunOptions, Runner, UsageLimit, UsageLimits};
    /// use tool_core::{tool, tools, ToolCall};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let calls = vec![ToolCall::new("c1", "hi", "{}"), ToolCall::new("c2", "hi", "{}")];
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", calls)]);
    /// let runner = Runner::new(model, tools![hi])
    ///     .with_options(RunOptions::new().usage_limits(UsageLimits::new().tool_calls(1)));
    /// let error = tool_core::block_on(runner.run("Say hi twice")).unwrap_err();
    /// let usage = tool_core::model::Usage::default(); // the scripted turn reported none
    /// assert_eq!(error, RunError::UsageLimit { limit: UsageLimit::ToolCalls(1), used: 0, usage });
    /// ```
    pub fn usage_limits(mut self, limits: UsageLimits) -> Self {
        self.usage_limits = limits;
        self
    }
}

fn yes() -> bool {
    true
}

impl RunOptions {
    /// Starts calls only once the model's whole turn has arrived (by default a call that
    /// needs no approval starts as soon as its arguments are complete, while the model is
    /// still streaming the rest of the turn).
    ///
    /// When a turn fails after some of its calls started early (a broken stream, a reply cut
    /// at the output limit), running calls are cancelled and finished ones keep their effects,
    /// but their results are not added to the history. Turn early start off for tools whose
    /// effects must not come from a turn that fails.
    ///
    /// ```
    /// let options = tool_core::runner::RunOptions::new().start_calls_early(false);
    /// assert!(!options.start_calls_early);
    /// assert!(tool_core::runner::RunOptions::new().start_calls_early);
    /// ```
    pub fn start_calls_early(mut self, early: bool) -> Self {
        self.start_calls_early = early;
        self
    }

    /// The run ends with an answer of type `T` instead of text, through the provider's native
    /// structured output where the model has it, else a final-answer tool offered next to
    /// the run's tools; an answer that does not decode into `T` goes back to the model with
    /// the error (twice at most, then [`RunError::OutputInvalid`](super::RunError::OutputInvalid)).
    /// Read it with [`RunResult::output`](super::RunResult::output), or use
    /// [`Runner::run_typed`](super::Runner::run_typed). See [`OutputSpec`] to change the
    /// name, the way or the retries.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOptions, Runner};
    /// use tool_core::ToolCall;
    ///
    /// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    /// struct Weather { city: String, temp_c: f64 }
    ///
    /// // A model without native structured output answers through the final-answer tool.
    /// let model = ScriptedModel::new([ModelTurn::with_calls("", vec![
    ///     ToolCall::new("c1", "final_answer", r#"{"city":"Paris","temp_c":21.5}"#)])]);
    /// let runner = Runner::new(model, tool_core::ToolRegistry::new())
    ///     .with_options(RunOptions::new().output::<Weather>());
    /// let result = tool_core::block_on(runner.run("Weather in Paris?")).unwrap();
    /// assert_eq!(result.output::<Weather>().unwrap(), Weather { city: "Paris".into(), temp_c: 21.5 });
    /// assert_eq!(runner.model().requests()[0].tools, ["final_answer"]);
    /// ```
    pub fn output<T: serde::de::DeserializeOwned + schemars::JsonSchema>(self) -> Self {
        self.output_spec(OutputSpec::of::<T>())
    }

    /// The typed answer as [`RunOptions::output`], with its name, way and retries set.
    ///
    /// ```
    /// use tool_core::runner::{OutputMode, OutputSpec, RunOptions};
    /// let options = RunOptions::new().output_spec(OutputSpec::of::<Vec<String>>().mode(OutputMode::Tool).max_retries(1));
    /// assert_eq!(options.output.unwrap().max_retries, 1);
    /// ```
    pub fn output_spec(mut self, spec: OutputSpec) -> Self {
        self.output = Some(spec);
        self
    }
}

/// Which calls the run holds until a person approves them.
///
/// ```
/// use tool_core::runner::ApprovalPolicy;
/// assert_eq!(ApprovalPolicy::default(), ApprovalPolicy::Destructive);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalPolicy {
    /// Calls of tools annotated `destructive` (the default).
    #[default]
    Destructive,
    /// Calls of these tools, whatever their annotations.
    Tools(Vec<String>),
    /// Every call.
    Always,
    /// No call: the registry's own approval hook, if any, still applies.
    Never,
}

impl ApprovalPolicy {
    /// Whether a call of the tool with this definition waits for approval. Calls of unknown
    /// tools never do (they are answered `NOT_FOUND`).
    ///
    /// ```
    /// use tool_core::runner::ApprovalPolicy;
    /// use tool_core::{tool, tools};
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn delete_file(path: String) -> String { path }
    /// let registry = tools![delete_file];
    /// let definition = registry.definition("delete_file").unwrap();
    /// assert!(ApprovalPolicy::Destructive.requires(definition));
    /// assert!(!ApprovalPolicy::Never.requires(definition));
    /// ```
    pub fn requires(&self, definition: &ToolDefinition) -> bool {
        match self {
            ApprovalPolicy::Destructive => definition.annotations.destructive == Some(true),
            ApprovalPolicy::Tools(names) => names.contains(&definition.name),
            ApprovalPolicy::Always => true,
            ApprovalPolicy::Never => false,
        }
    }
}

/// `ToolChoice` lives in the provider layer without serde; the run state spells it
/// `"auto" | "required" | "none" | {"tool": name} | {"allowed": {"tools": [..], "mode": ..}}`.
pub(crate) mod choice_serde;
