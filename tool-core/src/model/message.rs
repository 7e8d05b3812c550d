//! The neutral conversation: what the runner keeps between turns and hands every adapter.

use std::fmt;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::ToolCall;
use crate::provider::Api;
use crate::response::ToolResponse;

/// One message of the conversation, in no provider's format. Adapters translate the whole
/// list into their wire format on every request; the list is `serde`-serializable so a run can
/// be stored and resumed in another process.
///
/// ```
/// use tool_core::model::{Message, ModelTurn, ToolResult};
/// use tool_core::{ToolCall, ToolResponse};
///
/// let history = vec![
///     Message::user("Weather in Paris?"),
///     Message::Assistant(ModelTurn::with_calls("", vec![ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#)])),
///     Message::Tool { results: vec![ToolResult::new("c1", "get_weather", ToolResponse::success("21 C"))] },
/// ];
/// let json = serde_json::to_string(&history).unwrap();
/// assert!(json.starts_with(r#"[{"role":"user","content":"Weather in Paris?"}"#));
/// let back: Vec<Message> = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, history);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
#[non_exhaustive]
// Assistant turns are a third of any conversation and matched on by users: boxing them would
// cost an allocation each and change every pattern, to save bytes on user messages.
#[allow(clippy::large_enum_variant)]
pub enum Message {
    /// The user's (or the application's) text.
    User {
        /// The text.
        content: String,
    },
    /// What the model answered in one turn, including what the provider sent verbatim.
    Assistant(ModelTurn),
    /// The results of one assistant turn's calls, one per call, in call order. Adapters
    /// spread them as their API requires (one `tool` message per result for OpenAI Chat,
    /// one user message of `tool_result` blocks for Anthropic, ...).
    Tool {
        /// The results, in the order of the calls.
        results: Vec<ToolResult>,
    },
}

impl Message {
    /// A user message.
    ///
    /// ```
    /// let m = tool_core::model::Message::user("hi");
    /// assert!(matches!(m, tool_core::model::Message::User { ref content } if content == "hi"));
    /// ```
    pub fn user(content: impl Into<String>) -> Self {
        Message::User {
            content: content.into(),
        }
    }
}

/// The result of one call as it goes back to the model.
///
/// ```
/// let r = tool_core::model::ToolResult::new("c1", "add", tool_core::ToolResponse::success("3"));
/// assert_eq!(r.response.model_text(), "3");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub call_id: String,
    /// The tool's name as the model wrote it (Gemini pairs results by name, XML mode shows it).
    pub name: String,
    /// The response; adapters send [`ToolResponse::model_text`] and mark errors as errors.
    pub response: ToolResponse,
}

impl ToolResult {
    /// Creates a result.
    ///
    /// ```
    /// use tool_core::{model::ToolResult, ToolErrorCode, ToolResponse};
    /// let r = ToolResult::new("c1", "get_weather", ToolResponse::error(ToolErrorCode::NotFound, "no such city"));
    /// assert_eq!((r.call_id.as_str(), r.name.as_str()), ("c1", "get_weather"));
    /// assert!(!r.response.is_success());
    /// ```
    pub fn new(
        call_id: impl Into<String>,
        name: impl Into<String>,
        response: ToolResponse,
    ) -> Self {
        ToolResult {
            call_id: call_id.into(),
            name: name.into(),
            response,
        }
    }
}

