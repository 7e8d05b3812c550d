//! Tool calling for models that only write text: the tools go into the prompt, the calls are
//! parsed out of the streamed reply, the results go back as a user message. [`TextMode`] takes
//! any [`ToolFormat`](crate::parse::ToolFormat) (`<use_tool>`, Hermes/Qwen, Qwen3-Coder XML,
//! Mistral, gpt-oss harmony); [`XmlMode`] is its `<use_tool>` case.

mod history;
mod mode;
mod rejected;
mod reply;
mod xml;

pub use mode::{native_provider, TextMode};
pub use xml::{XmlMode, XML_PROVIDER};
