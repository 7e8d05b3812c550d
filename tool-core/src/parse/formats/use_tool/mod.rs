//! `<use_tool>`: this crate's own XML prompt format.
//!
//! ```text
//! <use_tool>
//!   <tool_name>NAME</tool_name>
//!   <arguments>{...}</arguments>
//! </use_tool>
//! ```
//!
//! The parser is a byte-level state machine on the shared core; `<name>` and `<argument>` are
//! accepted as aliases, and every tolerance is reported as a diagnostic.

mod call;
mod format;
mod in_call;
mod parser;
pub(crate) mod tags;

pub(crate) use format::UseTool;
pub(crate) use parser::UseToolMachine;
