//! OpenAI Chat Completions: function tools, `tool_choice`, `parallel_tool_calls`, reading
//! `message.tool_calls` (whole or streamed), and the `role: "tool"` messages that answer them.
//!
//! Shapes from OpenAI's function-calling guide and the Chat Completions API reference: a tool is
//! `{"type": "function", "function": {"name", "description", "parameters", "strict"}}`; a call
//! is `{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}`; each
//! call is answered by its own `{"role": "tool", "tool_call_id", "content"}` message, right
//! after the assistant message that made the calls, one per call. The strict-mode schema
//! ([`strict_schema`]) is shared with the Responses API.

mod attachments;
mod limits;
mod object_end;
mod schema;
mod stream;
mod wire;

pub use schema::strict_schema;
pub use stream::OpenAiChatStream;
pub(crate) use wire::parameters;

/// The Chat Completions API, as a [`ChatApi`](super::ChatApi).
///
/// ```
/// use tool_core::provider::{ChatApi, OpenAiChat, ToolChoice};
/// assert_eq!(OpenAiChat::tool_choice(&ToolChoice::tool("f"), true)["function"]["name"], "f");
/// let defs = [tool_core::ToolDefinition::new("f", "Does f.", serde_json::json!({"type": "object"}))];
/// let fields = OpenAiChat::tool_fields(&defs, &ToolChoice::Auto, false);
/// assert_eq!(fields["parallel_tool_calls"], false);
/// // With no tool to offer there are no tool fields at all (Chat refuses an empty `tools`).
/// assert!(OpenAiChat::tool_fields(&[], &ToolChoice::Auto, false).is_empty());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpenAiChat;
