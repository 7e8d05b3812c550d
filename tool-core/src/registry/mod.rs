//! [`ToolRegistry`]: an ordered set of tools with unique names, their cached definitions,
//! prompt and provider tool lists, and the dispatch settings. The dispatch path itself is in
//! `dispatch`, which reads this state; nothing here calls into it.

mod change;
mod compose;
mod lists;
mod name_key;
mod names;
mod search;
mod settings;
mod shape;
mod strict;
mod text;
mod tool_key;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

pub use lists::{ToolList, ToolListFormat};
use name_key::NameKey;
pub(crate) use names::unknown_name;
pub use names::{is_valid_tool_name, RegistryError};
pub use shape::Shape;
pub(crate) use strict::NullStrip;
pub use tool_key::ToolKey;

use crate::clock;
use crate::context::Extensions;
use crate::definition::{StrictMode, ToolDefinition};
use crate::policy::{Breaker, Policy, RetryPolicy};
use crate::response::{ToolErrorCode, ToolResponse};
use crate::suggest::quoted_list;
use crate::tool::{Tool, ToolSet};

/// Registries up to this size find a tool by comparing names, which beats hashing.
const LINEAR_LOOKUP_MAX: usize = 12;

/// One registered tool and its per-tool dispatch state (both `None` unless configured).
pub(crate) struct Entry {
    pub(crate) tool: Arc<dyn Tool>,
    pub(crate) retry: Option<RetryPolicy>,
    /// Shared with the registry's forks (see `change`), so a tool's circuit keeps its state
    /// across a live change of the tool set.
    pub(crate) breaker: Option<Arc<Breaker>>,
    /// Scopes a caller's [`Principal`](crate::Principal) must hold to see and call the tool
    /// over an authorizing transport (empty: none).
    pub(crate) scopes: Vec<String>,
    /// Where the tool came from when it joined by composing (see `compose`): named in
    /// collision errors.
    pub(crate) origin: Option<compose::Origin>,
    /// The tool's own strict mode, when it has one (else the registry's).
    pub(crate) strict: Option<StrictMode>,
    /// Set when the model's `null`s for optional properties must be taken out of the
    /// arguments before the tool runs (see `strict`); `None` for most tools.
    pub(crate) nulls: Option<Arc<NullStrip>>,
}

/// An ordered set of tools with unique names: the dispatcher and the source of definitions.
///
/// Build one with [`tools!`](crate::tools) or [`ToolRegistry::with`]. [`ToolRegistry::call`]
/// never panics and never fails: every problem is an `ERROR` response with a code.
///
/// ```
/// use tool_core::{tool, tools, ToolCall, ToolErrorCode};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let sum = registry.call_blocking(&ToolCall::new("1", "add", r#"{"a":2,"b":3}"#));
/// assert_eq!(sum.model_text(), "5");
///
/// let typo = registry.call_blocking(&ToolCall::new("2", "ad", "{}"));
/// assert_eq!(typo.error_code(), Some(ToolErrorCode::NotFound));
/// assert!(typo.error_message().unwrap().contains("Did you mean 'add'?"));
/// ```
#[derive(Default)]
pub struct ToolRegistry {
    pub(crate) entries: Vec<Entry>,
    pub(crate) definitions: Vec<ToolDefinition>,
    /// Each tool's name as a [`NameKey`], in registration order: what a small registry's
    /// lookup compares.
    keys: Vec<NameKey>,
    index: HashMap<String, usize>,
    /// Values every tool may ask for through its context.
    pub(crate) extensions: Extensions,
    /// Limits, timeouts, breaker and approval settings (see the `dispatch` module).
    pub(crate) policy: Policy,
    /// Rendered prompt sections, built on first use (see the `prompt` module).
    pub(crate) prompt_cache: OnceLock<Arc<str>>,
    /// Provider tool lists, one per format, built on first use (see [`ToolRegistry::tool_list`]).
    lists: lists::ListCache,
    /// The built-in search's index of the tools, built on first search (see
    /// [`ToolRegistry::search_tools`]).
    search_index: OnceLock<crate::search::KeywordIndex>,
    /// The strict mode of tools without their own (see [`ToolRegistry::with_strict`]).
    pub(crate) strict: StrictMode,
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}

impl ToolRegistry {
    /// An empty registry.
    ///
    /// ```
    /// assert!(tool_core::ToolRegistry::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Drops everything built from the definitions (the prompt, the tool lists, the search
    /// index): they are built again from the new ones on first use.
    pub(crate) fn definitions_changed(&mut self) {
        self.prompt_cache = OnceLock::new();
        self.lists = lists::ListCache::default();
        self.search_index = OnceLock::new();
    }

