//! [`TextMode`]: tool calling for a model that only writes text, in any [`ToolFormat`].

use super::history::text_conversation;
use super::reply::Reply;
use crate::call::AllowedCallers;
use crate::definition::ToolDefinition;
use crate::model::queue::queue_stream;
use crate::model::{
    next_item, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream,
    OfferedTools,
};
use crate::parse::{FormatOptions, FormatParser, ToolFormat, UnknownModel};
use crate::prompt::escape_text;
use crate::provider::ToolChoice;

/// Runs the tool loop on any plain-text streaming model that was trained on one of the
/// [`ToolFormat`]s: the model family's own tool block goes into the instructions, the reply is
/// parsed as it streams by that format's parser, and the results go back as a user message in
/// the family's own result convention. The runner sees an ordinary model.
///
/// | format | tool block in the instructions | results message |
/// |---|---|---|
/// | `UseTool` | the TOOLS section | one `<tool_results>` |
/// | `Hermes`, `Qwen3Coder` | `# Tools` with `<tools>` | one `<tool_response>` per result, one per line |
/// | `Mistral` | `[AVAILABLE_TOOLS]` | one `[TOOL_RESULTS]` per result |
/// | `Harmony` | `# Tools` / `namespace functions` | one `<\|start\|>functions.NAME to=assistant...<\|end\|>` per result |
///
/// - Text streams to the runner as text deltas at once; a call is handed out only once it is
///   complete. Reasoning streams as reasoning deltas, never as text: harmony's `analysis`
///   channel, a `<think>` block that opens the reply (Qwen3, DeepSeek-R1 served without a
///   reasoning parser), and what the inner model reports as reasoning. It stays in the
///   history as written. Harmony's framing tokens are not text either.
/// - Calls are typed against the offered tools: an unknown name is caught, and Qwen3-Coder's
///   untyped values are converted with each tool's input schema.
/// - A call the parser rejects (unknown name, unreadable call, a value of the wrong type) is
///   passed on as the model wrote it, so the dispatcher answers it with its instructive error.
/// - A reply cut off inside a call (token limit, abort) ends the stream with a
///   [`ModelErrorKind::Incomplete`] error after its text: no partial call ever runs.
/// - The finished turn keeps the reply exactly as the model wrote it
///   (native content tagged `"xml"` for `<use_tool>`, `"text:hermes"`, `"text:qwen3_coder"`,
///   `"text:mistral"`, `"text:harmony"`): later requests send it back verbatim. The parser's
///   diagnostics (repairs, rejected calls) are kept there too, as
///   `{"text": ..., "diagnostics": [{"call", "kind", "message"}]}`; without any, the content is
///   the text alone.
/// - The inner model receives no tools and `tool_choice` auto; a forced `tool_choice` becomes a
///   sentence in the instructions, and `ToolChoice::None` leaves the tool block out.
///
/// Results reach the inner model as a [`Message::User`](crate::model::Message::User) whose
/// text is the format's result message(s): a raw-completion adapter that renders the chat
/// template itself puts it verbatim where the family expects it.
///
/// ```
/// use tool_core::model::{Message, ModelTurn, ScriptedModel, TextMode};
/// use tool_core::parse::ToolFormat;
/// use tool_core::runner::Runner;
/// use tool_core::{tool, tools};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// // A Qwen3 model served without a tool parser: it only writes text.
/// let text_model = ScriptedModel::new([
///     ModelTurn::text("Adding.\n<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}\n</tool_call>"),
///     ModelTurn::text("2 + 3 = 5."),
/// ]);
/// let runner = Runner::new(TextMode::new(text_model.clone(), ToolFormat::Hermes), tools![add]);
/// let result = tool_core::block_on(runner.run("What is 2 + 3?")).unwrap();
/// assert_eq!(result.text(), Some("2 + 3 = 5."));
///
/// let second = &text_model.requests()[1];
/// assert!(second.instructions.as_deref().unwrap().contains("<tools>\n{\"type\":\"function\""));
/// assert_eq!(second.messages[2], Message::user("<tool_response>\n5\n</tool_response>"));
/// ```
#[derive(Debug, Clone)]
pub struct TextMode<M> {
    inner: M,
    format: ToolFormat,
    run_fenced_calls: bool,
    starts_in_reasoning: bool,
}

