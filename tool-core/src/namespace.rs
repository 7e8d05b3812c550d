//! [`ToolNamespace`]: a named, described group of tools (an MCP server's, a team's), and how
//! a tool's name is qualified by it.

use serde::{Deserialize, Serialize};

/// A named group of tools with a description the model reads, e.g. every tool of a CRM
/// server under `crm`. Give one to a toolset with
/// [`Shape::namespace`](crate::Shape::namespace).
///
/// In the registry, and on every API without namespaces, a tool in a namespace is named
/// `namespace__tool` (two underscores: valid in every provider's names). OpenAI Responses
/// gets the group as one `{"type": "namespace", "name", "description", "tools"}` entry whose
/// functions keep their own names, and its calls carry the namespace; they are read back to
/// the qualified name, so dispatch, `tool_choice` and the runner see one name everywhere.
///
/// ```
/// use tool_core::ToolNamespace;
///
/// let crm = ToolNamespace::new("crm", "Customer records: look up and update accounts.");
/// assert_eq!(crm.qualify("find_account"), "crm__find_account");
/// assert_eq!(crm.unqualify("crm__find_account"), Some("find_account"));
/// assert_eq!(crm.unqualify("find_account"), None);
/// ```
// Non-exhaustive so what providers accept about a namespace can be added; build one with `new`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolNamespace {
    /// The namespace's name, e.g. `crm`: a letter or `_`, then letters, digits, `_` or `-`.
    pub name: String,
    /// What the tools in it are for, shown to the model (OpenAI Responses).
    pub description: String,
}

impl ToolNamespace {
    /// What joins a namespace's name and a tool's name into the name the registry and the
    /// APIs without namespaces use.
    pub const SEPARATOR: &'static str = "__";

    /// A namespace with a name and a description.
    ///
    /// ```
    /// let ns = tool_core::ToolNamespace::new("github", "Issues and pull requests.");
    /// assert_eq!((ns.name.as_str(), ns.description.as_str()), ("github", "Issues and pull requests."));
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        ToolNamespace {
            name: name.into(),
            description: description.into(),
        }
    }

    /// The qualified name of `tool` in this namespace: `name__tool`.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolNamespace::new("gh", "GitHub.").qualify("search"), "gh__search");
    /// ```
    pub fn qualify(&self, tool: &str) -> String {
        format!("{}{}{tool}", self.name, Self::SEPARATOR)
    }

    /// The tool's own name within this namespace, if `qualified` is in it.
    ///
    /// ```
    /// let gh = tool_core::ToolNamespace::new("gh", "GitHub.");
    /// assert_eq!(gh.unqualify("gh__search"), Some("search"));
    /// assert_eq!(gh.unqualify("ghx__search"), None);
    /// ```
    pub fn unqualify<'a>(&self, qualified: &'a str) -> Option<&'a str> {
        qualified
            .strip_prefix(self.name.as_str())?
            .strip_prefix(Self::SEPARATOR)
            .filter(|rest| !rest.is_empty())
    }
}
