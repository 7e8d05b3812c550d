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
pub fn tools_with_search(defs: &[ToolDefinition], search: Option<SearchTool>) -> Value {
    let deferred = defs.iter().any(ToolDefinition::defer_loading);
    let mut tools: Vec<Value> = defs
        .iter()
        .map(|def| super::wire::tool(def, deferred && search.is_some()))
        .collect();
    if let (true, Some(search)) = (deferred, search) {
        tools.push(search.definition());
    }
    Value::Array(tools)
}

/// Whether a Claude model has the tool search tool, by its name: Claude Opus and Sonnet 4.5
/// and later (Anthropic's "Tool search tool" page lists Opus 4.5 and Sonnet 4.5); not Haiku,
/// not Claude 4.1 and earlier, and not a name this crate cannot read a version from.
// Used by the HTTP adapter (and its tests).
#[cfg(any(feature = "http", test))]
pub(crate) fn has_tool_search(model: &str) -> bool {
    let mut family = None;
    let mut version: Vec<u32> = Vec::new();
    for part in model.split(['-', '@', '.', ':']) {
        match part {
            "opus" | "sonnet" | "haiku" => family = Some(part),
            // Dates (20250929) are not version numbers.
            _ if !part.is_empty()
                && part.len() <= 2
                && part.bytes().all(|b| b.is_ascii_digit()) =>
            {
                if version.len() < 2 {
                    version.push(part.parse().unwrap_or(0));
                }
            }
            _ => {
                if !version.is_empty() {
                    break;
                }
            }
        }
    }
    let major = version.first().copied().unwrap_or(0);
    let minor = version.get(1).copied().unwrap_or(0);
    matches!(family, Some("opus" | "sonnet")) && (major, minor) >= (4, 5)
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
            "claude-sonnet-5",
        ] {
            assert!(has_tool_search(yes), "{yes}");
        }
        for no in [
            "claude-sonnet-4-20250514",
            "claude-opus-4-1",
            "claude-3-5-sonnet-latest",
            "claude-haiku-4-5",
            "claude-sonnet-4-0",
            "my-model",
        ] {
            assert!(!has_tool_search(no), "{no}");
        }
    }
}
