//! The user code a run's options hold (a tool search, the per-turn hook), wrapped so the
//! options stay `Debug`, `Clone` and comparable. Neither is stored with a run.

use std::fmt;
use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::search::ToolSearch;

/// How many tools one `search_tools` call returns unless set otherwise.
pub(crate) const DEFAULT_SEARCH_LIMIT: usize = 5;

/// The serde default of `RunOptions::tool_search_limit`.
pub(crate) fn default_limit() -> usize {
    DEFAULT_SEARCH_LIMIT
}

/// A user's [`ToolSearch`], shared by the clones of the options.
#[derive(Clone)]
pub(crate) struct SearchChoice(pub(crate) Arc<dyn ToolSearch>);

impl fmt::Debug for SearchChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ToolSearch")
    }
}

impl PartialEq for SearchChoice {
    // Two settings are the same search only when they share it.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

type Hook = dyn Fn(u32, Vec<ToolDefinition>) -> Vec<ToolDefinition> + Send + Sync;

/// A user's per-turn hook, shared by the clones of the options.
#[derive(Clone)]
pub(crate) struct PrepareTools(pub(crate) Arc<Hook>);

impl PrepareTools {
    pub(crate) fn apply(&self, turn: u32, tools: Vec<ToolDefinition>) -> Vec<ToolDefinition> {
        (self.0)(turn, tools)
    }
}

impl fmt::Debug for PrepareTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrepareTools")
    }
}

impl PartialEq for PrepareTools {
    // Two settings are the same hook only when they share it.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
