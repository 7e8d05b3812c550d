//! [`RunEvent`]: what an application sees while a run streams.

use serde::Serialize;

use crate::call::ToolCall;
use crate::model::{StopReason, Usage};
use crate::response::{ToolEvent, ToolResponse};

use super::error::RunError;
use super::run::RunOutcome;

/// One event of [`Runner::run_streamed`](super::Runner::run_streamed), in the order things
/// happen. Text deltas are handed out as the model streams them, before any call of the same
/// turn is ready or run. Serializes as `{"type": "text_delta", ...}` for event streams (SSE).
///
/// ```
/// let e = tool_core::runner::RunEvent::TextDelta { text: "Hi".into() };
/// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"type":"text_delta","text":"Hi"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunEvent {
    /// A model turn begins (1-based).
    TurnStarted {
        /// The turn number.
        turn: u32,
    },
    /// A piece of assistant text, as it arrived.
    TextDelta {
        /// The text.
        text: String,
    },
    /// A piece of the model's reasoning (thinking, a reasoning summary), as it arrived;
    /// never part of the answer's text.
    ReasoningDelta {
        /// The reasoning text.
        text: String,
    },
    /// A call began streaming.
    CallStarted {
        /// Position of the call in the turn.
        index: usize,
        /// The call id.
        id: String,
        /// The tool name.
        name: String,
    },
    /// A fragment of a call's arguments.
    ArgumentsDelta {
        /// Position of the call in the turn.
        index: usize,
        /// The fragment.
        delta: String,
    },
    /// A call is complete; it runs after the turn finishes.
    CallReady {
        /// Position of the call in the turn.
        index: usize,
        /// The call.
        call: ToolCall,
    },
    /// The model's turn is complete.
    TurnFinished {
        /// The turn number.
        turn: u32,
        /// Why the model stopped.
        stop_reason: StopReason,
        /// Tokens of this turn, when reported.
        #[serde(skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// A side-channel event a tool attached to its response, for the UI (never shown to the
    /// model); comes just before that call's [`RunEvent::ToolResult`].
    ToolEvent {
        /// The call that produced it.
        call_id: String,
        /// The event.
        event: ToolEvent,
    },
    /// A call's response (as the call finishes; a denied call's at once).
    ToolResult {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// The response the model will see.
        response: ToolResponse,
    },
    /// The run paused: these calls wait for approval.
    ApprovalRequired {
        /// The calls, in call order.
        calls: Vec<ToolCall>,
    },
    /// The run ended (or paused): the last event.
    RunFinished {
        /// How it ended.
        outcome: RunOutcome,
        /// Tokens of the whole run.
        usage: Usage,
        /// Model turns taken.
        turns: u32,
    },
    /// The run failed: the last event.
    RunFailed {
        /// Why.
        error: RunError,
        /// Tokens the run had used when it failed (every completed model turn).
        usage: Usage,
    },
}
