//! Mistral: `[TOOL_CALLS] [{"name": ..., "arguments": {...}}]` or `[TOOL_CALLS]NAME[ARGS]{...}`.
//!
//! The tool block is `[AVAILABLE_TOOLS][...][/AVAILABLE_TOOLS]`, a result goes back as
//! `[TOOL_RESULTS]{"call_id": ..., "content": ...}[/TOOL_RESULTS]`.

mod body;
mod format;

pub(crate) use body::MistralBody;
pub(crate) use format::Mistral;
