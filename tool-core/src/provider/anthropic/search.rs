//! Anthropic's tool search tool: Claude searches the deferred tools (`defer_loading: true`)
//! itself and loads the ones it finds.
//!
//! Shapes from anthropic-sdk-python 2.10 (`ToolSearchToolBm25_20251119Param`,
//! `ToolSearchToolRegex20251119Param`, `ServerToolUseBlock`, `ToolSearchToolResultBlock`) and
//! Anthropic's "Tool search tool" page: the search tool is
//! `{"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}` (or the regex
//! one); Claude's search is a `server_tool_use` block and its answer a
//! `tool_search_tool_result` block holding `tool_reference` blocks, both in the same
//! response as the call of the tool found. Those blocks go back in the history unchanged.

use serde_json::{json, Value};

use super::code_execution::{programs_wanted, CodeExecution};
use crate::definition::ToolDefinition;

/// Which of Anthropic's tool search tools Claude uses to find deferred tools.
///
/// ```
/// use tool_core::provider::anthropic::SearchTool;
/// assert_eq!(SearchTool::Bm25.definition(),
///            serde_json::json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}));
/// assert_eq!(SearchTool::Regex.name(), "tool_search_tool_regex");
/// ```
// Non-exhaustive: Anthropic versions its server tools by date and may add variants.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SearchTool {
    /// `tool_search_tool_bm25_20251119`: Claude writes a natural-language query, ranked by
    /// BM25 over names, descriptions and parameters.
    #[default]
    Bm25,
    /// `tool_search_tool_regex_20251119`: Claude writes a Python-style regular expression.
    Regex,
}

impl SearchTool {
    /// The name Claude calls it by (`tool_search_tool_bm25` / `tool_search_tool_regex`),
    /// which its `server_tool_use` blocks carry.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::anthropic::SearchTool::Bm25.name(), "tool_search_tool_bm25");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            SearchTool::Bm25 => "tool_search_tool_bm25",
            SearchTool::Regex => "tool_search_tool_regex",
        }
    }

    /// The tool's `type`, with its version date.
    ///
    /// ```
    /// assert_eq!(tool_core::provider::anthropic::SearchTool::Regex.tool_type(), "tool_search_tool_regex_20251119");
    /// ```
    pub fn tool_type(self) -> &'static str {
        match self {
            SearchTool::Bm25 => "tool_search_tool_bm25_20251119",
            SearchTool::Regex => "tool_search_tool_regex_20251119",
        }
    }

    /// The entry of the `tools` array: `{"type", "name"}`.
    ///
    /// ```
    /// let t = tool_core::provider::anthropic::SearchTool::Regex.definition();
    /// assert_eq!(t["type"], "tool_search_tool_regex_20251119");
    /// ```
    pub fn definition(self) -> Value {
        json!({"type": self.tool_type(), "name": self.name()})
    }
}

/// The `tools` array for Claude with tool search: every tool (the deferred ones with
/// `defer_loading: true`), then `search`'s own entry when at least one tool is deferred (a
/// request with deferred tools and no search tool is refused by the API). Without `search`,
/// deferred tools are sent as ordinary ones: every schema is loaded, nothing is hidden.
///
/// ```
/// use tool_core::provider::anthropic::{tools_with_search, SearchTool};
/// use tool_core::ToolDefinition;
/// let schema = serde_json::json!({"type": "object"});
/// let defs = [ToolDefinition::new("hi", "Says hi.", schema.clone()),
///             ToolDefinition::new("export_pdf", "Exports a PDF.", schema).with_defer_loading(true)];
/// let tools = tools_with_search(&defs, Some(SearchTool::Bm25));
/// assert_eq!(tools[1]["defer_loading"], true);
/// assert_eq!(tools[2]["name"], "tool_search_tool_bm25");
/// let plain = tools_with_search(&defs, None);
/// assert!(plain[1].get("defer_loading").is_none() && plain.as_array().unwrap().len() == 2);
/// ```
///
/// A tool that programs may call brings the code execution tool (its current version) along,
/// after the search tool, as [`Anthropic::tools`](crate::provider::ChatApi::tools) does.
pub fn tools_with_search(defs: &[ToolDefinition], search: Option<SearchTool>) -> Value {
    tools_for(defs, search, CodeExecution::default())
}

