//! Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>`.
//!
//! The call id is the one the model wrote (`functions.NAME:IDX`), which the template writes
//! back with the result (`## Return of functions.NAME:IDX`). The tool block is the template's
//! `tool_declare` message: the tools as a JSON list.

mod body;
mod format;

pub(crate) use body::KimiBody;
pub(crate) use format::Kimi;
