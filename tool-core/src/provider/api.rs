//! Which API a piece of JSON belongs to ([`Api`]), and the one vocabulary every chat API
//! speaks ([`ChatApi`], [`Assembler`]).

use serde_json::Value;

use super::{AssistantTurn, ProviderError, ToolChoice};
use crate::call::{AllowedCallers, ToolCall};
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;

/// A provider API whose wire format this crate writes and reads.
///
/// ```
/// use tool_core::provider::Api;
/// assert_eq!(Api::Gemini.as_str(), "gemini");
/// assert_eq!(Api::ALL.len(), 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// OpenAI Chat Completions (and compatible servers).
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini `generateContent`.
    Gemini,
    /// Google's Interactions API (`/v1/interactions`).
    GeminiInteractions,
    /// Model Context Protocol `tools/list` and `tools/call`.
    Mcp,
}

impl Api {
    /// Every API, in a fixed order.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::Api::ALL[0], tool_core::provider::Api::OpenAiChat);
    /// ```
    pub const ALL: &'static [Api] = &[
        Api::OpenAiChat,
        Api::OpenAiResponses,
        Api::Anthropic,
        Api::Gemini,
        Api::GeminiInteractions,
        Api::Mcp,
    ];

    /// A short lowercase name, e.g. `"openai_responses"`.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::Api::OpenAiChat.as_str(), "openai_chat");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Api::OpenAiChat => "openai_chat",
            Api::OpenAiResponses => "openai_responses",
            Api::Anthropic => "anthropic",
            Api::Gemini => "gemini",
            Api::GeminiInteractions => "gemini_interactions",
            Api::Mcp => "mcp",
        }
    }

    /// The API named `name` (what [`Api::as_str`] gives).
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// assert_eq!(Api::from_name("anthropic"), Some(Api::Anthropic));
    /// assert_eq!(Api::from_name("text:hermes"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Api> {
        Api::ALL.iter().copied().find(|api| api.as_str() == name)
    }

    /// Whether the API has programs the model writes and the provider runs, which call
    /// tools (programmatic tool calling), and so takes `allowed_callers` on a tool.
    pub(crate) const fn has_programs(self) -> bool {
        matches!(self, Api::Anthropic | Api::OpenAiResponses)
    }

    /// Whether a model on this API is offered `def`: a tool that only programs may call is
    /// left out where there are no programs, since the model could never call it.
    pub(crate) fn offers(self, def: &ToolDefinition) -> bool {
        self.has_programs() || def.allowed_callers() != AllowedCallers::Program
    }

    /// The name of the rule set a definition is checked against: both OpenAI APIs share
    /// theirs, so reports say `openai` for either, and both Gemini APIs theirs (`gemini`).
    pub(crate) const fn rules_name(self) -> &'static str {
        match self {
            Api::OpenAiChat | Api::OpenAiResponses => "openai",
            Api::Gemini | Api::GeminiInteractions => "gemini",
            other => other.as_str(),
        }
    }
}

impl std::fmt::Display for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

mod sealed {
    /// Seals [`ChatApi`](super::ChatApi): only this crate's API markers implement it, so new
    /// APIs can be added without breaking anyone.
    ///
    /// ```
    /// fn api_name<A: tool_core::provider::ChatApi>() -> &'static str { A::API.as_str() }
    /// assert_eq!(api_name::<tool_core::provider::Gemini>(), "gemini");
    /// ```
    pub trait Sealed {}
}

pub(crate) use sealed::Sealed;

