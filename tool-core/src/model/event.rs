//! [`ModelEvent`]: what a model's stream yields while a turn arrives.

use crate::call::ToolCall;

use super::message::ModelTurn;

/// One item of a model's stream. A stream yields any number of deltas, then exactly one
/// [`ModelEvent::Finished`] as its last item; an `Err` item also ends it.
///
/// Deltas are for the application's eyes (text as it arrives, a call taking shape); the runner
/// acts only on the finished turn, so a call is never dispatched from a partial delta.
/// `index` is the call's position in [`ModelTurn::calls`]. `CallStarted` and
/// `ArgumentsDelta` are optional; `CallReady` should come as soon as a call is complete (the
/// runner reports any call the adapter did not announce when the turn finishes).
///
/// ```
/// use tool_core::model::{ModelEvent, ModelTurn};
/// let events = [ModelEvent::TextDelta("Hel".into()), ModelEvent::TextDelta("lo".into()), ModelEvent::Finished(ModelTurn::text("Hello"))];
/// assert!(matches!(events.last(), Some(ModelEvent::Finished(t)) if t.text == "Hello"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelEvent {
    /// A piece of the assistant's text, as soon as it arrived.
    TextDelta(String),
    /// A piece of the model's reasoning (thinking, a reasoning summary, thought parts), as
    /// soon as it arrived: never part of the answer's text.
    ReasoningDelta(String),
    /// A call began: its id and name are known, its arguments are not.
    CallStarted {
        /// Position of the call in the turn.
        index: usize,
        /// The call id (synthesized where the provider has none).
        id: String,
        /// The tool name as the model wrote it.
        name: String,
    },
    /// A fragment of a call's argument JSON text.
    ArgumentsDelta {
        /// Position of the call in the turn.
        index: usize,
        /// The fragment, as the provider sent it.
        delta: String,
    },
    /// A call is complete (its arguments will not change).
    CallReady {
        /// Position of the call in the turn.
        index: usize,
        /// The complete call.
        call: ToolCall,
    },
    /// The turn is complete: the last item of the stream.
    Finished(ModelTurn),
}
