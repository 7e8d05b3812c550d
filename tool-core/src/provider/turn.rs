//! [`AssistantTurn`] (what a model said in one response) and [`ToolChoice`].

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::decode_arguments;
use crate::call::ToolCall;
use crate::response::{ToolErrorCode, ToolResponse};

/// Whether and which tool the model must call; each API spells it its own way
/// ([`ChatApi::tool_choice`](super::ChatApi::tool_choice)).
///
/// ```
/// use tool_core::provider::{Anthropic, ChatApi, ToolChoice};
/// assert_eq!(Anthropic::tool_choice(&ToolChoice::Required, true)["type"], "any");
/// ```
// Non-exhaustive: providers keep adding ways to constrain the choice (several allowed tools).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// The model must call at least one tool (Anthropic `any`, Gemini `ANY`).
    Required,
    /// The model must not call tools.
    None,
    /// The model must call this tool: the way to get structured output through a tool.
    Tool(String),
    /// The model may call only these tools, though every tool is still sent: the tools part
    /// of the request does not change, so the provider's prompt cache holds. Build it with
    /// [`ToolChoice::allowed`].
    ///
    /// OpenAI (Chat and Responses) get `allowed_tools`, Gemini `allowedFunctionNames` (mode
    /// `ANY` when a call is required, else `VALIDATED`). Anthropic has no such field: it gets
    /// `auto` or `any` (or the one tool, when one is allowed and a call is required), and
    /// the runner answers a call outside the set with a `PERMISSION_DENIED` error result the
    /// model can act on, on every API.
    Allowed {
        /// The names of the tools that may be called.
        tools: Vec<String>,
        /// Whether the model may answer without a call.
        mode: AllowedMode,
    },
}

/// Whether a model restricted to some tools ([`ToolChoice::Allowed`]) must call one.
///
/// ```
/// use tool_core::provider::{AllowedMode, ToolChoice};
/// let choice = ToolChoice::allowed(["search"], AllowedMode::Required);
/// assert!(matches!(choice, ToolChoice::Allowed { mode: AllowedMode::Required, .. }));
/// ```
// Non-exhaustive: providers may add modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AllowedMode {
    /// The model picks among the allowed tools or answers with text.
    #[default]
    Auto,
    /// The model must call at least one of the allowed tools.
    Required,
}

impl AllowedMode {
    /// OpenAI's spelling: `"auto"` or `"required"`.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::AllowedMode::Required.as_str(), "required");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            AllowedMode::Auto => "auto",
            AllowedMode::Required => "required",
        }
    }
}

impl ToolChoice {
    /// Forces one tool by name.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::ToolChoice::tool("extract"), tool_core::provider::ToolChoice::Tool("extract".into()));
    /// ```
    pub fn tool(name: impl Into<String>) -> Self {
        ToolChoice::Tool(name.into())
    }

    /// Lets the model call only `tools` (names as the registry has them, a namespaced tool
    /// by its `namespace__tool` name), with every tool still sent; see
    /// [`ToolChoice::Allowed`].
    ///
    /// ```
    /// use tool_core::provider::{AllowedMode, ChatApi, OpenAiChat, ToolChoice};
    /// let choice = ToolChoice::allowed(["get_weather"], AllowedMode::Auto);
    /// assert_eq!(
    ///     OpenAiChat::tool_choice(&choice, true),
    ///     serde_json::json!({"type": "allowed_tools", "allowed_tools": {"mode": "auto",
    ///         "tools": [{"type": "function", "function": {"name": "get_weather"}}]}})
    /// );
    /// ```
    pub fn allowed<I, S>(tools: I, mode: AllowedMode) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ToolChoice::Allowed {
            tools: tools.into_iter().map(Into::into).collect(),
            mode,
        }
    }

    /// The tools a call may name under [`ToolChoice::Allowed`]; `None` for the other
    /// choices.
    ///
    /// ```
    /// use tool_core::provider::{AllowedMode, ToolChoice};
    /// assert_eq!(ToolChoice::Auto.allowed_tools(), None);
    /// assert_eq!(ToolChoice::allowed(["a", "b"], AllowedMode::Auto).allowed_tools().unwrap(), ["a", "b"]);
    /// ```
    pub fn allowed_tools(&self) -> Option<&[String]> {
        match self {
            ToolChoice::Allowed { tools, .. } => Some(tools),
            _ => None,
        }
    }
}

