//! Searching the registry's tools (see the `search` module).

use super::ToolRegistry;
use crate::search::{KeywordSearch, SearchError, ToolMatch, ToolSearch};

impl ToolRegistry {
    /// The tools that best match a request or a model's query, best first, at most `limit`,
    /// ranked by the built-in [`KeywordSearch`]. Tools that match no word of the query are
    /// left out. An empty or oversized query is an error, never a panic.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Current weather for a city.
    /// #[tool]
    /// fn get_weather(city: String) -> String { city }
    ///
    /// /// Reads a file from disk.
    /// #[tool]
    /// fn read_file(path: String) -> String { path }
    ///
    /// let registry = tools![read_file, get_weather];
    /// let found = registry.search_tools("weather in paris", 5).unwrap();
    /// assert_eq!(found.iter().map(|m| m.name()).collect::<Vec<_>>(), ["get_weather"]);
    /// assert!(registry.search_tools("  ", 5).is_err());
    /// ```
    pub fn search_tools(&self, query: &str, limit: usize) -> Result<Vec<ToolMatch>, SearchError> {
        KeywordSearch::new().search(self.definitions(), query, limit)
    }

    /// [`ToolRegistry::search_tools`] with another search: plain BM25, a regex, or your own
    /// [`ToolSearch`] (embeddings, a search service).
    ///
    /// ```
    /// use tool_core::search::KeywordSearch;
    /// use tool_core::{tool, tools};
    ///
    /// /// Reads a file from disk.
    /// #[tool]
    /// fn read_file(path: String) -> String { path }
    ///
    /// let found = tools![read_file].search_tools_with(&KeywordSearch::plain_bm25(), "file", 5).unwrap();
    /// assert_eq!(found[0].name(), "read_file");
    /// ```
    pub fn search_tools_with(
        &self,
        search: &dyn ToolSearch,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMatch>, SearchError> {
        search.search(self.definitions(), query, limit)
    }
}
