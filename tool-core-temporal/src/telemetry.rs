//! A durable run's spans, the runner's own (tool-core's `tracing` feature): the workflow
//! opens the run's `invoke_agent` span ([`tool_core::runner::agent_span`]) when the run starts,
//! never on replay, and keeps it in the worker's [`RunSpans`] until the run ends there; the
//! model activity opens its `chat {model}` span ([`tool_core::runner::ChatSpan`]) and the
//! tool activity runs its call (whose `execute_tool` span comes from tool-core's dispatch)
//! inside it when that worker holds it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tool_core::model::Model;

/// The `invoke_agent` spans of the runs this worker started, by Temporal run id.
#[derive(Debug, Default)]
pub(crate) struct RunSpans(Mutex<HashMap<String, tracing::Span>>);

impl RunSpans {
    /// Opens the span of run `key` (a child of the current span, the SDK's workflow span);
    /// it ends when the returned guard is dropped: when the run ends, or when this worker
    /// lets go of the run (evicted from its cache, or shut down).
    pub(crate) fn open(self: &Arc<Self>, key: &str, model: &dyn Model) -> RunSpan {
        let span = tool_core::runner::agent_span(model);
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_string(), span);
        RunSpan {
            spans: Arc::clone(self),
            key: key.to_string(),
        }
    }

    /// The span of run `key`, when this worker holds it.
    pub(crate) fn get(&self, key: &str) -> Option<tracing::Span> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned()
    }
}

/// Holds a run's span open; dropping it ends the span.
pub(crate) struct RunSpan {
    spans: Arc<RunSpans>,
    key: String,
}

impl Drop for RunSpan {
    fn drop(&mut self) {
        self.spans
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}
