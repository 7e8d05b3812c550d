//! [`Shape`]: how a tool set is renamed, prefixed, filtered and namespaced as it joins
//! another (see `compose`).

use std::fmt;
use std::sync::Arc;

use crate::definition::ToolDefinition;
use crate::namespace::ToolNamespace;

type Filter = Arc<dyn Fn(&ToolDefinition) -> bool + Send + Sync>;

/// How the tools of one registry are shaped as they join another
/// ([`ToolRegistry::extend_from`](crate::ToolRegistry::extend_from),
/// [`ToolRegistry::merge`](crate::ToolRegistry::merge)): which are kept, what they are named,
/// the namespace they go in and the source named in errors.
///
/// For each tool of the source, in its order:
/// 1. [`filter`](Shape::filter)s see the tool's definition as the source has it; a tool any
///    of them rejects is left out.
/// 2. A [`rename`](Shape::rename) gives the exact new name (no prefix is added to it);
///    every other tool gets the [`prefix`](Shape::prefix).
/// 3. A [`namespace`](Shape::namespace) then qualifies the name: `namespace__name`.
///
/// A renamed or prefixed tool still runs the original tool, with its retry policy, breaker
/// and required scopes. The default shape keeps every tool under its own name.
///
/// ```
/// use tool_core::{tool, tools, Shape, ToolCall};
///
/// /// Searches the code.
/// #[tool]
/// fn search(query: String) -> String { format!("code: {query}") }
///
/// /// Deletes a repository.
/// #[tool(destructive)]
/// fn delete_repo(name: String) -> String { name }
///
/// /// Searches the web.
/// #[tool(name = "search")]
/// fn web_search(query: String) -> String { format!("web: {query}") }
///
/// let github = tools![search, delete_repo];
/// let registry = tools![web_search]
///     .merge(
///         &github,
///         Shape::new()
///             .source("github")
///             .prefix("gh_")
///             .filter(|def| def.annotations.destructive != Some(true)),
///     )
///     .unwrap();
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["search", "gh_search"]);
/// let reply = registry.call_blocking(&ToolCall::new("1", "gh_search", r#"{"query":"fn main"}"#));
/// assert_eq!(reply.model_text(), "code: fn main");
/// ```
#[derive(Clone, Default)]
pub struct Shape {
    pub(super) source: Option<Arc<str>>,
    pub(super) prefix: String,
    pub(super) renames: Vec<(String, String)>,
    pub(super) filters: Vec<Filter>,
    pub(super) namespace: Option<Arc<ToolNamespace>>,
}

impl Shape {
    /// Every tool, under its own name.
    ///
    /// ```
    /// let shape = tool_core::Shape::new();
    /// assert_eq!(format!("{shape:?}"), "Shape { source: None, prefix: \"\", renames: [], filters: 0, namespace: None }");
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Names the source in collision errors (`'search' from github`); without it, errors
    /// say "the added registry".
    ///
    /// ```
    /// use tool_core::{tool, tools, RegistryError, Shape};
    /// /// Searches.
    /// #[tool]
    /// fn search(q: String) -> String { q }
    /// let error = tools![search].merge(&tools![search], Shape::new().source("github")).unwrap_err();
    /// assert!(error.to_string().contains("'search' from github"));
    /// ```
    pub fn source(mut self, label: impl Into<String>) -> Self {
        self.source = Some(Arc::from(label.into()));
        self
    }

    /// Puts `prefix` before the name of every tool not renamed.
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolRegistry};
    /// /// Searches.
    /// #[tool]
    /// fn search(q: String) -> String { q }
    /// let registry = ToolRegistry::new().merge(&tools![search], Shape::new().prefix("gh_")).unwrap();
    /// assert!(registry.get("gh_search").is_some());
    /// ```
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Names the source's tool `from` exactly `to` (the prefix is not added). Renaming a tool
    /// the source does not have is an error when composing, so a typo is caught.
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolRegistry};
    /// /// Searches issues.
    /// #[tool]
    /// fn search_issues(q: String) -> String { q }
    /// let registry = ToolRegistry::new()
    ///     .merge(&tools![search_issues], Shape::new().rename("search_issues", "find_bugs"))
    ///     .unwrap();
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["find_bugs"]);
    /// ```
    pub fn rename(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.renames.push((from.into(), to.into()));
        self
    }

    /// Keeps only the tools for which `keep` is true (it sees each definition as the source
    /// has it). Several filters must all keep a tool.
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolRegistry};
    /// /// Reads a file.
    /// #[tool(read_only)]
    /// fn read_file(path: String) -> String { path }
    /// /// Writes a file.
    /// #[tool]
    /// fn write_file(path: String) -> String { path }
    /// let read_only = ToolRegistry::new()
    ///     .merge(&tools![read_file, write_file], Shape::new().filter(|d| d.annotations.read_only == Some(true)))
    ///     .unwrap();
    /// assert_eq!(read_only.names().collect::<Vec<_>>(), ["read_file"]);
    /// ```
    pub fn filter(
        mut self,
        keep: impl Fn(&ToolDefinition) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.filters.push(Arc::new(keep));
        self
    }

    /// Keeps only the tools with these names in the source (a filter by name).
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolRegistry};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// let only_hi = ToolRegistry::new().merge(&tools![hi, bye], Shape::new().only(["hi"])).unwrap();
    /// assert_eq!(only_hi.names().collect::<Vec<_>>(), ["hi"]);
    /// ```
    pub fn only<I, S>(self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        self.filter(move |def| names.contains(&def.name))
    }

    /// Puts every kept tool in `namespace`: named `namespace__name` in the registry and on
    /// APIs without namespaces, grouped under the namespace on OpenAI Responses.
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolNamespace, ToolRegistry};
    /// /// Finds an account.
    /// #[tool]
    /// fn find_account(name: String) -> String { name }
    /// let registry = ToolRegistry::new()
    ///     .merge(&tools![find_account], Shape::new().namespace(ToolNamespace::new("crm", "Customer records.")))
    ///     .unwrap();
    /// let def = registry.definition("crm__find_account").unwrap();
    /// assert_eq!((def.local_name(), def.namespace().unwrap().name.as_str()), ("find_account", "crm"));
    /// ```
    pub fn namespace(mut self, namespace: ToolNamespace) -> Self {
        self.namespace = Some(Arc::new(namespace));
        self
    }

    /// Whether every filter keeps `def`.
    pub(super) fn keeps(&self, def: &ToolDefinition) -> bool {
        self.filters.iter().all(|keep| keep(def))
    }

    /// The name `original` gets: renamed or prefixed, then qualified by the namespace.
    pub(super) fn name_for(&self, original: &str) -> String {
        let local = match self.renames.iter().rev().find(|(from, _)| from == original) {
            Some((_, to)) => to.clone(),
            None => format!("{}{original}", self.prefix),
        };
        match &self.namespace {
            Some(ns) => ns.qualify(&local),
            None => local,
        }
    }

    /// How errors name the source.
    pub(super) fn source_label(&self) -> Arc<str> {
        self.source
            .clone()
            .unwrap_or_else(|| Arc::from("the added registry"))
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shape")
            .field("source", &self.source)
            .field("prefix", &self.prefix)
            .field("renames", &self.renames)
            .field("filters", &self.filters.len())
            .field("namespace", &self.namespace.as_ref().map(|ns| &ns.name))
            .finish()
    }
}
