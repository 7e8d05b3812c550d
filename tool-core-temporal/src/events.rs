//! A durable run's events: the [`RunEvent`]s a local run streams, in two parts. The run-level
//! events (turns, calls, tool results, approvals, the end) are derived in the workflow from
//! what its history records, so they are the same on every replay, and are read with the
//! workflow's `events` query ([`EventPage`]). The deltas a model streams happen inside the
//! model activity and are not recorded: they go live to the worker's sink ([`LiveEvent`]),
//! and the query shows each turn's text, reasoning and arguments whole.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_core::model::{ModelEvent, ModelTurn};
use tool_core::runner::RunEvent;
use tool_core::ToolResponse;

/// A page of a durable run's events, from the workflow's `events` query
/// ([`DurableClient::events`](crate::DurableClient::events)). Each event is a
/// [`RunEvent`] as it serializes (`{"type": "tool_result", ...}`), the form an event stream
/// (SSE) forwards.
///
/// ```
/// let page: tool_core_temporal::EventPage = serde_json::from_str(
///     r#"{"events":[{"type":"turn_started","turn":1}],"next":1,"ended":false}"#,
/// ).unwrap();
/// assert_eq!((page.events[0]["type"].as_str(), page.next, page.ended), (Some("turn_started"), 1, false));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EventPage {
    /// The events from the index asked for, in order.
    pub events: Vec<Value>,
    /// The index to ask from next time (the number of events so far).
    pub next: usize,
    /// Whether the run has ended: the last event is `run_finished` or `run_failed`.
    pub ended: bool,
}

/// An event of a durable run's model request as the model streams it (text, reasoning and
/// argument deltas, a call started or ready), handed to the sink set with
/// [`DurableAgent::with_event_sink`](crate::DurableAgent::with_event_sink) on the worker
/// that runs the request. A request that is tried again (its worker died, a rate limit)
/// streams again, so a sink may see a turn's deltas more than once: `attempt` tells them
/// apart.
///
/// ```
/// use tool_core::runner::RunEvent;
/// use tool_core_temporal::LiveEvent;
/// let event = LiveEvent::new("run-1", 1, 1, RunEvent::TextDelta { text: "Hel".into() });
/// assert_eq!((event.run_id.as_str(), event.turn, event.attempt), ("run-1", 1, 1));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LiveEvent {
    /// The workflow id of the run.
    pub run_id: String,
    /// The turn (1-based) being streamed.
    pub turn: u32,
    /// The attempt of the model request (1 for the first).
    pub attempt: u32,
    /// The event.
    pub event: RunEvent,
}

impl LiveEvent {
    /// An event of turn `turn` of run `run_id`, attempt `attempt`.
    pub fn new(run_id: impl Into<String>, turn: u32, attempt: u32, event: RunEvent) -> Self {
        LiveEvent {
            run_id: run_id.into(),
            turn,
            attempt,
            event,
        }
    }
}

/// Where a worker hands live events.
pub(crate) type EventSink = Arc<dyn Fn(LiveEvent) + Send + Sync>;

/// A model's streamed event as the run event a local run hands out (`None` for the
/// finished turn, which the workflow records).
pub(crate) fn live(event: ModelEvent) -> Option<RunEvent> {
    Some(match event {
        ModelEvent::TextDelta(text) => RunEvent::TextDelta { text },
        ModelEvent::ReasoningDelta(text) => RunEvent::ReasoningDelta { text },
        ModelEvent::CallStarted { index, id, name } => RunEvent::CallStarted { index, id, name },
        ModelEvent::ArgumentsDelta { index, delta } => RunEvent::ArgumentsDelta { index, delta },
        ModelEvent::CallReady { index, call } => RunEvent::CallReady { index, call },
        _ => return None,
    })
}

/// The events of a recorded turn, in the order the adapters stream them (reasoning, text,
/// then each call started, its arguments, ready), each delta whole, then `TurnFinished`.
pub(crate) fn turn_events(turn_number: u32, turn: &ModelTurn) -> Vec<RunEvent> {
    let mut events = Vec::with_capacity(3 + 3 * turn.calls.len());
    if !turn.reasoning.is_empty() {
        events.push(RunEvent::ReasoningDelta {
            text: turn.reasoning.clone(),
        });
    }
    if !turn.text.is_empty() {
        events.push(RunEvent::TextDelta {
            text: turn.text.clone(),
        });
    }
    for (index, call) in turn.calls.iter().enumerate() {
        events.push(RunEvent::CallStarted {
            index,
            id: call.id.clone(),
            name: call.name.clone(),
        });
        if !call.arguments.is_empty() {
            events.push(RunEvent::ArgumentsDelta {
                index,
                delta: call.arguments.clone(),
            });
        }
        events.push(RunEvent::CallReady {
            index,
            call: call.clone(),
        });
    }
    events.push(RunEvent::TurnFinished {
        turn: turn_number,
        stop_reason: turn.stop_reason.clone(),
        usage: turn.usage,
    });
    events
}

/// A call's side-channel events, then its result, as a local run hands them out.
pub(crate) fn result_events(call_id: &str, name: &str, response: &ToolResponse) -> Vec<RunEvent> {
    let mut events: Vec<RunEvent> = response
        .events
        .iter()
        .map(|event| RunEvent::ToolEvent {
            call_id: call_id.to_string(),
            event: event.clone(),
        })
        .collect();
    events.push(RunEvent::ToolResult {
        call_id: call_id.to_string(),
        name: name.to_string(),
        response: response.clone(),
    });
    events
}

/// An event as the query carries it. A `RunEvent` always serializes (its parts are plain
/// data); were it ever not to, the event shows as `null` rather than failing the workflow.
pub(crate) fn to_value(event: &RunEvent) -> Value {
    serde_json::to_value(event).unwrap_or(Value::Null)
}
