//! The run's own `search_tools` tool, offered to models without a tool search of their own:
//! its definition, reading its arguments, writing its answer, and the settings that choose
//! how it ranks and how many tools it returns.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use crate::definition::ToolDefinition;
use crate::response::{ToolErrorCode, ToolResponse};
use crate::search::ToolSearch;

use super::hooks::SearchChoice;
use super::options::RunOptions;

/// The name of the run's tool search. A registry that has a tool of this name cannot defer
/// tools to it ([`RunError::ReservedToolName`](super::RunError::ReservedToolName)).
pub(crate) const SEARCH_TOOL: &str = "search_tools";

/// The longest description line quoted for a found tool, in bytes: enough to choose, little
/// enough that a search answer stays short.
const DESCRIPTION_BYTES: usize = 200;

impl RunOptions {
    /// Ranks deferred tools with this search when the run answers the model's `search_tools`
    /// calls (models without a tool search of their own; see
    /// [`ToolDefinition::defer_loading`]). By default the registry's built-in ranking
    /// ([`KeywordSearch`](crate::search::KeywordSearch)). The search is not part of the
    /// stored run: a [`Runner`](super::Runner) gives its own to the runs it resumes.
    ///
    /// ```
    /// use tool_core::runner::RunOptions;
    /// use tool_core::search::KeywordSearch;
    /// let options = RunOptions::new().tool_search(KeywordSearch::plain_bm25());
    /// assert_ne!(options, RunOptions::new());
    /// ```
    pub fn tool_search(mut self, search: impl ToolSearch + 'static) -> Self {
        self.tool_search = Some(SearchChoice(Arc::new(search)));
        self
    }

    /// The most tools one `search_tools` call returns (default 5, at least 1); the model may
    /// ask for fewer with its `limit` argument.
    ///
    /// ```
    /// let options = tool_core::runner::RunOptions::new().tool_search_limit(3);
    /// assert_eq!(options.tool_search_limit, 3);
    /// assert_eq!(tool_core::runner::RunOptions::new().tool_search_limit, 5);
    /// ```
    pub fn tool_search_limit(mut self, limit: usize) -> Self {
        self.tool_search_limit = limit.max(1);
        self
    }
}

/// The definition of `search_tools`, as every request of the run sends it (the same bytes on
/// every turn, so the cached prompt prefix holds).
pub(crate) fn definition(limit: usize) -> ToolDefinition {
    let limit = limit.max(1);
    ToolDefinition::new(
        SEARCH_TOOL,
        format!(
            "Searches the other tools available to you and loads the best matches. Describe \
             what you need in a few keywords (e.g. \"create github issue\"). The tools found \
             can be called from your next turn on. Returns at most {limit} tools."
        ),
        json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "Keywords describing the tool you need."
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": limit,
                    "description": format!("How many tools to return (at most {limit}).")
                }
            },
            "required": ["query"],
            "additionalProperties": false
        }),
    )
}

#[derive(Deserialize)]
struct Arguments {
    query: String,
    #[serde(default)]
    limit: Option<i64>,
}

/// The query and the number of tools asked for, or the error result to send back.
pub(crate) fn read_arguments(arguments: &str, max: usize) -> Result<(String, usize), ToolResponse> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    let parsed: Arguments = serde_json::from_str(text).map_err(|error| {
        ToolResponse::error(
            ToolErrorCode::InvalidParam,
            format!(
                "{SEARCH_TOOL} takes {{\"query\": string, \"limit\"?: integer}}; the \
                 arguments given do not fit ({error}). Call it again with a few keywords \
                 as the query, e.g. {{\"query\": \"send email\"}}."
            ),
        )
    })?;
    let max = max.max(1);
    let limit = match parsed.limit {
        None => max,
        // Out-of-range numbers are clamped rather than refused: the intent is clear.
        Some(n) => usize::try_from(n.max(1)).map_or(max, |n| n.min(max)),
    };
    Ok((parsed.query, limit))
}

/// The answer to a search: each tool found with the first line of its description.
pub(crate) fn found(query: &str, tools: &[&ToolDefinition]) -> ToolResponse {
    if tools.is_empty() {
        return ToolResponse::success(format!(
            "No tool matched \"{query}\". Try other keywords: a verb and an object \
             (\"read file\", \"list issues\") or the service's name."
        ));
    }
    let mut text = format!(
        "Found {} tool(s) for \"{query}\". They can be called from your next turn on:",
        tools.len()
    );
    for tool in tools {
        let line = first_line(&tool.description);
        text.push_str("\n- ");
        text.push_str(&tool.name);
        if !line.is_empty() {
            text.push_str(": ");
            text.push_str(line);
        }
    }
    // Text only: the model reads the list, and a stored run keeps it as written.
    ToolResponse::success(text)
}

/// The answer to a search the search could not run (an empty query, a bad pattern).
pub(crate) fn failed(message: String) -> ToolResponse {
    ToolResponse::error(ToolErrorCode::InvalidParam, message)
}

/// The answer to a call of a deferred tool no search has found yet: it is not run.
pub(crate) fn not_loaded(name: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::NotFound,
        format!(
            "`{name}` is not loaded yet; call {SEARCH_TOOL} first (e.g. with keywords from \
             what you want to do), then call the tool it finds on your next turn. Nothing \
             was run."
        ),
    )
}

/// The first line of a description, cut at a character boundary.
fn first_line(description: &str) -> &str {
    let line = description.trim().lines().next().unwrap_or("").trim();
    if line.len() <= DESCRIPTION_BYTES {
        return line;
    }
    let mut end = DESCRIPTION_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line.get(..end).unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_read_and_clamped() {
        assert_eq!(
            read_arguments(r#"{"query":"mail"}"#, 5).unwrap(),
            ("mail".into(), 5)
        );
        assert_eq!(
            read_arguments(r#"{"query":"mail","limit":2}"#, 5).unwrap(),
            ("mail".into(), 2)
        );
        assert_eq!(
            read_arguments(r#"{"query":"mail","limit":99}"#, 5).unwrap(),
            ("mail".into(), 5)
        );
        assert_eq!(
            read_arguments(r#"{"query":"mail","limit":-3}"#, 5).unwrap(),
            ("mail".into(), 1)
        );
        let error = read_arguments("not json", 5).unwrap_err();
        assert_eq!(error.error_code(), Some(ToolErrorCode::InvalidParam));
        assert!(read_arguments("", 5).is_err(), "the query is required");
    }

    #[test]
    fn first_line_is_cut_at_a_char_boundary() {
        let long = "é".repeat(150);
        let line = first_line(&long);
        assert!(line.len() <= DESCRIPTION_BYTES && line.chars().all(|c| c == 'é'));
        assert_eq!(first_line("One.\nTwo."), "One.");
    }
}
