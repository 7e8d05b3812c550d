//! OpenAI Responses tool search: the model searches the deferred function tools
//! (`defer_loading: true`) itself and loads the ones it finds.
//!
//! Shapes from openai-python 3.51 (`ToolSearchToolParam`, `FunctionToolParam.defer_loading`,
//! `ResponseToolSearchCall`, `ResponseToolSearchOutputItem`) and OpenAI's "Tool search"
//! guide: the search tool is `{"type": "tool_search"}` (run by OpenAI unless `execution` says
//! `client`); a search shows up as a `tool_search_call` output item and its answer as a
//! `tool_search_output` item listing the tools loaded. Both go back in the next request's
//! `input` unchanged.

use serde_json::{json, Value};

use crate::definition::ToolDefinition;

/// The `tools` array with tool search: every function tool (the deferred ones with
/// `defer_loading: true`), then `{"type": "tool_search"}` when at least one is deferred and
/// `search` is on. Without search, deferred tools are sent as ordinary tools.
///
/// ```
/// use tool_core::provider::openai_responses::tools_with_search;
/// use tool_core::ToolDefinition;
/// let schema = serde_json::json!({"type": "object", "properties": {}});
/// let defs = [ToolDefinition::new("hi", "Says hi.", schema.clone()),
///             ToolDefinition::new("export_pdf", "Exports a PDF.", schema).with_defer_loading(true)];
/// let tools = tools_with_search(&defs, true);
/// assert_eq!(tools[1]["defer_loading"], true);
/// assert_eq!(tools[2], serde_json::json!({"type": "tool_search"}));
/// assert_eq!(tools_with_search(&defs, false).as_array().unwrap().len(), 2);
/// ```
pub fn tools_with_search(defs: &[ToolDefinition], search: bool) -> Value {
    let deferred = search && defs.iter().any(ToolDefinition::defer_loading);
    let mut tools = super::namespace::tools(defs, |def| super::wire::tool(def, deferred));
    if let (true, Value::Array(list)) = (deferred, &mut tools) {
        list.push(json!({"type": "tool_search"}));
    }
    tools
}

/// Whether a model has `tool_search`, by its name: GPT-5.4 and later (OpenAI's "Tool search"
/// guide: "only gpt-5.4 and later models support tool_search"); no other name.
// Used by the HTTP adapter (and its tests).
#[cfg(any(feature = "http", test))]
pub(crate) fn has_tool_search(model: &str) -> bool {
    let Some(rest) = model.strip_prefix("gpt-") else {
        return false;
    };
    let version = rest.split('-').next().unwrap_or("");
    let mut parts = version.split('.');
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = match parts.next() {
        Some(p) => p.parse::<u32>().ok(),
        None => Some(0),
    };
    match (major, minor) {
        (Some(major), Some(minor)) => (major, minor) >= (5, 4),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::has_tool_search;

    #[test]
    fn models_with_tool_search() {
        for yes in ["gpt-5.4", "gpt-5.4-mini", "gpt-5.5-2026-06-01", "gpt-6"] {
            assert!(has_tool_search(yes), "{yes}");
        }
        for no in [
            "gpt-5",
            "gpt-5.1",
            "gpt-4.1-mini",
            "o4-mini",
            "gpt-4o",
            "gpt-x",
        ] {
            assert!(!has_tool_search(no), "{no}");
        }
    }
}
