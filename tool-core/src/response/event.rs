//! Side-channel events: data for the application's UI that never reaches the model.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A side-channel event: structured data for the application's UI, never sent to the model.
///
/// ```
/// use tool_core::ToolEvent;
/// let e = ToolEvent::new("cards", serde_json::json!([{"title": "Dune"}]));
/// assert_eq!(e.kind, "cards");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolEvent {
    /// What kind of event this is, for the UI to route it.
    pub kind: String,
    /// The payload.
    pub data: Value,
}

impl ToolEvent {
    /// Creates an event.
    pub fn new(kind: impl Into<String>, data: Value) -> Self {
        ToolEvent {
            kind: kind.into(),
            data,
        }
    }
}