/// One assistant response as read from a provider: the text that came with the calls
/// (providers may send both in one response), the calls in the order the model made them,
/// the provider's stop reason, and the provider's own content as it sent it ([`native`]).
///
/// The history writers ([`ChatApi::history_entry`](super::ChatApi::history_entry) of
/// Anthropic, OpenAI Responses and Gemini) send [`native`] back unchanged when it still agrees with `text`
/// and `calls`, so content this library does not interpret (thinking blocks and their
/// signatures, server-tool blocks, reasoning items, Gemini thought signatures, the order of
/// mixed text and call parts) reaches the provider as it came. A turn built by hand, or one
/// whose `text` or `calls` were changed, is written from `text` and `calls` instead.
///
/// The turn is serde-serializable, so a run's state can be stored and resumed.
///
/// [`native`]: AssistantTurn::native
///
/// ```
/// use tool_core::provider::AssistantTurn;
/// use tool_core::ToolCall;
/// let turn = AssistantTurn::new("Checking.", vec![ToolCall::new("1", "f", "{}")]);
/// assert!(turn.has_calls());
/// let stored = serde_json::to_string(&turn).unwrap();
/// assert_eq!(serde_json::from_str::<AssistantTurn>(&stored).unwrap(), turn);
/// ```
// Non-exhaustive so more of what providers send can be kept; build one with `new` and the
// `with_*` methods.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct AssistantTurn {
    /// The text parts, concatenated in order (empty when there were none).
    pub text: String,
    /// The tool calls, in order.
    pub calls: Vec<ToolCall>,
    /// `finish_reason` / `stop_reason` / `finishReason` as the provider spelled it.
    pub stop_reason: Option<String>,
    /// Gemini `thoughtSignature`s, one slot per call (`None` when the part had none); they
    /// must be sent back with the calls in the history. Empty for other providers.
    pub thought_signatures: Vec<Option<String>>,
    /// Provider item ids that differ from the call ids (OpenAI Responses `fc_…` ids), one
    /// slot per call. Empty for other providers.
    pub item_ids: Vec<Option<String>>,
    /// The provider's assistant content exactly as it sent it, in its order: Anthropic
    /// `content` blocks, OpenAI Responses `output` items, Gemini `parts`. Filled by every
    /// `read_response` and every stream assembler (a streamed turn gets the same list as the
    /// whole response); empty for OpenAI Chat Completions, whose history message is rebuilt
    /// from `text` and `calls`, and for turns built by hand.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub native: Vec<Value>,
    /// The provider's id of this response, when it gave one: Chat Completions `id`
    /// (`chatcmpl-…`), Responses `id` (`resp_…`), Anthropic message `id` (`msg_…`), Gemini
    /// `responseId`, the Interactions API's interaction `id`. For logs and traces (a support
    /// request, a trace's `gen_ai.response.id`); the history writers never send it back (the
    /// stateful Interactions adapter names it as `previous_interaction_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
}

impl AssistantTurn {
    /// A turn with this text and these calls, as a model would have answered; no stop
    /// reason and no provider content.
    ///
    /// ```
    /// use tool_core::{provider::AssistantTurn, ToolCall};
    /// let turn = AssistantTurn::new("On it.", vec![ToolCall::new("call_1", "f", "{}")]);
    /// assert_eq!((turn.text.as_str(), turn.calls.len()), ("On it.", 1));
    /// ```
    pub fn new(text: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        AssistantTurn {
            text: text.into(),
            calls,
            ..AssistantTurn::default()
        }
    }

    /// Sets the stop reason as the provider spelled it.
    ///
    /// ```
    /// let turn = tool_core::provider::AssistantTurn::new("Done.", Vec::new()).with_stop_reason("end_turn");
    /// assert_eq!(turn.stop_reason.as_deref(), Some("end_turn"));
    /// ```
    pub fn with_stop_reason(mut self, stop_reason: impl Into<String>) -> Self {
        self.stop_reason = Some(stop_reason.into());
        self
    }

    /// Sets Gemini's `thoughtSignature`s, one slot per call.
    ///
    /// ```
    /// use tool_core::{provider::AssistantTurn, ToolCall};
    /// let turn = AssistantTurn::new("", vec![ToolCall::new("1", "f", "{}")])
    ///     .with_thought_signatures(vec![Some("sig".into())]);
    /// assert_eq!(turn.thought_signatures, [Some("sig".to_string())]);
    /// ```
    pub fn with_thought_signatures(mut self, thought_signatures: Vec<Option<String>>) -> Self {
        self.thought_signatures = thought_signatures;
        self
    }