    /// Adds a tool, checking that its name is valid and unused. Builds and caches its
    /// definition (including the schema) now, so calls and `definitions()` never do.
    ///
    /// ```
    /// use tool_core::{tool, RegistryError, ToolRegistry};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let mut registry = ToolRegistry::new();
    /// registry.register(hi {}).unwrap();
    /// assert_eq!(registry.register(hi {}), Err(RegistryError::DuplicateName("hi".into())));
    /// assert_eq!(registry.len(), 1);
    /// ```
    pub fn register(&mut self, tool: impl Tool) -> Result<(), RegistryError> {
        self.register_arc(Arc::new(tool))
    }

    /// Adds a shared tool; see [`ToolRegistry::register`].
    ///
    /// ```
    /// # use tool_core::{tool, ToolRegistry};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let mut r = ToolRegistry::new();
    /// r.register_arc(std::sync::Arc::new(hi {})).unwrap();
    /// assert_eq!(r.len(), 1);
    /// ```
    pub fn register_arc(&mut self, tool: Arc<dyn Tool>) -> Result<(), RegistryError> {
        let name = tool.name().to_string();
        if !is_valid_tool_name(&name) {
            return Err(RegistryError::InvalidName(name));
        }
        if self.position(&name).is_some() {
            return Err(RegistryError::DuplicateName(name));
        }
        let definition = ToolDefinition {
            name: name.clone(),
            title: tool.title().map(str::to_owned),
            description: tool.description().to_string(),
            input_schema: Arc::new(tool.input_schema()),
            annotations: tool.annotations(),
            output_schema: tool.output_schema().map(Arc::new),
            icons: tool.icons(),
            meta: tool.meta(),
            defer_loading: tool.defer_loading(),
            app: tool.app().map(str::to_owned),
            allowed_callers: tool.allowed_callers(),
            task_support: tool.task_support(),
            namespace: None,
            strict: self.strict,
        };
        clock::anchor();
        self.keys.push(NameKey::of(&name));
        self.index.insert(name, self.entries.len());
        self.entries.push(Entry {
            tool,
            retry: None,
            breaker: self.policy.breaker.map(|c| Arc::new(Breaker::new(c))),
            scopes: Vec::new(),
            origin: None,
            strict: None,
            nulls: None,
        });
        self.definitions.push(definition);
        self.apply_strict(self.entries.len() - 1);
        self.definitions_changed();
        Ok(())
    }

    /// Adds a tool and returns the registry, for chaining.
    ///
    /// # Panics
    ///
    /// On a duplicate or invalid name: that is a programming error in the application, caught
    /// the first time the registry is built. Use [`ToolRegistry::register`] to handle it.
    ///
    /// ```
    /// # use tool_core::{tool, ToolRegistry};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let r = ToolRegistry::new().with(hi {});
    /// assert_eq!(r.names().collect::<Vec<_>>(), ["hi"]);
    /// ```
    #[track_caller]
    pub fn with(mut self, tool: impl Tool) -> Self {
        if let Err(e) = self.register(tool) {
            panic!("{e}");
        }
        self
    }

    /// Adds every tool of a tool set (a `#[toolbox]` impl block), bound to one shared instance.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::{toolbox, ToolCall, ToolRegistry};
    ///
    /// struct Counter(std::sync::atomic::AtomicU32);
    ///
    /// #[toolbox]
    /// impl Counter {
    ///     /// Adds one and returns the new count.
    ///     #[tool]
    ///     fn bump(&self) -> u32 {
    ///         self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
    ///     }
    /// }
    ///
    /// let mut registry = ToolRegistry::new();
    /// registry.register_all(Arc::new(Counter(0.into()))).unwrap();
    /// registry.call_blocking(&ToolCall::new("1", "bump", "{}"));
    /// assert_eq!(registry.call_blocking(&ToolCall::new("2", "bump", "{}")).model_text(), "2");
    /// ```
    pub fn register_all<S: ToolSet>(&mut self, set: Arc<S>) -> Result<(), RegistryError> {
        for tool in S::tools(set) {
            self.register_arc(tool)?;
        }
        Ok(())
    }