/// One finished assistant turn: the neutral reading (text, calls, stop reason, usage) that the
/// runner acts on, plus the provider's own content for faithful history.
///
/// ```
/// use tool_core::model::{ModelTurn, StopReason};
/// let turn = ModelTurn::text("Done.");
/// assert_eq!(turn.stop_reason, StopReason::EndTurn);
/// assert!(!turn.has_calls());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelTurn {
    /// The text parts, concatenated in order (empty when there were none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// The model's reasoning as it was shown (thinking text, a reasoning summary, thought
    /// summaries), concatenated; empty when there was none or the provider shows none. For the
    /// application's eyes: the history the provider needs back is in `native`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reasoning: String,
    /// The complete tool calls, in the order the model made them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<ToolCall>,
    /// Why the model stopped.
    pub stop_reason: StopReason,
    /// Token usage of this turn, when the provider reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What the provider sent, verbatim, for the adapter that produced it to send back
    /// unchanged in the history (thinking blocks and signatures, server-tool blocks, reasoning
    /// items, the original order of text and calls). The runner reads from it only which
    /// deferred tools the provider's own tool search returned (Anthropic, OpenAI Responses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native: Option<NativeContent>,
    /// The provider's id of the response (`chatcmpl-…`, `resp_…`, `msg_…`, Gemini's
    /// `responseId`, the Interactions API's interaction id), when it gave one; the runner's
    /// traces show it as `gen_ai.response.id`. The Interactions adapter, stateful, names the
    /// latest of its turns' ids as `previous_interaction_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
}

impl ModelTurn {
    /// A final answer: text and no calls.
    ///
    /// ```
    /// assert_eq!(tool_core::model::ModelTurn::text("hi").text, "hi");
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        ModelTurn {
            text: text.into(),
            stop_reason: StopReason::EndTurn,
            ..ModelTurn::default()
        }
    }

    /// A turn that calls tools (with optional text before the calls).
    ///
    /// ```
    /// use tool_core::{model::{ModelTurn, StopReason}, ToolCall};
    /// let t = ModelTurn::with_calls("Checking.", vec![ToolCall::new("1", "f", "{}")]);
    /// assert_eq!(t.stop_reason, StopReason::ToolUse);
    /// ```
    pub fn with_calls(text: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        ModelTurn {
            text: text.into(),
            calls,
            stop_reason: StopReason::ToolUse,
            ..ModelTurn::default()
        }
    }

    /// Sets the provider's id of the response (a scripted model's turns have none unless set).
    ///
    /// ```
    /// let turn = tool_core::model::ModelTurn::text("Hi!").with_response_id("chatcmpl-123");
    /// assert_eq!(turn.response_id.as_deref(), Some("chatcmpl-123"));
    /// ```
    pub fn with_response_id(mut self, response_id: impl Into<String>) -> Self {
        self.response_id = Some(response_id.into());
        self
    }

    /// Whether the model called any tool.
    ///
    /// ```
    /// assert!(!tool_core::model::ModelTurn::text("x").has_calls());
    /// ```
    pub fn has_calls(&self) -> bool {
        !self.calls.is_empty()
    }
}

/// Provider-native content of one turn, tagged with its [`NativeSource`]. An adapter replays
/// only content tagged with its own source and falls back to the neutral text and calls
/// otherwise (a conversation may switch models).
///
/// ```
/// use tool_core::model::{NativeContent, NativeSource};
/// use tool_core::provider::Api;
/// let n = NativeContent::new(Api::Anthropic, serde_json::json!([{"type": "text", "text": "hi"}]));
/// assert!(n.is("anthropic"));
/// assert_eq!(n.provider, NativeSource::Api(Api::Anthropic));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NativeContent {
    /// Which adapter wrote it. Stored as its name (`"anthropic"`, `"text:hermes"`).
    pub provider: NativeSource,
    /// The content as the provider sent it (a content array, an item list, a `Content`).
    pub content: Value,
}

impl NativeContent {
    /// Creates native content; `source` is an [`Api`], or a name such as `"text:hermes"`.
    ///
    /// ```
    /// let n = tool_core::model::NativeContent::new("gemini", serde_json::json!({"parts": []}));
    /// assert_eq!(n.provider, "gemini");
    /// assert_eq!(n.provider, tool_core::provider::Api::Gemini);
    /// ```
    pub fn new(source: impl Into<NativeSource>, content: Value) -> Self {
        NativeContent {
            provider: source.into(),
            content,
        }
    }

