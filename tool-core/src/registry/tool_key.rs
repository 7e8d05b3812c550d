//! [`ToolKey`]: how the per-tool settings of a registry name their tool.

use std::borrow::Cow;

use crate::tool::Tool;

/// Names one tool of a [`ToolRegistry`](crate::ToolRegistry) in its per-tool settings
/// ([`with_retry`](crate::ToolRegistry::with_retry),
/// [`with_required_scopes`](crate::ToolRegistry::with_required_scopes),
/// [`circuit_state`](crate::ToolRegistry::circuit_state), ...).
///
/// Every tool type is a key, so a `#[tool]` function's tool is named by its type
/// (`get_weather {}`) and a misspelt name fails to compile; a
/// `#[derive(Tool)]` struct is named by its `NAME` (`Search::NAME`). A name given as text
/// (`&str`, `String`) works too, for tools known only at run time such as an MCP server's.
///
/// ```
/// use tool_core::{tool, tools, RetryPolicy};
///
/// /// Fetches a page.
/// #[tool(idempotent)]
/// async fn fetch(url: String) -> String { url }
///
/// let registry = tools![fetch].with_retry(fetch {}, RetryPolicy::new(3));
/// assert_eq!(registry.retry_policy(fetch {}), Some(&RetryPolicy::new(3)));
/// // The same tool, by name.
/// assert_eq!(registry.retry_policy("fetch"), Some(&RetryPolicy::new(3)));
/// ```
pub trait ToolKey {
    /// The name of the tool, as the model calls it.
    fn tool_name(&self) -> &str;
}

impl<T: Tool> ToolKey for T {
    fn tool_name(&self) -> &str {
        self.name()
    }
}

impl ToolKey for &str {
    fn tool_name(&self) -> &str {
        self
    }
}

impl ToolKey for String {
    fn tool_name(&self) -> &str {
        self
    }
}

impl ToolKey for &String {
    fn tool_name(&self) -> &str {
        self
    }
}

impl ToolKey for Cow<'_, str> {
    fn tool_name(&self) -> &str {
        self
    }
}
