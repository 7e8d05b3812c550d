//! Reading tool calls out of a model's text reply, as it streams.
//!
//! One framework serves every text format ([`ToolFormat`]): `<use_tool>` (this crate's XML
//! prompt format), Hermes/Qwen `<tool_call>`, Qwen3-Coder, Mistral, gpt-oss harmony, GLM,
//! MiniMax-M2, Kimi K2, DeepSeek, Llama and pythonic calls.
//! [`FormatParser::feed`] takes each chunk as it streams in and appends [`Event`]s;
//! [`FormatParser::finish`] ends the reply. A complete parse is literally
//! feed-everything-then-finish ([`FormatParser::parse_all`]). [`UseToolParser`] is the
//! `<use_tool>` parser on its own; [`TextCallParser`] is what both have in common.
//!
//! Per chunk the work is O(chunk): prose is skipped with `memchr` for the first byte of a
//! marker, a call's body is scanned once byte by byte for JSON depth and string state, nothing
//! earlier is re-read, and the arguments are parsed by serde_json once, when the call closes.
//!
//! ```
//! use tool_core::parse::{EndReason, Event, UseToolParser};
//!
//! let reply = "I'll look it up.\n<use_tool>\n  <tool_name>search</tool_name>\n  <arguments>{\"q\": \"</arguments> in a string\"}</arguments>\n</use_tool>";
//! let mut parser = UseToolParser::new();
//! let mut events = Vec::new();
//! for chunk in reply.as_bytes().chunks(5) {
//!     parser.feed_bytes(chunk, &mut events);
//! }
//! parser.finish(EndReason::Stop, &mut events);
//! let text: String = events.iter().filter_map(Event::as_text).collect();
//! assert_eq!(text, "I'll look it up.\n");
//! assert!(events.iter().any(|e| matches!(e, Event::CallComplete { call, .. }
//!     if call.arguments == r#"{"q": "</arguments> in a string"}"#)));
//! ```

mod check;
mod event;
mod fence;
mod formats;
mod json_scan;
mod prose;
mod repair;
mod tag;
mod text_chunk;
mod utf8;

pub use event::{Diagnostic, DiagnosticKind, EndReason, Event};
pub use formats::{
    FormatOptions, FormatParser, FormatTools, TextCallParser, TextCallResult, ToolFormat,
    UseToolParser,
};
pub use formats::{ModelFormat, UnknownModel};
pub use text_chunk::TextChunk;