    /// [`ToolRegistry::register_all`] for chaining.
    ///
    /// # Panics
    ///
    /// On a duplicate or invalid name, as [`ToolRegistry::with`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::{toolbox, ToolRegistry};
    ///
    /// struct Notes;
    ///
    /// #[toolbox]
    /// impl Notes {
    ///     /// Lists the notes.
    ///     #[tool]
    ///     fn list_notes(&self) -> String { String::new() }
    ///     /// Counts the notes.
    ///     #[tool]
    ///     fn count_notes(&self) -> usize { 0 }
    /// }
    ///
    /// let registry = ToolRegistry::new().with_all(Arc::new(Notes));
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["list_notes", "count_notes"]);
    /// ```
    #[track_caller]
    pub fn with_all<S: ToolSet>(mut self, set: Arc<S>) -> Self {
        if let Err(e) = self.register_all(set) {
            panic!("{e}");
        }
        self
    }

    /// Makes a value available to every tool's context (a database pool, an HTTP client).
    ///
    /// ```
    /// let registry = tool_core::ToolRegistry::new().with_extension(42u32);
    /// assert_eq!(registry.extensions().get::<u32>(), Some(&42));
    /// ```
    pub fn with_extension<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    /// The values every tool may ask for.
    ///
    /// ```
    /// let registry = tool_core::ToolRegistry::new().with_extension("db-url".to_string());
    /// assert_eq!(registry.extensions().get::<String>().map(String::as_str), Some("db-url"));
    /// assert!(registry.extensions().get::<u64>().is_none());
    /// ```
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }

    /// How many tools there are.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert_eq!(tools![hi].len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no tools.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert!(tool_core::ToolRegistry::new().is_empty());
    /// assert!(!tools![hi].is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Tool names in registration order.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// assert_eq!(tools![bye, hi].names().collect::<Vec<_>>(), ["bye", "hi"]);
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.definitions.iter().map(|d| d.name.as_str())
    }

    /// The tool with this exact name.
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// assert!(tools![hi].get("hi").is_some());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.position(name).map(|i| &self.entries[i].tool)
    }

    /// The cached definitions, in registration order.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let registry = tools![add];
    /// let definition = &registry.definitions()[0];
    /// assert_eq!((definition.name.as_str(), definition.description.as_str()), ("add", "Adds two integers."));
    /// assert_eq!(definition.input_schema["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.definitions
    }

    /// The cached definition of one tool.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// /// Reads a file.
    /// #[tool(read_only)]
    /// fn read_file(path: String) -> String { path }
    /// let registry = tools![read_file];
    /// assert_eq!(registry.definition("read_file").unwrap().annotations.read_only, Some(true));
    /// assert!(registry.definition("write_file").is_none());
    /// ```
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        self.position(name).map(|i| &self.definitions[i])
    }

    #[inline]
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        if self.keys.len() <= LINEAR_LOOKUP_MAX && name.len() <= NameKey::EXACT_MAX {
            // Short names (most are) are their keys: a few integer compares per tool.
            let key = NameKey::of(name);
            self.keys.iter().position(|k| *k == key)
        } else {
            self.position_by_name(name)
        }
    }

    /// Lookup by the whole name: hashed in large registries, compared in small ones (where
    /// only names longer than a key come).
    #[inline(never)]
    fn position_by_name(&self, name: &str) -> Option<usize> {
        if self.entries.len() <= LINEAR_LOOKUP_MAX {
            self.definitions.iter().position(|d| d.name == name)
        } else {
            self.index.get(name).copied()
        }
    }

    /// The `NOT_FOUND` response for a name no tool has: lists the tools and the closest name.
    pub(crate) fn unknown_tool(&self, name: &str) -> ToolResponse {
        let message = if self.is_empty() {
            format!("Unknown tool '{name}': no tools are available in this conversation.")
        } else {
            format!(
                "{} Available tools: {}.",
                unknown_name(name, self.names()),
                quoted_list(self.names())
            )
        };
        ToolResponse::error(ToolErrorCode::NotFound, message)
    }
}

/// Builds a [`ToolRegistry`] from `#[tool]` functions, in the order given.
///
/// Duplicate names are a compile error:
///
/// ```compile_fail
/// use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// /// Also says hi.
/// #[tool(name = "hi")]
/// fn hello() -> &'static str { "hello" }
/// let _ = tools![hi, hello];
/// ```
///
/// ```
/// use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// /// Says bye.
/// #[tool]
/// fn bye() -> &'static str { "bye" }
/// let registry = tools![hi, bye];
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["hi", "bye"]);
/// ```
#[macro_export]
macro_rules! tools {
    ($($tool:path),* $(,)?) => {{
        const _: () = if let ::core::option::Option::Some(message) = $crate::__private::first_duplicate(
            &[$(<$tool>::__TOOL_NAME),*],
            &[$(<$tool>::__TOOL_DUPLICATE),*],
        ) {
            ::core::panic!("{}", message)
        };
        $crate::ToolRegistry::new()$(.with(<$tool>::__tool()))*
    }};
}

#[cfg(test)]
mod tests {
    #[test]
    fn unknown_tool_example() {
        let r = crate::ToolRegistry::new().unknown_tool("x");
        assert!(r
            .error_message()
            .unwrap()
            .contains("no tools are available"));
    }
}
