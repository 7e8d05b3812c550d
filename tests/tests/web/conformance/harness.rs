//! What the scenarios share: a runner over a fake, a streamed run collected, and readers of
//! events and request bodies.

use serde_json::Value;
use tool_core::model::{Message, Model, ModelTurn};
use tool_core::runner::{Run, RunEvent, RunOptions, Runner};
use tool_core::ToolRegistry;

use super::Fake;

pub const QUESTION: &str = "What's the weather in Paris and Tokyo?";
pub const FINAL: &str = "Paris: 15 C and light rain. Tokyo: 22 C and sunny.";

pub fn runner(fake: &Fake, registry: ToolRegistry, options: RunOptions) -> Runner<Box<dyn Model>> {
    Runner::new(fake.model(), registry).with_options(options)
}

/// Every event of a streamed run, and the run handed back.
pub async fn streamed(runner: &Runner<Box<dyn Model>>, input: &str) -> (Vec<RunEvent>, Run) {
    let mut stream = runner.run_streamed(input);
    let mut events = Vec::new();
    while let Some(event) = stream.next_event().await {
        events.push(event);
    }
    let run = stream.take_run().expect("the run is handed back");
    (events, run)
}

/// The events of turn `turn`, from its start to its end.
pub fn turn_events(events: &[RunEvent], turn: u32) -> &[RunEvent] {
    let start = events
        .iter()
        .position(|e| matches!(e, RunEvent::TurnStarted { turn: t } if *t == turn))
        .unwrap_or_else(|| panic!("turn {turn} started: {events:?}"));
    let end = events
        .iter()
        .position(|e| matches!(e, RunEvent::TurnFinished { turn: t, .. } if *t == turn))
        .unwrap_or_else(|| panic!("turn {turn} finished: {events:?}"));
    &events[start..=end]
}

pub fn reasoning_of(events: &[RunEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::ReasoningDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

pub fn text_of(events: &[RunEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The model's turns in a run's history.
pub fn assistant_turns(messages: &[Message]) -> Vec<&ModelTurn> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Assistant(turn) => Some(turn),
            _ => None,
        })
        .collect()
}

/// The tool results in a run's history, in order: (call id, tool name, response).
pub fn results(messages: &[Message]) -> Vec<(String, String, tool_core::ToolResponse)> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { results } => Some(results),
            _ => None,
        })
        .flatten()
        .map(|r| (r.call_id.clone(), r.name.clone(), r.response.clone()))
        .collect()
}

/// The last event, which ends every streamed run.
pub fn last(events: &[RunEvent]) -> &RunEvent {
    events.last().expect("a run has events")
}

/// The serialized request, for `contains` checks.
pub fn text(body: &Value) -> String {
    body.to_string()
}
