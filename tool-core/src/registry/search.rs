//! Searching the registry's tools, and deferring them until a search finds them (see the
//! `search` module).

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
        // The index is read from the tools once, not on every search; a change of the tools
        // drops it.
        self.search_index
            .get_or_init(|| KeywordSearch::new().index(self.definitions()))
            .search(query, limit)
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

impl ToolRegistry {
    /// Marks every tool now in the registry deferred: offered to the model only once a tool
    /// search has found it. For a whole imported catalogue (an MCP server's tools): import,
    /// then defer; tools registered afterwards keep their own setting.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    ///
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    ///
    /// let registry = tools![hi, bye].defer_loading_all();
    /// assert!(registry.definitions().iter().all(|d| d.defer_loading()));
    /// ```
    pub fn defer_loading_all(mut self) -> Self {
        self.set_defer_loading_all(true);
        self
    }

    /// Marks every tool now in the registry deferred (`true`) or not (`false`); see
    /// [`ToolRegistry::defer_loading_all`].
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Exports the report as a PDF.
    /// #[tool(defer_loading)]
    /// fn export_pdf(title: String) -> String { title }
    ///
    /// let mut registry = tools![export_pdf];
    /// registry.set_defer_loading_all(false);
    /// assert!(!registry.definitions()[0].defer_loading());
    /// ```
    pub fn set_defer_loading_all(&mut self, deferred: bool) {
        for definition in &mut self.definitions {
            definition.defer_loading = deferred;
        }
        self.definitions_changed();
    }
}
