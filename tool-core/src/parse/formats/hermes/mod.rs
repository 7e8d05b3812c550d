//! Hermes / Qwen2.5 / Qwen3: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.
//!
//! The tool block is the Qwen2.5/Qwen3 chat template's `# Tools` section, a result goes back
//! as `<tool_response>\n...\n</tool_response>`.

mod body;
mod format;

pub(crate) use body::HermesBody;
pub(crate) use format::Hermes;
