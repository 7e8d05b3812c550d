//! Qwen3-Coder: `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>`.
//!
//! Parameter values are untyped text; with the tools' input schemas they are converted to
//! the declared types. The tool block is the Qwen3-Coder template's `<tools>` of
//! `<function>` elements, a result goes back as `<tool_response>\n...\n</tool_response>`.

mod body;
mod format;
mod prompt;

pub(crate) use body::Qwen3CoderBody;
pub(crate) use format::Qwen3Coder;