    /// Sets the provider item ids (OpenAI Responses `fc_…` ids), one slot per call.
    ///
    /// ```
    /// use tool_core::{provider::AssistantTurn, ToolCall};
    /// let turn = AssistantTurn::new("", vec![ToolCall::new("call_1", "f", "{}")])
    ///     .with_item_ids(vec![Some("fc_1".into())]);
    /// assert_eq!(turn.item_ids, [Some("fc_1".to_string())]);
    /// ```
    pub fn with_item_ids(mut self, item_ids: Vec<Option<String>>) -> Self {
        self.item_ids = item_ids;
        self
    }

    /// Sets the provider's own content; an empty list makes the history writers rebuild the
    /// turn from `text` and `calls`.
    ///
    /// ```
    /// use tool_core::provider::{Anthropic, ChatApi};
    /// let response = serde_json::json!({"content": [{"type": "text", "text": "Hi."}]});
    /// let turn = Anthropic::read_response(&response).unwrap();
    /// assert_eq!(turn.native.len(), 1);
    /// assert!(turn.with_native(Vec::new()).native.is_empty());
    /// ```
    pub fn with_native(mut self, native: Vec<Value>) -> Self {
        self.native = native;
        self
    }

    /// Sets the provider's id of this response.
    ///
    /// ```
    /// use tool_core::provider::{AssistantTurn, ChatApi, OpenAiChat};
    /// let response = serde_json::json!({"id": "chatcmpl-1", "choices": [{"message": {"content": "Hi."}, "finish_reason": "stop"}]});
    /// assert_eq!(OpenAiChat::read_response(&response).unwrap().response_id.as_deref(), Some("chatcmpl-1"));
    /// let turn = AssistantTurn::new("Hi.", Vec::new()).with_response_id("msg_1");
    /// assert_eq!(turn.response_id.as_deref(), Some("msg_1"));
    /// ```
    pub fn with_response_id(mut self, response_id: impl Into<String>) -> Self {
        self.response_id = Some(response_id.into());
        self
    }

    /// Whether the model called any tool.
    ///
    /// ```
    /// assert!(!tool_core::provider::AssistantTurn::default().has_calls());
    /// ```
    pub fn has_calls(&self) -> bool {
        !self.calls.is_empty()
    }

    /// Structured output through a forced tool: the arguments of the first call of `tool`,
    /// decoded into `T`. Send the tool with `ToolChoice::Tool(name)` so the model must call
    /// it, then read its arguments here. Errors are `ToolResponse`s that can go back to the
    /// model as the tool's result so it can try again.
    ///
    /// ```
    /// use tool_core::provider::{Anthropic, ChatApi, ToolChoice};
    ///
    /// #[tool_core::tool_type]
    /// struct Card { title: String, score: f64 }
    ///
    /// let choice = Anthropic::tool_choice(&ToolChoice::tool("show_cards"), true);
    /// assert_eq!(choice, serde_json::json!({"type": "tool", "name": "show_cards"}));
    ///
    /// let response = serde_json::json!({"stop_reason": "tool_use", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "show_cards", "input": {"title": "Dune", "score": 0.9}}]});
    /// let turn = Anthropic::read_response(&response).unwrap();
    /// let card: Card = turn.arguments_of("show_cards").unwrap();
    /// assert_eq!(card.title, "Dune");
    /// ```
    // Same error type as `decode_arguments`: the response goes back to the model unchanged.
    #[allow(clippy::result_large_err)]
    pub fn arguments_of<T: DeserializeOwned>(&self, tool: &str) -> Result<T, ToolResponse> {
        match self.calls.iter().find(|c| c.name == tool) {
            Some(call) => decode_arguments(tool, &call.arguments),
            None => Err(ToolResponse::error(
                ToolErrorCode::NotFound,
                format!(
                    "the model did not call '{tool}'; force it with ToolChoice::Tool(\"{tool}\")"
                ),
            )),
        }
    }
}

/// The string at `key` of a response or event, as an owned id (absent, empty or not a
/// string: none), for [`AssistantTurn::response_id`].
pub(crate) fn id_at(value: &Value, key: &str) -> Option<String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
}
