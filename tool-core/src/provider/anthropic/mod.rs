//! Anthropic Messages: `tools`, `tool_choice`, reading `tool_use` blocks, and the `user`
//! message of `tool_result` blocks that answers them.
//!
//! Rules from Anthropic's "handling tool calls" page: calls are `tool_use` blocks
//! `{"id", "name", "input"}` with `stop_reason: "tool_use"`; the answer is one `user` message
//! right after, whose `tool_result` blocks (`tool_use_id`, `content`, `is_error`) come first,
//! with any text after all of them; content is a string or a list of blocks. `tool_choice`
//! (`auto`, `any`, `tool`, `none`) and `disable_parallel_tool_use` are from the Messages API
//! reference.

mod attachments;
mod code_execution;
mod schema;
mod search;
mod stream;
mod wire;

pub use code_execution::CodeExecution;
#[cfg(feature = "http")]
pub(crate) use code_execution::{container_id, container_of};
pub use schema::input_schema;
#[cfg(feature = "http")]
pub(crate) use search::has_tool_search;
pub(crate) use search::searched_tools;
#[cfg(feature = "http")]
pub(crate) use search::tools_for;
pub use search::{tools_with_search, SearchTool};
pub use stream::AnthropicStream;
pub use wire::{results_message, tool_result, tools_strict, ResultContent, CODE_EXECUTION_CALLER};

/// The Messages API, as a [`ChatApi`](super::ChatApi).
///
/// ```
/// use tool_core::provider::{Anthropic, ChatApi, ToolChoice};
/// assert_eq!(Anthropic::tool_choice(&ToolChoice::Auto, false),
///            serde_json::json!({"type": "auto", "disable_parallel_tool_use": true}));
///
/// let response = serde_json::json!({"stop_reason": "tool_use", "content": [
///     {"type": "thinking", "thinking": "The user wants the weather.", "signature": "EqQB"},
///     {"type": "text", "text": "Checking."},
///     {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}}]});
/// let turn = Anthropic::read_response(&response).unwrap();
/// assert_eq!((turn.text.as_str(), turn.calls[0].arguments.as_str()), ("Checking.", r#"{"x":1}"#));
/// assert_eq!(Anthropic::history_entry(&turn)["content"], response["content"]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Anthropic;