impl<M: Model> TextMode<M> {
    /// Text mode over `inner`, whose replies are written in `format`.
    ///
    /// ```
    /// use tool_core::model::{ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// let mode = TextMode::new(ScriptedModel::new([]), ToolFormat::Harmony);
    /// assert_eq!(mode.format(), ToolFormat::Harmony);
    /// ```
    pub fn new(inner: M, format: ToolFormat) -> Self {
        TextMode {
            inner,
            format,
            run_fenced_calls: false,
            starts_in_reasoning: false,
        }
    }

    /// Text mode over `inner` in the format its model name says (see
    /// [`ToolFormat::for_model`]), starting in reasoning when its chat template opens
    /// `<think>` in the generation prompt.
    ///
    /// ```
    /// use tool_core::model::{ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// let mode = TextMode::for_model(ScriptedModel::new([]), "zai-org/GLM-4.6").unwrap();
    /// assert_eq!(mode.format(), ToolFormat::Glm);
    /// assert!(TextMode::for_model(ScriptedModel::new([]), "acme-7b").is_err());
    /// ```
    pub fn for_model(inner: M, name: &str) -> Result<Self, UnknownModel> {
        let found = ToolFormat::for_model(name)?;
        Ok(TextMode::new(inner, found.format).starts_in_reasoning(found.starts_in_reasoning))
    }

    /// Whether each reply starts inside a `<think>` section that the chat template opened in
    /// the generation prompt (see [`FormatOptions::start_in_reasoning`]).
    ///
    /// ```
    /// use tool_core::model::{ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// let _ = TextMode::new(ScriptedModel::new([]), ToolFormat::MiniMax).starts_in_reasoning(true);
    /// ```
    pub fn starts_in_reasoning(mut self, starts: bool) -> Self {
        self.starts_in_reasoning = starts;
        self
    }

    /// Also runs calls the model put inside a markdown code fence (off by default: a model
    /// showing an example is not asking for a call).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let fenced = "```\n<tool_call>\n{\"name\": \"hi\", \"arguments\": {}}\n</tool_call>\n```";
    /// let script = ScriptedModel::new([ModelTurn::text(fenced), ModelTurn::text("Done.")]);
    /// let mode = TextMode::new(script, ToolFormat::Hermes).run_fenced_calls(true);
    /// let result = tool_core::block_on(Runner::new(mode, tools![hi]).run("Say hi")).unwrap();
    /// assert_eq!((result.text(), result.run.turns()), (Some("Done."), 2));
    /// ```
    pub fn run_fenced_calls(mut self, run: bool) -> Self {
        self.run_fenced_calls = run;
        self
    }

    /// The format the model writes calls in.
    ///
    /// ```
    /// use tool_core::model::{ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// assert_eq!(TextMode::new(ScriptedModel::new([]), ToolFormat::Mistral).format(), ToolFormat::Mistral);
    /// ```
    pub fn format(&self) -> ToolFormat {
        self.format
    }

    /// The wrapped model.
    ///
    /// ```
    /// use tool_core::model::{ScriptedModel, TextMode};
    /// use tool_core::parse::ToolFormat;
    /// let mode = TextMode::new(ScriptedModel::new([]), ToolFormat::Hermes);
    /// assert!(mode.inner().requests().is_empty());
    /// ```
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// A parser for this reply: it knows the offered tools' names and schemas, and numbers
    /// calls with the format's own id prefix.
    fn parser(&self, tools: &OfferedTools<'_>) -> FormatParser {
        FormatParser::with_options(
            self.format,
            FormatOptions::for_tools(tools.definitions())
                .with_fenced_calls(self.run_fenced_calls)
                .with_start_in_reasoning(self.starts_in_reasoning),
        )
    }
}

