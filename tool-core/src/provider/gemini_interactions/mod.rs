//! Google's Interactions API (`POST /v1/interactions`): flat function tools, `tool_choice`
//! in `generation_config`, `function_call` steps and the `function_result` steps that answer
//! them.
//!
//! Shapes from the official google-genai SDK's interactions types: a tool is
//! `{"type": "function", "name", "description", "parameters"}` with the tool's JSON Schema as
//! it is; the model's answer is a list of steps: `thought {signature, summary}`,
//! `model_output {content: [{"type": "text", "text"}]}` and `function_call {id, name,
//! arguments}` with an object `arguments`; each call is answered by an input step
//! `{"type": "function_result", "call_id", "name", "result", "is_error"}`. A whole response
//! echoes the request's input steps (`user_input`, `function_result`) before the model's;
//! they are not part of the model's turn. There is no switch to turn parallel calls off.

mod stream;
mod wire;

#[cfg(feature = "http")]
pub(crate) use stream::reasoning_of;
pub use stream::GeminiInteractionsStream;

/// Google's Interactions API, as a [`ChatApi`](super::ChatApi).
///
/// ```
/// use tool_core::provider::{ChatApi, GeminiInteractions, ToolChoice};
/// assert_eq!(GeminiInteractions::tool_choice(&ToolChoice::Required, true), "any");
///
/// let response = serde_json::json!({"id": "v1_int_1", "status": "requires_action", "steps": [
///     {"type": "user_input", "content": [{"type": "text", "text": "Weather in Paris?"}]},
///     {"type": "thought", "signature": "c2ln"},
///     {"type": "function_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]});
/// let turn = GeminiInteractions::read_response(&response).unwrap();
/// assert_eq!(turn.calls[0].id, "call_1");
/// assert_eq!(turn.calls[0].arguments, r#"{"city":"Paris"}"#);
/// assert_eq!(turn.response_id.as_deref(), Some("v1_int_1"));
/// // The model's steps, the thought and its signature included, as they came.
/// assert_eq!(GeminiInteractions::history_entry(&turn), serde_json::json!(response["steps"].as_array().unwrap()[1..]));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct GeminiInteractions;
