//! [`RegexSearch`]: the tools whose name, description or parameters match a regular
//! expression (feature `regex`).

use serde_json::Value;

use super::{check_query, SearchError, ToolMatch, ToolSearch};
use crate::definition::ToolDefinition;

/// The longest pattern accepted, in bytes (Anthropic's regex tool search takes 200
/// characters).
pub const MAX_PATTERN_BYTES: usize = 200;

/// How large a compiled pattern may grow: a pattern from a model must not cost much memory.
const COMPILED_SIZE_LIMIT: usize = 1 << 20;

/// Finds the tools whose name, description or parameter names and descriptions match a
/// regular expression, the way Anthropic's regex tool search reads the patterns a model
/// writes: Python `re` syntax as far as it goes without look-around and back-references
/// (`get_.*_file`, `(?i)slack`, `\bweather\b`). Case-sensitive unless the pattern says
/// `(?i)`. Matching takes time linear in the text whatever the pattern.
///
/// A match in the name counts most, then the description, then the parameters; equal
/// scores keep the tools' order.
///
/// ```
/// use tool_core::search::{RegexSearch, SearchError, ToolSearch};
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let tools = [
///     ToolDefinition::new("read_file", "Reads a file.", json!({"type": "object"})),
///     ToolDefinition::new("get_weather", "Current weather for a city.", json!({"type": "object"})),
/// ];
/// let found = RegexSearch::new().search(&tools, "(?i)WEATHER", 5).unwrap();
/// assert_eq!(found.iter().map(|m| m.name()).collect::<Vec<_>>(), ["get_weather"]);
///
/// // Look-ahead is Python syntax this search does not take: an error, not a panic.
/// let err = RegexSearch::new().search(&tools, "read(?=_file)", 5).unwrap_err();
/// assert!(matches!(err, SearchError::InvalidPattern { .. }));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegexSearch;

impl RegexSearch {
    /// The regex search.
    ///
    /// ```
    /// let _ = tool_core::search::RegexSearch::new();
    /// ```
    pub fn new() -> Self {
        RegexSearch
    }
}

impl ToolSearch for RegexSearch {
    fn search(
        &self,
        tools: &[ToolDefinition],
        pattern: &str,
        limit: usize,
    ) -> Result<Vec<ToolMatch>, SearchError> {
        check_query(pattern, MAX_PATTERN_BYTES)?;
        let regex = regex::RegexBuilder::new(pattern)
            .size_limit(COMPILED_SIZE_LIMIT)
            .build()
            .map_err(|e| SearchError::InvalidPattern {
                message: one_line(&e.to_string()),
            })?;
        let mut found: Vec<(usize, f64)> = Vec::new();
        for (i, tool) in tools.iter().enumerate() {
            let mut score = 0.0;
            if regex.is_match(&tool.name) {
                score += 3.0;
            }
            if regex.is_match(&tool.description) {
                score += 1.0;
            }
            if parameters_match(&regex, &tool.input_schema, 0) {
                score += 0.5;
            }
            if score > 0.0 {
                found.push((i, score));
            }
        }
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(found
            .into_iter()
            .take(limit)
            .map(|(i, score)| ToolMatch::new(tools[i].name.clone(), score))
            .collect())
    }
}

/// Whether a property name or description anywhere in the schema (to a fixed depth) matches.
fn parameters_match(regex: &regex::Regex, schema: &Value, depth: usize) -> bool {
    if depth > 6 {
        return false;
    }
    let Some(object) = schema.as_object() else {
        return false;
    };
    let in_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| {
            properties.iter().any(|(name, property)| {
                regex.is_match(name)
                    || property
                        .get("description")
                        .and_then(Value::as_str)
                        .is_some_and(|d| regex.is_match(d))
                    || parameters_match(regex, property, depth + 1)
            })
        });
    in_properties
        || object
            .get("items")
            .is_some_and(|items| parameters_match(regex, items, depth + 1))
}

/// The regex crate's messages span lines (the pattern, a caret, the error); one line reads
/// better in a tool result.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}
