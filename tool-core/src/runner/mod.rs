//! The agent loop: from a user message to the final answer, streamed, with approval.
//!
//! [`Run`] is the loop as a sans-IO state machine: it holds the neutral conversation and the
//! options, says what to do next ([`Step`]: call the model with this request, run these
//! calls, wait for approval, done) and takes back what happened. It never does I/O or awaits,
//! so it is tested without a runtime and driven by any transport. Its state is
//! `serde`-serializable: a run paused for approval can be stored and resumed elsewhere.
//!
//! [`Runner`] is the async driver: `Runner::new(model, registry)` with [`Runner::run`] and
//! [`Runner::run_streamed`] (a stream of [`RunEvent`]s: text deltas as they arrive, calls,
//! tool results and side-channel events, turn and run ends). It needs no executor of its own.
//!
//! Defaults ([`RunOptions`]): at most 10 model turns, then [`RunError::MaxTurns`]; all calls
//! of a turn run concurrently, results in call order; `tool_choice` goes back to auto after a
//! turn in which it was forced; calls of `destructive` tools wait for approval; the run ends
//! at the first turn without calls, or at [`RunOptions::stop_at_tool`].
//!
//! ```
//! use tool_core::model::{ModelTurn, ScriptedModel};
//! use tool_core::runner::{RunOutcome, Runner};
//! use tool_core::{tool, tools, ToolCall};
//!
//! /// Deletes a file.
//! #[tool(destructive)]
//! fn delete_file(path: String) -> String { format!("deleted {path}") }
//!
//! let model = ScriptedModel::new([
//!     ModelTurn::with_calls("", vec![ToolCall::new("c1", "delete_file", r#"{"path":"/tmp/x"}"#)]),
//!     ModelTurn::text("Deleted."),
//! ]);
//! let runner = Runner::new(model, tools![delete_file]);
//! let paused = tool_core::block_on(runner.run("Delete /tmp/x")).unwrap();
//! assert_eq!(paused.pending_approvals()[0].id, "c1");
//!
//! // Store the run while a person decides, then restore and resume it.
//! let stored = serde_json::to_string(&paused.run).unwrap();
//! let mut run: tool_core::runner::Run = serde_json::from_str(&stored).unwrap();
//! run.approve("c1").unwrap();
//! let done = tool_core::block_on(runner.resume(run)).unwrap();
//! assert_eq!(done.outcome, RunOutcome::Finished { text: "Deleted.".into() });
//! ```

mod driver;
mod early;
mod error;
mod event;
mod hooks;
mod join;
mod limits;
mod options;
mod output;
mod prepare;
mod result;
mod run;
mod stream;
mod telemetry;
mod tool_search;
mod typed;

pub use driver::Runner;
pub use error::{RunError, UsageLimit};
pub use event::RunEvent;
pub use limits::UsageLimits;
pub use options::{ApprovalPolicy, RunOptions};
pub use output::{OutputMode, OutputSpec};
pub use result::RunResult;
pub use run::{Run, RunOutcome, Step, ToolBatch};
pub use stream::RunStream;
#[cfg(feature = "tracing")]
pub use telemetry::{agent_span, ChatSpan};
pub use typed::TypedResult;
