//! Model Context Protocol: `tools/list` entries, reading a `tools/call` request, and its
//! result.
//!
//! From the MCP specification (Tools): a tool is `{"name", "description", "inputSchema",
//! "outputSchema", "annotations"}` with the hints `readOnlyHint`, `destructiveHint`, `idempotentHint` and
//! `openWorldHint`; a result is `{"content": [{"type": "text", "text"}], "isError"}`, with
//! `structuredContent` matching the tool's `outputSchema` when it declares one. A response's
//! attachments are image, audio, embedded-resource or resource-link content after the text.
//!
//! MCP is not a chat API (no `tool_choice`, no history), so it has functions of its own rather
//! than a [`ChatApi`](super::ChatApi) marker.

mod attachments;
mod schema;
mod wire;

pub use schema::input_schema;
pub use wire::{call_result, read_call, tools};

#[cfg(feature = "mcp")]
pub(crate) use attachments::read_block;
#[cfg(feature = "mcp")]
pub(crate) use wire::tool;
