//! Finding tools in a large set: a user's request or a model's query in, the best-matching
//! tool names out. For catalogues too large to send whole on every turn (several MCP
//! servers, hundreds of tools): send a few and let the model search for the rest.
//!
//! - [`ToolSearch`]: the trait every search implements; plug in your own (embeddings, a
//!   search service) and hand it to [`ToolRegistry::search_tools_with`].
//! - [`KeywordSearch`]: keyword ranking over names, descriptions and parameters; the
//!   built-in ranking ([`ToolRegistry::search_tools`]) and a plain BM25 baseline.
//! - `RegexSearch` (feature `regex`): the tools whose name, description or parameters
//!   match a regular expression, as Anthropic's regex tool search does.
//!
//! No query makes a search panic: an empty or oversized query, or a pattern that does not
//! compile, is a [`SearchError`] whose message says what to send instead.
//!
//! ```
//! use tool_core::{tool, tools};
//!
//! /// Current weather for a city.
//! #[tool]
//! fn get_weather(
//!     /// City name, e.g. "Paris".
//!     city: String,
//! ) -> String { city }
//!
//! /// Lists the files in a directory.
//! #[tool]
//! fn list_directory(path: String) -> String { path }
//!
//! let registry = tools![list_directory, get_weather];
//! let found = registry.search_tools("weather in paris", 5).unwrap();
//! assert_eq!(found[0].name(), "get_weather");
//! ```
//!
//! [`ToolRegistry::search_tools`]: crate::ToolRegistry::search_tools
//! [`ToolRegistry::search_tools_with`]: crate::ToolRegistry::search_tools_with

mod keyword;
#[cfg(feature = "regex")]
mod regex;
mod words;

use std::fmt;

pub use keyword::{KeywordIndex, KeywordSearch};
#[cfg(feature = "regex")]
pub use regex::{RegexSearch, MAX_PATTERN_BYTES};

use crate::definition::ToolDefinition;

/// The longest keyword query accepted, in bytes: far more than any request a person or a
/// model writes, small enough that a runaway query costs nothing.
pub const MAX_QUERY_BYTES: usize = 4096;

/// A way of finding tools: given the tools and a query, the best `limit` matches, best first.
///
/// Implement it to rank with your own means (embeddings, a search service); the built-in
/// ones are [`KeywordSearch`] and, with feature `regex`, `RegexSearch`.
///
/// ```
/// use tool_core::search::{SearchError, ToolMatch, ToolSearch};
/// use tool_core::{tool, tools, ToolDefinition};
///
/// /// Ranks tools by the length of their name: a stand-in for an embedding model.
/// struct ShortestFirst;
///
/// impl ToolSearch for ShortestFirst {
///     fn search(&self, tools: &[ToolDefinition], query: &str, limit: usize) -> Result<Vec<ToolMatch>, SearchError> {
///         if query.trim().is_empty() {
///             return Err(SearchError::EmptyQuery);
///         }
///         let mut found: Vec<ToolMatch> = tools
///             .iter()
///             .map(|t| ToolMatch::new(t.name.clone(), 1.0 / t.name.len() as f64))
///             .collect();
///         found.sort_by(|a, b| b.score().total_cmp(&a.score()));
///         found.truncate(limit);
///         Ok(found)
///     }
/// }
///
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// /// Says goodbye.
/// #[tool]
/// fn goodbye() -> &'static str { "bye" }
///
/// let found = tools![goodbye, hi].search_tools_with(&ShortestFirst, "anything", 1).unwrap();
/// assert_eq!(found[0].name(), "hi");
/// ```
pub trait ToolSearch: Send + Sync {
    /// The best `limit` tools for `query`, best first.
    fn search(
        &self,
        tools: &[ToolDefinition],
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMatch>, SearchError>;
}

/// One tool a search found: its name and score (higher is better; scores compare only
/// within one search).
///
/// ```
/// let m = tool_core::search::ToolMatch::new("get_weather", 2.5);
/// assert_eq!((m.name(), m.score()), ("get_weather", 2.5));
/// ```
// Non-exhaustive so what a match says can grow (the field that matched); build one with `new`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolMatch {
    name: String,
    score: f64,
}

impl ToolMatch {
    /// A match of the tool with this name, with a score.
    ///
    /// ```
    /// let m = tool_core::search::ToolMatch::new("read_file", 1.0);
    /// assert_eq!(m.name(), "read_file");
    /// ```
    pub fn new(name: impl Into<String>, score: f64) -> Self {
        ToolMatch {
            name: name.into(),
            score,
        }
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(tool_core::search::ToolMatch::new("a", 1.0).name(), "a");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The score: higher is better.
    ///
    /// ```
    /// assert_eq!(tool_core::search::ToolMatch::new("a", 0.5).score(), 0.5);
    /// ```
    pub fn score(&self) -> f64 {
        self.score
    }
}

/// Why a search could not run. The message speaks to whoever wrote the query (often a
/// model) and says what to send instead.
///
/// ```
/// use tool_core::search::SearchError;
/// assert!(SearchError::EmptyQuery.to_string().contains("keywords"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// The query has no words.
    EmptyQuery,
    /// The query is longer than the search takes.
    QueryTooLong {
        /// Its length in bytes.
        len: usize,
        /// The most accepted, in bytes.
        max: usize,
    },
    /// A regular expression that does not compile (or would compile to too large a program).
    InvalidPattern {
        /// What is wrong with it.
        message: String,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::EmptyQuery => f.write_str(
                "The tool search query is empty: send a few keywords describing the tool you need, e.g. \"weather forecast\".",
            ),
            SearchError::QueryTooLong { len, max } => write!(
                f,
                "The tool search query is {len} bytes long; the most accepted is {max}: send a few keywords describing the tool you need."
            ),
            SearchError::InvalidPattern { message } => write!(
                f,
                "The tool search pattern is not a valid regular expression ({message}); send a simpler pattern, e.g. \"weather\" or \"(?i)get_.*file\"."
            ),
        }
    }
}

impl std::error::Error for SearchError {}

/// Refuses an empty or oversized query.
fn check_query(query: &str, max: usize) -> Result<(), SearchError> {
    if query.len() > max {
        return Err(SearchError::QueryTooLong {
            len: query.len(),
            max,
        });
    }
    if query.trim().is_empty() {
        return Err(SearchError::EmptyQuery);
    }
    Ok(())
}
