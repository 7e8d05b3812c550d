//! Code mode for tool-core: instead of one model turn per tool call, the model writes one
//! JavaScript program that calls many tools, and the program runs here, in an embedded
//! QuickJS engine with no ambient authority.
//!
//! [`CodeMode`] turns a [`ToolRegistry`](tool_core::ToolRegistry) into one code tool
//! ([`CodeTool`]) whose only input is JavaScript and whose description declares the
//! callable tools in TypeScript (`tools.NAME(args): Promise<Result>`). Give the runner
//! [`CodeMode::registry`] (the code tool alone) or [`CodeMode::join`] (the tools and the
//! code tool). Inside a program every call goes through the registry's dispatch as a call
//! made by a program: validation, who may call the tool, approval under the run's policy,
//! time limits and output caps. A program is stopped, with an error naming the limit, at
//! its wall time, memory, call count or result size limit ([`CodeLimits`]); the run goes on.
//!
//! ```
//! use tool_core::{tool, tools, ToolCall};
//! use tool_core_code::CodeMode;
//!
//! /// Adds two integers.
//! #[tool(allowed_callers = "any")]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! let registry = CodeMode::new(tools![add]).registry();
//! let program = r#"{"code": "const x = await tools.add({a: 1, b: 2}); console.log('x is', x); return tools.add({a: x, b: x});"}"#;
//! let reply = tool_core::block_on(registry.call(&ToolCall::new("c1", "run_code", program)));
//! assert_eq!(reply.model_text(), "x is 3\nReturned: 6");
//! ```
//!
//! The design, the sandbox's guarantees and measured costs are in the repository's
//! `docs/code_mode.md`.

#![warn(missing_docs)]

mod declarations;
mod engine;
mod host;
mod join;
mod limits;
mod mode;
mod native;
mod protocol;
mod result;
mod tool;
mod typescript;

pub use limits::CodeLimits;
pub use mode::CodeMode;
pub use tool::CodeTool;
