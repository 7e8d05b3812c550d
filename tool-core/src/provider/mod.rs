//! Provider wire formats: tool definitions, `tool_choice`, reading calls out of responses
//! (whole or streamed), and writing results back in each provider's required shape and order.
//!
//! One folder per API ([`openai_chat`], [`openai_responses`], [`anthropic`], [`gemini`],
//! [`gemini_interactions`], [`mcp`]), each with its schema dialect, its wire shapes and its
//! stream assembler. The five chat APIs speak one vocabulary, the [`ChatApi`] trait,
//! implemented by a zero-sized marker per API ([`OpenAiChat`], [`OpenAiResponses`],
//! [`Anthropic`], [`Gemini`], [`GeminiInteractions`]): `tools`,
//! `tool_choice`, `read_response`, `history_entry`, `results_entry`, `stream`. [`Api`] names
//! an API wherever one is chosen at run time ([`check_definition`],
//! [`ToolRegistry::tool_list`](crate::ToolRegistry::tool_list)).
//!
//! Every reader takes the provider's JSON as a [`serde_json::Value`] and never panics:
//! malformed input is a [`ProviderError`] naming the JSON path and what was expected.
//!
//! History is faithful: every reader and stream assembler keeps the provider's own content in
//! [`AssistantTurn::native`], and [`ChatApi::history_entry`] sends it back unchanged and in
//! the provider's order (thinking blocks and signatures, server-tool blocks, `caller`,
//! reasoning items, Gemini thought signatures and mixed text and call parts). A streamed turn
//! is the same [`AssistantTurn`] as the same response read whole.
//!
//! ```
//! use tool_core::provider::{ChatApi, OpenAiChat, ToolChoice};
//! use tool_core::{tool, tools, ToolResponse};
//!
//! /// Current weather for a city.
//! #[tool]
//! fn get_weather(city: String) -> String { format!("15 degrees in {city}") }
//!
//! let registry = tools![get_weather];
//! let tools = OpenAiChat::tools(registry.definitions());
//! assert_eq!(tools[0]["function"]["strict"], true);
//! assert_eq!(OpenAiChat::tool_choice(&ToolChoice::Required, true), "required");
//!
//! let response = serde_json::json!({"choices": [{"finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null,
//!     "tool_calls": [{"id": "call_1", "type": "function",
//!                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
//! let turn = OpenAiChat::read_response(&response).unwrap();
//! let results = tool_core::block_on(registry.call_all(&turn.calls));
//! let messages = OpenAiChat::results_entry(&turn.calls, &results);
//! assert_eq!(messages[0]["tool_call_id"], "call_1");
//! assert_eq!(messages[0]["content"], "15 degrees in Paris");
//! ```

pub mod anthropic;
mod api;
mod check;
mod error;
pub mod gemini;
pub mod gemini_interactions;
pub mod mcp;
pub mod openai_chat;
pub mod openai_responses;
mod shared;
mod turn;

pub use anthropic::{Anthropic, AnthropicStream};
pub use api::{Api, Assembler, ChatApi};
pub use check::check_definition;
pub use error::ProviderError;
pub use gemini::{Gemini, GeminiStream};
pub use gemini_interactions::{GeminiInteractions, GeminiInteractionsStream};
pub use openai_chat::{OpenAiChat, OpenAiChatStream};
pub use openai_responses::{OpenAiResponses, OpenAiResponsesStream};
pub use turn::{AllowedMode, AssistantTurn, ToolChoice};

pub(crate) use api::Sealed;
pub(crate) use shared::{arguments_value, pairs, same_calls};
