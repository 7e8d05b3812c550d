//! OpenAI Responses API: flat function tools, `tool_choice`, `function_call` output items and
//! `function_call_output` input items.
//!
//! Shapes from the Responses API reference: a tool is
//! `{"type": "function", "name", "description", "parameters", "strict"}` (flat, and `strict`
//! is sent explicitly because this API defaults it to true); a call is an output item
//! `{"type": "function_call", "id": "fc_…", "call_id": "call_…", "name", "arguments"}` and is
//! answered by an input item `{"type": "function_call_output", "call_id", "output"}`.

mod attachments;
mod namespace;
mod search;
mod stream;
mod wire;

#[cfg(feature = "http")]
pub(crate) use namespace::in_namespace;
#[cfg(feature = "http")]
pub(crate) use search::has_tool_search;
pub(crate) use search::searched_tools;
pub use search::tools_with_search;
#[cfg(feature = "http")]
pub(crate) use stream::caller_of;
pub use stream::OpenAiResponsesStream;

/// The Responses API, as a [`ChatApi`](super::ChatApi).
///
/// ```
/// use tool_core::provider::{ChatApi, OpenAiResponses, ToolChoice};
/// assert_eq!(OpenAiResponses::tool_choice(&ToolChoice::tool("f"), true), serde_json::json!({"type": "function", "name": "f"}));
///
/// let response = serde_json::json!({"status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}]});
/// let turn = OpenAiResponses::read_response(&response).unwrap();
/// assert_eq!(turn.calls[0].id, "call_1");
/// assert_eq!(turn.item_ids, [Some("fc_1".to_string())]);
/// assert_eq!(OpenAiResponses::history_entry(&turn), response["output"]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpenAiResponses;