/// [`tools_with_search`] with the code execution tool of version `code`.
pub(crate) fn tools_for(
    defs: &[ToolDefinition],
    search: Option<SearchTool>,
    code: CodeExecution,
) -> Value {
    let deferred = defs.iter().any(ToolDefinition::defer_loading);
    let mut tools: Vec<Value> = defs
        .iter()
        .map(|def| super::wire::tool(def, deferred && search.is_some(), code))
        .collect();
    if let (true, Some(search)) = (deferred, search) {
        tools.push(search.definition());
    }
    if programs_wanted(defs) {
        tools.push(code.definition());
    }
    Value::Array(tools)
}

/// Adds to `out` the tools Claude's searches loaded in one assistant message (the message,
/// or its `content` list): the `tool_name` of each `tool_reference` in its
/// `tool_search_tool_result` blocks, in order, each once. An error result loads nothing.
pub(crate) fn searched_tools(message: &Value, out: &mut Vec<String>) {
    let blocks = match message {
        Value::Array(blocks) => blocks,
        _ => match message.get("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => return,
        },
    };
    let references = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_search_tool_result"))
        .filter_map(|b| {
            b.pointer("/content/tool_references")
                .and_then(Value::as_array)
        })
        .flatten()
        .filter(|r| r.get("type").and_then(Value::as_str) == Some("tool_reference"))
        .filter_map(|r| r.get("tool_name").and_then(Value::as_str));
    for name in references {
        if !out.iter().any(|known| known == name) {
            out.push(name.to_owned());
        }
    }
}

/// Whether a Claude model has the tool search tool, read from its name: `Some(true)` for
/// Claude Opus and Sonnet 4.5 and later (Anthropic's "Tool search tool" page lists Opus 4.5
/// and Sonnet 4.5), `Some(false)` for Haiku and for Opus and Sonnet before 4.5, `None` for a
/// name that names no Claude family with a version. The family and version are read
/// wherever they stand, so provider prefixes, dates and suffixes do not matter:
/// `claude-sonnet-4-5-20250929`, `anthropic.claude-sonnet-4-5-20250929-v1:0` (Bedrock),
/// `claude-opus-4-5@20251101` (Vertex AI), `anthropic/claude-sonnet-4.5` (gateways),
/// `claude-3-5-sonnet-latest` (the older order).
// Used by the HTTP adapter (and its tests).
#[cfg(any(feature = "http", test))]
pub(crate) fn has_tool_search(model: &str) -> Option<bool> {
    let mut family = None;
    let mut version: [Option<u32>; 2] = [None, None];
    for part in model.split(['-', '@', '.', ':', '/', '_']) {
        match part {
            "opus" | "sonnet" | "haiku" => family = Some(part),
            // Dates (20250929) are not version numbers.
            _ if !part.is_empty()
                && part.len() <= 2
                && part.bytes().all(|b| b.is_ascii_digit()) =>
            {
                if let Some(slot) = version.iter_mut().find(|v| v.is_none()) {
                    *slot = part.parse().ok();
                }
            }
            _ => {
                if version[0].is_some() && family.is_some() {
                    break;
                }
            }
        }
    }
    let family = family?;
    let major = version[0]?;
    let minor = version[1].unwrap_or(0);
    Some(family != "haiku" && (major, minor) >= (4, 5))
}

#[cfg(test)]
mod tests {
    use super::has_tool_search;

    #[test]
    fn models_with_tool_search() {
        for yes in [
            "claude-opus-4-5",
            "claude-sonnet-4-5-20250929",
            "claude-opus-4-6",
            "claude-sonnet-4-5@20250929",
            "claude-opus-4-5@20251101",
            "anthropic.claude-sonnet-4-5-20250929-v1:0",
            "us.anthropic.claude-opus-4-5-20251101-v1:0",
            "anthropic/claude-sonnet-4.5",
            "claude-sonnet-5",
        ] {
            assert_eq!(has_tool_search(yes), Some(true), "{yes}");
        }
        for no in [
            "claude-sonnet-4-20250514",
            "claude-opus-4-1",
            "claude-3-5-sonnet-latest",
            "anthropic.claude-3-7-sonnet-20250219-v1:0",
            "claude-haiku-4-5",
            "claude-sonnet-4-0",
            "claude-opus-4@20250514",
        ] {
            assert_eq!(has_tool_search(no), Some(false), "{no}");
        }
        for unknown in ["my-model", "claude-sonnet-latest", "claude-next", ""] {
            assert_eq!(has_tool_search(unknown), None, "{unknown}");
        }
    }
}
