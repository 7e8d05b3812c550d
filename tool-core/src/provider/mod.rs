//! Provider wire formats: tool definitions, `tool_choice`, reading calls out of responses
//! (whole or streamed), and writing results back in each provider's required shape and order.
//!
//! Every reader takes the provider's JSON as a [`serde_json::Value`] and never panics:
//! malformed input is a [`ProviderError`] naming the JSON path and what was expected.
//!
//! History is faithful: every reader and stream assembler keeps the provider's own content in
//! [`AssistantTurn::native`], and the history writers (`anthropic::assistant_message`,
//! `openai_responses::assistant_items`, `gemini::model_content`) send it back unchanged and
//! in the provider's order (thinking blocks and signatures, server-tool blocks, `caller`,
//! reasoning items, Gemini thought signatures and mixed text and call parts). A streamed turn
//! is the same [`AssistantTurn`] as the same response read whole.
//!
//! ```
//! use tool_core::provider::{openai, ToolChoice};
//! use tool_core::{tool, tools, ToolResponse};
//!
//! /// Current weather for a city.
//! #[tool]
//! fn get_weather(city: String) -> String { format!("15 degrees in {city}") }
//!
//! let registry = tools![get_weather];
//! let tools = openai::tools(registry.definitions());
//! assert_eq!(tools[0]["function"]["strict"], true);
//! assert_eq!(openai::tool_choice(&ToolChoice::Required), "required");
//!
//! let response = serde_json::json!({"choices": [{"finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null,
//!     "tool_calls": [{"id": "call_1", "type": "function",
//!                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
//! let turn = openai::read_response(&response).unwrap();
//! let results = tool_core::block_on(registry.call_all(&turn.calls));
//! let messages = openai::tool_messages(&turn.calls, &results);
//! assert_eq!(messages[0]["tool_call_id"], "call_1");
//! assert_eq!(messages[0]["content"], "15 degrees in Paris");
//! ```

pub mod anthropic;
mod anthropic_stream;
mod error;
pub mod gemini;
pub mod mcp;
pub mod openai;
pub mod openai_responses;
mod openai_responses_stream;
mod openai_stream;
mod turn;

pub use anthropic_stream::AnthropicStream;
pub use error::ProviderError;
pub use openai_responses_stream::OpenAiResponsesStream;
pub use openai_stream::OpenAiStream;
pub use turn::{AssistantTurn, ToolChoice};

use serde_json::Value;

use crate::call::ToolCall;
use crate::response::ToolResponse;

/// Pairs each call with its response in call order. Responses are matched by position, which
/// is what [`ToolRegistry::call_all`](crate::ToolRegistry::call_all) returns; a missing
/// response becomes an `ERROR` so every call still gets exactly one result (a call without a
/// result is the most common cause of a 400 on the next request).
pub(crate) fn pairs<'a>(
    calls: &'a [ToolCall],
    responses: &'a [ToolResponse],
) -> impl Iterator<Item = (&'a ToolCall, std::borrow::Cow<'a, ToolResponse>)> + 'a {
    calls.iter().enumerate().map(move |(i, call)| {
        let response = match responses.get(i) {
            Some(r) => std::borrow::Cow::Borrowed(r),
            None => std::borrow::Cow::Owned(ToolResponse::error(
                crate::ToolErrorCode::Unknown,
                format!(
                    "no result was produced for call '{}' of '{}'",
                    call.id, call.name
                ),
            )),
        };
        (call, response)
    })
}

/// Parses argument text back into a JSON value for providers that want an object; text that
/// is not JSON stays a string rather than being dropped.
pub(crate) fn arguments_value(arguments: &str) -> Value {
    let trimmed = arguments.trim();
    if trimmed.is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(trimmed).unwrap_or_else(|_| Value::String(arguments.to_string()))
}

/// Whether two call lists name the same calls: ids and names equal, arguments equal as JSON
/// values (a streamed call keeps the model's spacing, a whole response's is re-serialized).
pub(crate) fn same_calls(a: &[ToolCall], b: &[ToolCall]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.id == y.id
                && x.name == y.name
                && (x.arguments == y.arguments
                    || arguments_value(&x.arguments) == arguments_value(&y.arguments))
        })
}