/// The wire format of one chat API, in the same words for each: the `tools` it is offered,
/// its `tool_choice`, reading a whole response, the history entry of an assistant turn, the
/// entries that answer its calls, and a stream assembler. Implemented by one zero-sized
/// marker per API ([`OpenAiChat`](super::OpenAiChat),
/// [`OpenAiResponses`](super::OpenAiResponses), [`Anthropic`](super::Anthropic),
/// [`Gemini`](super::Gemini), [`GeminiInteractions`](super::GeminiInteractions)); sealed, so
/// new APIs are added here.
///
/// Every reader takes the provider's JSON and never panics: malformed input is a
/// [`ProviderError`] naming the JSON path and what was expected.
///
/// ```
/// use tool_core::provider::{Anthropic, ChatApi, OpenAiChat, ToolChoice};
/// use tool_core::{tool, tools, ToolResponse};
///
/// /// Current weather for a city.
/// #[tool]
/// fn get_weather(city: String) -> String { format!("15 degrees in {city}") }
///
/// fn answer<A: ChatApi>(response: &serde_json::Value) -> Vec<serde_json::Value> {
///     let registry = tools![get_weather];
///     let turn = A::read_response(response).unwrap();
///     let results = tool_core::block_on(registry.call_all(&turn.calls));
///     A::results_entry(&turn.calls, &results)
/// }
///
/// let response = serde_json::json!({"stop_reason": "tool_use", "content": [
///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]});
/// let entries = answer::<Anthropic>(&response);
/// assert_eq!(entries[0]["content"][0]["content"], "15 degrees in Paris");
/// assert_eq!(OpenAiChat::tool_choice(&ToolChoice::Required, true), "required");
/// ```
pub trait ChatApi: Sealed + Send + Sync + 'static {
    /// Which API this is.
    const API: Api;

    /// The stream assembler of this API.
    type Stream: Assembler;

    /// The `tools` field for these definitions, in registration order. Where the API has no
    /// programs that call tools (Chat Completions, Gemini), a tool only programs may call
    /// ([`AllowedCallers::Program`]) is left out: the model could never call it.
    fn tools(defs: &[ToolDefinition]) -> Value;

    /// The `tool_choice` (Gemini: `toolConfig`) field. `parallel: false` asks for at most one
    /// call per turn where the API says so inside this field (Anthropic); APIs with a
    /// separate switch get it from [`ChatApi::tool_fields`].
    fn tool_choice(choice: &ToolChoice, parallel: bool) -> Value;

    /// Every request field about tools, to merge into a request body: `tools`, the choice,
    /// and the parallel switch where the API has one; none when no tool is left to offer.
    fn tool_fields(
        defs: &[ToolDefinition],
        choice: &ToolChoice,
        parallel: bool,
    ) -> serde_json::Map<String, Value>;

    /// Reads a whole (non-streamed) response.
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError>;

    /// The assistant turn as the history entry the API wants back (OpenAI Responses: an
    /// array of output items, spread into `input`). A turn read from the API is sent back
    /// as it came ([`AssistantTurn::native`]).
    fn history_entry(turn: &AssistantTurn) -> Value;

    /// The history entries that answer a turn's calls, one result per call in call order (a
    /// missing response becomes an `ERROR`).
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value>;

    /// A fresh stream assembler.
    fn stream() -> Self::Stream;
}

/// Assembles one streamed response, event by event, into the [`AssistantTurn`] the same
/// response read whole gives. A call is handed out only once it is complete.
///
/// ```
/// use tool_core::provider::{Assembler, ChatApi, OpenAiChat};
/// let mut stream = OpenAiChat::stream();
/// stream.push(&serde_json::json!({"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]})).unwrap();
/// assert_eq!(stream.finish().unwrap().text, "Hi");
/// ```
pub trait Assembler: Send + Default {
    /// Feeds one event or chunk (the JSON of one `data:` line).
    fn push(&mut self, event: &Value) -> Result<(), ProviderError>;

    /// The assembled turn; fails when the stream ended before the API's finish marker or
    /// inside a call.
    fn finish(self) -> Result<AssistantTurn, ProviderError>;
}

#[cfg(test)]
mod tests {
    use super::Api;
    use crate::{AllowedCallers, ToolDefinition};

    #[test]
    fn only_apis_with_programs_offer_a_program_only_tool() {
        let def = |allowed| {
            ToolDefinition::new("t", "T.", serde_json::json!({"type": "object"}))
                .with_allowed_callers(allowed)
        };
        let program = def(AllowedCallers::Program);
        let offering: Vec<Api> = Api::ALL
            .iter()
            .copied()
            .filter(|api| api.offers(&program))
            .collect();
        assert_eq!(offering, [Api::OpenAiResponses, Api::Anthropic]);
        for allowed in [AllowedCallers::Direct, AllowedCallers::Any] {
            assert!(Api::ALL.iter().all(|api| api.offers(&def(allowed))));
        }
    }
}
