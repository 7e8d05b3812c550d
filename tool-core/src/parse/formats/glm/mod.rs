//! GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>`.
//!
//! Values are untyped text, converted with the tool's input schema (GLM's template writes a
//! string as it is and anything else as JSON). The tool block is the GLM template's `# Tools`
//! section with one JSON signature per line, a result goes back as
//! `<tool_response>\n...\n</tool_response>` (the template puts `<|observation|>` before it).

mod body;
mod format;

pub(crate) use body::GlmBody;
pub(crate) use format::Glm;