    /// Whether the source named `provider` wrote this content.
    ///
    /// ```
    /// let n = tool_core::model::NativeContent::new("anthropic", serde_json::json!([]));
    /// assert!(n.is("anthropic") && !n.is("openai_chat"));
    /// ```
    pub fn is(&self, provider: &str) -> bool {
        self.provider == *provider
    }
}

/// Who wrote a turn's [`NativeContent`]: an HTTP adapter of an [`Api`], or a text format
/// (`text:<format>`, written by [`TextMode`](super::TextMode)). Serialized as its name, so
/// stored conversations read back the same.
///
/// ```
/// use tool_core::model::NativeSource;
/// use tool_core::provider::Api;
/// assert_eq!(NativeSource::from("openai_responses"), NativeSource::Api(Api::OpenAiResponses));
/// assert_eq!(NativeSource::from("text:hermes").to_string(), "text:hermes");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NativeSource {
    /// One of the HTTP adapters.
    Api(Api),
    /// A text format, by name (without the `text:` prefix).
    Text(String),
    /// Any other adapter, by the name it gave.
    Other(String),
}

/// The prefix of a text format's source name.
const TEXT_PREFIX: &str = "text:";

impl From<Api> for NativeSource {
    fn from(api: Api) -> Self {
        NativeSource::Api(api)
    }
}

impl From<&str> for NativeSource {
    fn from(name: &str) -> Self {
        if let Some(api) = Api::from_name(name) {
            NativeSource::Api(api)
        } else if let Some(format) = name.strip_prefix(TEXT_PREFIX) {
            NativeSource::Text(format.to_owned())
        } else {
            NativeSource::Other(name.to_owned())
        }
    }
}

impl From<String> for NativeSource {
    fn from(name: String) -> Self {
        NativeSource::from(name.as_str())
    }
}

impl fmt::Display for NativeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NativeSource::Api(api) => f.write_str(api.as_str()),
            NativeSource::Text(format) => write!(f, "{TEXT_PREFIX}{format}"),
            NativeSource::Other(name) => f.write_str(name),
        }
    }
}

impl PartialEq<str> for NativeSource {
    fn eq(&self, name: &str) -> bool {
        match self {
            NativeSource::Api(api) => api.as_str() == name,
            NativeSource::Text(format) => name
                .strip_prefix(TEXT_PREFIX)
                .is_some_and(|rest| rest == format),
            NativeSource::Other(other) => other == name,
        }
    }
}

impl PartialEq<&str> for NativeSource {
    fn eq(&self, name: &&str) -> bool {
        *self == **name
    }
}

impl PartialEq<Api> for NativeSource {
    fn eq(&self, api: &Api) -> bool {
        *self == NativeSource::Api(*api)
    }
}

impl Serialize for NativeSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for NativeSource {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(NativeSource::from(name))
    }
}

/// Why the model stopped, in neutral terms; [`StopReason::from_provider`] reads each API's
/// spelling.
///
/// ```
/// use tool_core::model::StopReason;
/// assert_eq!(StopReason::from_provider("tool_calls"), StopReason::ToolUse);
/// assert_eq!(StopReason::from_provider("MAX_TOKENS"), StopReason::MaxTokens);
/// assert_eq!(StopReason::from_provider("pause_turn"), StopReason::Other("pause_turn".into()));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its answer (`stop`, `end_turn`, `STOP`, `completed`).
    #[default]
    EndTurn,
    /// The model stopped to have tools run (`tool_calls`, `tool_use`, `requires_action`).
    ToolUse,
    /// The output token limit cut the answer (`length`, `max_tokens`, `MAX_TOKENS`,
    /// `incomplete`).
    MaxTokens,
    /// The provider refused or filtered the answer (`content_filter`, `refusal`, `SAFETY`).
    Refusal,
    /// Any other reason, as the provider spelled it.
    Other(String),
}