impl<M: Model> Model for TextMode<M> {
    fn provider_name(&self) -> &str {
        self.inner.provider_name()
    }

    fn model_name(&self) -> &str {
        self.inner.model_name()
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let format = self.format;
        let messages = text_conversation(format, request.messages);
        let instructions = instructions(format, &request);
        let reply = Reply::new(format, self.parser(&request.tools));
        queue_stream(move |out| async move {
            let mut inner_request = ModelRequest::new(&messages, OfferedTools::none());
            if !instructions.is_empty() {
                inner_request = inner_request.with_instructions(&instructions);
            }
            if let Some(reasoning) = request.reasoning {
                inner_request = inner_request.with_reasoning(reasoning);
            }
            let mut inner = self.inner.stream(inner_request);
            let mut reply = reply;
            loop {
                match next_item(inner.as_mut()).await {
                    Some(Ok(ModelEvent::TextDelta(delta))) => {
                        for event in reply.feed(&delta) {
                            out.send(Ok(event)).await;
                        }
                    }
                    // A model behind a server that splits reasoning off (vLLM's reasoning
                    // parser, llama.cpp) reports it apart from the text.
                    Some(Ok(ModelEvent::ReasoningDelta(delta))) => {
                        if let Some(event) = reply.reasoning(&delta) {
                            out.send(Ok(event)).await;
                        }
                    }
                    Some(Ok(ModelEvent::Finished(turn))) => {
                        for item in reply.finish(turn) {
                            out.send(item).await;
                        }
                        return;
                    }
                    // A plain-text model has no calls of its own to report.
                    Some(Ok(_)) => {}
                    Some(Err(error)) => {
                        out.send(Err(reply.inner_error(error))).await;
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

/// Whether the model may call `def` itself (it is not for programs only).
fn direct_call(def: &ToolDefinition) -> bool {
    def.allowed_callers() != AllowedCallers::Program
}

/// The instructions for the inner model: the application's, then the format's tool block.
fn instructions(format: ToolFormat, request: &ModelRequest<'_>) -> String {
    let mut out = request.instructions.unwrap_or_default().to_string();
    // Text mode has no programs that call tools: a tool only programs may call is not
    // offered (copying the rest only when there is one).
    let direct: Vec<ToolDefinition>;
    let tools = if request.tools.definitions().iter().all(direct_call) {
        request.tools
    } else {
        direct = request
            .tools
            .definitions()
            .iter()
            .filter(|d| direct_call(d))
            .cloned()
            .collect();
        OfferedTools::from_definitions(&direct)
    };
    if tools.is_empty() || *request.tool_choice == ToolChoice::None {
        return out;
    }
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    let spec = format.spec();
    if spec.prompt_is_tools_section() {
        // The registry's cached TOOLS section when the whole registry is offered.
        out.push_str(&tools.tools_prompt());
    } else {
        out.push_str(&spec.tools_prompt(tools.definitions()));
        out.push('\n');
    }
    match request.tool_choice {
        ToolChoice::Required => out.push_str("\nIn this reply you must use at least one tool.\n"),
        ToolChoice::Tool(name) => {
            out.push_str("\nIn this reply you must use the tool '");
            escape_text(name, &mut out);
            out.push_str("'.\n");
        }
        ToolChoice::Allowed { tools, mode } => {
            // Text mode has no field for it: the prompt says so, and the runner refuses a
            // call outside the set.
            out.push_str(match mode {
                crate::provider::AllowedMode::Required => {
                    "\nIn this reply you must use at least one of these tools, and no other: "
                }
                _ => "\nIn this reply you may use only these tools: ",
            });
            for (i, name) in tools.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('\'');
                escape_text(name, &mut out);
                out.push('\'');
            }
            out.push_str(".\n");
        }
        ToolChoice::Auto | ToolChoice::None => {}
    }
    out
}
