//! Tool calling for models that only write text: the tools go into the prompt, the calls are
//! parsed out of the streamed reply, the results go back as a user message. [`TextMode`] takes
//! any [`ToolFormat`](crate::parse::ToolFormat) (`<use_tool>`, Hermes/Qwen, Qwen3-Coder XML,
//! Mistral, gpt-oss harmony, and the other open-model formats).
//!
//! ```
//! use tool_core::model::{ModelTurn, ScriptedModel, TextMode};
//! use tool_core::parse::ToolFormat;
//! use tool_core::runner::Runner;
//! use tool_core::{tool, tools};
//!
//! /// Adds two integers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! let text_model = ScriptedModel::new([
//!     ModelTurn::text("<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}\n</tool_call>"),
//!     ModelTurn::text("5"),
//! ]);
//! let runner = Runner::new(TextMode::new(text_model, ToolFormat::Hermes), tools![add]);
//! let result = tool_core::block_on(runner.run("2 + 3?")).unwrap();
//! assert_eq!((result.text(), result.run.turns()), (Some("5"), 2));
//! ```

mod history;
mod mode;
mod reply;

pub use mode::TextMode;