impl StopReason {
    /// Reads a provider's `finish_reason` / `stop_reason` / `finishReason` / status.
    ///
    /// ```
    /// use tool_core::model::StopReason;
    /// assert_eq!(StopReason::from_provider("end_turn"), StopReason::EndTurn);
    /// assert_eq!(StopReason::from_provider("SAFETY"), StopReason::Refusal);
    /// ```
    pub fn from_provider(reason: &str) -> Self {
        match reason {
            "stop" | "end_turn" | "stop_sequence" | "STOP" | "completed" => StopReason::EndTurn,
            "tool_calls" | "tool_use" | "function_call" | "requires_action" => StopReason::ToolUse,
            "length" | "max_tokens" | "MAX_TOKENS" | "incomplete" => StopReason::MaxTokens,
            "content_filter" | "refusal" | "SAFETY" | "RECITATION" | "PROHIBITED_CONTENT"
            | "BLOCKLIST" | "SPII" => StopReason::Refusal,
            other => StopReason::Other(other.to_string()),
        }
    }
}

/// Tokens one turn (or a whole run, summed) consumed.
///
/// ```
/// use tool_core::model::Usage;
/// let total = Usage::new(100, 20) + Usage::new(150, 10);
/// assert_eq!((total.input_tokens, total.output_tokens, total.total()), (250, 30, 280));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens, including cached ones.
    pub input_tokens: u64,
    /// Completion tokens, including reasoning tokens.
    pub output_tokens: u64,
    /// Prompt tokens served from the provider's cache (0 when not reported).
    #[serde(default)]
    pub cached_input_tokens: u64,
    /// Reasoning tokens within `output_tokens` (0 when not reported).
    #[serde(default)]
    pub reasoning_tokens: u64,
}

impl Usage {
    /// Usage with input and output counts.
    ///
    /// ```
    /// let usage = tool_core::model::Usage::new(100, 20);
    /// assert_eq!((usage.input_tokens, usage.output_tokens, usage.cached_input_tokens), (100, 20, 0));
    /// ```
    pub const fn new(input_tokens: u64, output_tokens: u64) -> Self {
        Usage {
            input_tokens,
            output_tokens,
            cached_input_tokens: 0,
            reasoning_tokens: 0,
        }
    }

    /// Input plus output tokens (saturating: counts come from the provider).
    ///
    /// ```
    /// assert_eq!(tool_core::model::Usage::new(100, 20).total(), 120);
    /// assert_eq!(tool_core::model::Usage::new(u64::MAX, 1).total(), u64::MAX);
    /// ```
    pub const fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

impl Add for Usage {
    type Output = Usage;
    fn add(mut self, other: Usage) -> Usage {
        self += other;
        self
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cached_input_tokens = self
            .cached_input_tokens
            .saturating_add(other.cached_input_tokens);
        self.reasoning_tokens = self.reasoning_tokens.saturating_add(other.reasoning_tokens);
    }
}

#[cfg(test)]
mod tests {
    use super::{Message, ToolResult};
    use crate::{RawJson, ToolResponse};

    #[test]
    fn a_result_with_data_survives_a_round_trip_inside_a_tagged_message() {
        let data = RawJson::from_string(r#"{"b":1,"a":[2.5,null,"x"]}"#.into()).unwrap();
        let response = ToolResponse::success("done").with_raw_data(data);
        let message = Message::Tool {
            results: vec![ToolResult::new("call_0", "t", response)],
        };
        let stored = serde_json::to_string(&message).unwrap();
        let back: Message = serde_json::from_str(&stored).unwrap();
        assert_eq!(back, message);
        let value = serde_json::to_value(&message).unwrap();
        assert_eq!(serde_json::from_value::<Message>(value).unwrap(), message);
        // Straight from text too, with the spacing made compact.
        let spaced: RawJson = serde_json::from_str(r#"{ "b" : 1, "a" : [ 2.5 ] }"#).unwrap();
        assert_eq!(spaced.get(), r#"{"b":1,"a":[2.5]}"#);
    }
}
