//! Gemini `generateContent`: `function_declarations`, `tool_config`, reading `functionCall`
//! parts (whole or streamed) and the `functionResponse` parts that answer them.
//!
//! From Gemini's function-calling guide and the Gemini API reference: calls are `functionCall` parts
//! `{"name", "args"}` with an object `args` and usually no id (newer models may send `id`);
//! `finishReason` is `STOP` even when there are calls; a part may carry a `thoughtSignature`
//! that must be sent back unchanged with that part; answers are `functionResponse` parts
//! `{"name", "response": {...}}` where the reference suggests `output` for a result and
//! `error` for a failure. There is no switch to turn parallel calls off.

mod attachments;
mod schema;
mod stream;
mod wire;

pub use schema::{json_schema, parameters_schema, GEMINI_RECURSION_LIMIT};
pub use stream::GeminiStream;
pub use wire::{results_entry_for, tools_json_schema};

/// The Gemini API, as a [`ChatApi`](super::ChatApi).
///
/// ```
/// use tool_core::provider::{ChatApi, Gemini, ToolChoice};
/// assert_eq!(Gemini::tool_choice(&ToolChoice::tool("f"), true),
///            serde_json::json!({"function_calling_config": {"mode": "ANY", "allowed_function_names": ["f"]}}));
///
/// let response = serde_json::json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Beijing"}}, "thoughtSignature": "s"},
///     {"text": "Meanwhile, "}, {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}]}}]});
/// let turn = Gemini::read_response(&response).unwrap();
/// assert_eq!(turn.calls[1].id, "gemini_call_1_get_weather");
/// assert_eq!(turn.calls[1].arguments, r#"{"city":"Tokyo"}"#);
/// assert_eq!(Gemini::history_entry(&turn), response["candidates"][0]["content"]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Gemini;
