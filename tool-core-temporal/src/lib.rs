//! Durable tool-core agent runs on [Temporal](https://temporal.io): a run survives the
//! process that started it, its steps spread over any number of workers, and no completed
//! step is done twice.
//!
//! The workflow ([`AgentWorkflow`]) holds a sans-IO [`Run`](tool_core::runner::Run) and
//! drives it step by step; each model request and each tool call is an activity (see
//! [`AgentActivities`]) whose result Temporal records once. A worker that dies loses nothing:
//! another worker replays the run from its history (no model turn asked again, no tool run
//! again) and retries the one step that was in flight. Each tool call carries an idempotency
//! key ([`ToolContext::idempotency_key`](tool_core::ToolContext::idempotency_key)), the same
//! on every attempt, so a tool with an outside effect can make itself exactly-once.
//!
//! A call that needs approval pauses the run in the server, with no process held, until the
//! workflow's `decide` signal arrives ([`DurableClient::decide`]); its `status` query says
//! where the run stands ([`DurableClient::status`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! use std::sync::Arc;
//! use tool_core::model::OpenAiChat;
//! use tool_core::{tool, tools, ToolContext};
//! use tool_core_temporal::{DurableAgent, DurableClient};
//!
//! /// Looks a key up.
//! #[tool(read_only)]
//! fn lookup(key: String) -> String { format!("value-of-{key}") }
//!
//! let agent = Arc::new(DurableAgent::new(OpenAiChat::new("gpt-4o-mini"), tools![lookup]));
//! // In each worker process: `tool_core_temporal::worker_options("agents", agent)`, then
//! // `temporalio_sdk::Worker::new(..).run()`. Anywhere:
//! let client = DurableClient::connect("127.0.0.1:7233", "default").await?;
//! client.start("agents", "run-1", "What is the value of k1?").await?;
//! let status = client.wait("run-1").await?;
//! println!("{:?}", status.answer);
//! # let _ = agent; Ok(()) }
//! ```
//!
//! A durable run reports what a local run reports: its turns and token usage
//! ([`RunStatus`], [`AgentOutput`]); its [`RunEvent`](tool_core::runner::RunEvent)s, the
//! run's own from the workflow's `events` query ([`DurableClient::events`],
//! [`DurableClient::follow`]) and the model's
//! live deltas to a sink on the worker ([`DurableAgent::with_event_sink`]); and the runner's
//! spans (`invoke_agent`, `chat {model}`, `execute_tool {name}`).
//!
//! The guide (`docs/durable.md`) covers what is exactly-once and what is at-least-once,
//! versioning, and operations (what the spans of a run spread over processes look like).

mod activities;
mod agent;
mod client;
mod events;
mod failure;
mod status;
mod telemetry;
mod worker;
mod workflow;

pub use activities::{idempotency_key, AgentActivities, DurableCall, ModelInput, ToolInput};
pub use agent::{DurableAgent, DurableOptions};
pub use client::{ClientError, DurableClient};
pub use events::{EventPage, LiveEvent};
pub use status::{Decision, RunState, RunStatus, WorkflowStatus};
pub use worker::worker_options;
pub use workflow::{AgentInput, AgentOutput, AgentWorkflow};
