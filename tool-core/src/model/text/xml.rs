//! [`XmlMode`]: [`TextMode`] in the `<use_tool>` format, under the name it has always had.

use super::TextMode;
use crate::model::{Model, ModelRequest, ModelStream};
use crate::parse::ToolFormat;

/// Former name of the native-content tag of XML-mode turns, `"xml"`.
#[doc(hidden)]
#[deprecated(note = "the tag is `\"xml\"`, documented on `TextMode`")]
pub const XML_PROVIDER: &str = "xml";

/// Runs the tool loop on any plain-text streaming model in the `<use_tool>`
/// format: the tools go into the instructions as the TOOLS section, the model's reply is
/// parsed as it streams with the `<use_tool>` parser (prose is handed out at once, a call only
/// once complete), and results go back as a `<tool_results>` user message. The runner sees an
/// ordinary model.
///
/// `XmlMode::new(inner)` is [`TextMode::new(inner, ToolFormat::UseTool)`](TextMode::new), kept
/// under its own name so existing code keeps compiling; for a model trained on another format
/// (Hermes/Qwen `<tool_call>`, Qwen3-Coder XML, Mistral, gpt-oss harmony) use [`TextMode`],
/// which documents the behaviour both share: a forced `tool_choice` becomes a sentence in the
/// instructions, calls the parser rejects are passed on as written so the dispatcher answers
/// them, a reply cut off inside a call is an `Incomplete` error and never runs, and the reply
/// goes back into the history exactly as written.
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
pub struct XmlMode<M>(TextMode<M>);

impl<M: Model> XmlMode<M> {
    /// XML mode over `inner`: `TextMode::new(inner, ToolFormat::UseTool)`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, XmlMode};
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let text_model = ScriptedModel::new([ModelTurn::text("Hi!")]);
    /// let runner = Runner::new(XmlMode::new(text_model.clone()), tools![hi]);
    /// tool_core::block_on(runner.run("Hello")).unwrap();
    /// // The tools went into the instructions, not into the request's tool list.
    /// let seen = &text_model.requests()[0];
    /// assert!(seen.tools.is_empty() && seen.instructions.as_deref().unwrap().contains("<name>hi</name>"));
    /// ```
    pub fn new(inner: M) -> Self {
        XmlMode(TextMode::new(inner, ToolFormat::UseTool))
    }

    /// Also runs `<use_tool>` blocks the model put inside a markdown code fence (off by
    /// default: a model showing an example is not asking for a call).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, XmlMode};
    /// use tool_core::runner::Runner;
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let fenced = "```xml\n<use_tool><tool_name>hi</tool_name><arguments>{}</arguments></use_tool>\n```";
    /// let script = ScriptedModel::new([ModelTurn::text(fenced), ModelTurn::text("Done.")]);
    /// let off = tool_core::block_on(Runner::new(XmlMode::new(script.clone()), tools![hi]).run("x")).unwrap();
    /// assert_eq!(off.run.turns(), 1); // a fenced block is an example, not a call
    /// let on = Runner::new(XmlMode::new(script).run_fenced_calls(true), tools![hi]);
    /// assert_eq!(tool_core::block_on(on.run("x")).unwrap().text(), Some("Done."));
    /// ```
    pub fn run_fenced_calls(self, run: bool) -> Self {
        XmlMode(self.0.run_fenced_calls(run))
    }

    /// The wrapped model.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel, XmlMode};
    /// let mode = XmlMode::new(ScriptedModel::new([ModelTurn::text("Hi!")]));
    /// assert!(mode.inner().requests().is_empty());
    /// ```
    pub fn inner(&self) -> &M {
        self.0.inner()
    }
}

impl<M: Model> Model for XmlMode<M> {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        self.0.stream(request)
    }

    fn provider_name(&self) -> &str {
        self.0.provider_name()
    }

    fn model_name(&self) -> &str {
        self.0.model_name()
    }
}
