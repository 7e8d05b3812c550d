//! gpt-oss harmony: messages framed by special tokens; a message whose header names a
//! recipient (`to=functions.NAME`) is a call.
//!
//! The tool block is the developer message's `# Tools` section (`namespace functions`), a
//! result goes back as a message from the tool:
//! `<|start|>functions.NAME to=assistant<|channel|>commentary<|message|>...<|end|>`.

mod format;
mod parser;
mod prompt;

pub(crate) use format::Harmony;
pub(crate) use parser::HarmonyParser;
