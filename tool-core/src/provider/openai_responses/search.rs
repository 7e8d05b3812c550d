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
///
/// A function that programs may call brings `{"type": "programmatic_tool_calling"}` along,
/// last, as [`OpenAiResponses::tools`](crate::provider::ChatApi::tools) does.
pub fn tools_with_search(defs: &[ToolDefinition], search: bool) -> Value {
    let deferred = search && defs.iter().any(ToolDefinition::defer_loading);
    let mut tools = super::namespace::tools(defs, |def| super::wire::tool(def, deferred));
    if let (true, Value::Array(list)) = (deferred, &mut tools) {
        list.push(json!({"type": "tool_search"}));
    }
    super::wire::add_programs(defs, &mut tools);
    tools
}

/// Adds to `out` the tools the model's searches loaded in one response's output items: each
/// function of a `tool_search_output` item's `tools`, a function inside a `namespace` entry
/// by the qualified name the registry knows (`namespace__tool`), in order, each once.
pub(crate) fn searched_tools(items: &Value, out: &mut Vec<String>) {
    let Value::Array(items) = items else {
        return;
    };
    let outputs = items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("tool_search_output"))
        .filter_map(|i| i.get("tools").and_then(Value::as_array))
        .flatten();
    let mut add = |name: String| {
        if !out.contains(&name) {
            out.push(name);
        }
    };
    for tool in outputs {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
        match tool.get("type").and_then(Value::as_str) {
            Some("function") if !name.is_empty() => add(name.to_owned()),
            Some("namespace") if !name.is_empty() => {
                let inner = tool.get("tools").and_then(Value::as_array);
                for function in inner.into_iter().flatten() {
                    if let Some(local) = function.get("name").and_then(Value::as_str) {
                        add(super::namespace::qualified(Some(name), local));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a model has `tool_search`, read from its name: `Some(true)` for GPT-5.4 and
/// later (OpenAI's "Tool search" guide: "only gpt-5.4 and later models support
/// tool_search"), `Some(false)` for earlier GPT versions, GPT-4o, gpt-oss and the o-series,
/// `None` for a name that is none of these (a deployment name, another vendor's model).
/// Provider prefixes (`openai/gpt-5.4`), fine-tunes (`ft:gpt-5.4-mini:org::id`), dates
/// (`gpt-5.1-2025-11-13`) and suffixes (`-mini`, `-pro`) do not matter.
// Used by the HTTP adapter (and its tests).
#[cfg(any(feature = "http", test))]
pub(crate) fn has_tool_search(model: &str) -> Option<bool> {
    let name = model.rsplit('/').next().unwrap_or(model);
    let name = name.strip_prefix("ft:").unwrap_or(name);
    let Some(rest) = name.strip_prefix("gpt-") else {
        let family = name.split(['-', ':']).next().unwrap_or("");
        let older = matches!(family, "o1" | "o3" | "o4" | "chatgpt" | "codex");
        return older.then_some(false);
    };
    let version = rest.split(['-', ':']).next().unwrap_or("");
    if version == "oss" {
        return Some(false);
    }
    // GPT-4o, GPT-4o mini.
    if version
        .strip_suffix('o')
        .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some(false);
    }
    let mut parts = version.split('.');
    let major = parts.next().and_then(|p| p.parse::<u32>().ok())?;
    let minor = match parts.next() {
        Some(p) => p.parse::<u32>().ok()?,
        None => 0,
    };
    Some((major, minor) >= (5, 4))
}

#[cfg(test)]
mod tests {
    use super::{has_tool_search, searched_tools};

    #[test]
    fn what_the_search_output_loaded() {
        let items = serde_json::json!([
            {"type": "tool_search_call", "arguments": {"paths": ["crm"]}, "execution": "server"},
            {"type": "tool_search_output", "execution": "server", "tools": [
                {"type": "function", "name": "get_weather", "parameters": {}},
                {"type": "namespace", "name": "crm", "description": "CRM.", "tools": [
                    {"type": "function", "name": "lookup", "parameters": {}}]},
                {"type": "namespace", "name": "send_email", "description": "", "tools": [
                    {"type": "function", "name": "send_email", "parameters": {}}]},
                {"type": "web_search"}]},
            {"type": "function_call", "call_id": "c1", "name": "lookup", "namespace": "crm", "arguments": "{}"},
            {"type": "tool_search_output", "tools": [{"type": "function", "name": "get_weather"}]}
        ]);
        let mut loaded = vec!["earlier".to_string()];
        searched_tools(&items, &mut loaded);
        assert_eq!(
            loaded,
            ["earlier", "get_weather", "crm__lookup", "send_email"]
        );
        let mut none = Vec::new();
        searched_tools(&serde_json::json!({"not": "a list"}), &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn models_with_tool_search() {
        for yes in [
            "gpt-5.4",
            "gpt-5.4-mini",
            "gpt-5.5-2026-06-01",
            "gpt-6",
            "openai/gpt-5.4",
            "ft:gpt-5.4-mini:acme::abc123",
        ] {
            assert_eq!(has_tool_search(yes), Some(true), "{yes}");
        }
        for no in [
            "gpt-5",
            "gpt-5.1",
            "gpt-5.1-2025-11-13",
            "gpt-5.1-codex-max",
            "gpt-4.1-mini",
            "o4-mini",
            "o3",
            "gpt-4o",
            "gpt-4o-mini",
            "gpt-oss-120b",
            "openai/gpt-4.1",
        ] {
            assert_eq!(has_tool_search(no), Some(false), "{no}");
        }
        for unknown in ["gpt-x", "my-gateway-model", "llama-3.3-70b", ""] {
            assert_eq!(has_tool_search(unknown), None, "{unknown}");
        }
    }
}
