//! Composing registries: the tools of one (an imported MCP server's, another team's) join
//! another, shaped by a [`Shape`]; a name taken twice is an error naming both tools.

use std::collections::HashMap;
use std::sync::Arc;

use super::{is_valid_tool_name, Entry, NameKey, RegistryError, Shape, ToolRegistry};
use crate::definition::StrictMode;
use crate::policy::Breaker;

/// Where a tool added by composing came from: for errors that name both tools of a
/// collision.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    pub(crate) source: Arc<str>,
    pub(crate) original: String,
}

impl ToolRegistry {
    /// Adds the tools of `other`, shaped by `shape` (filtered, renamed or prefixed, put in a
    /// namespace), after this registry's own: the order is this registry's tools, then
    /// `other`'s kept ones in `other`'s order. Returns how many were added.
    ///
    /// All or nothing: a name already taken (here or by another added tool), a rename of a
    /// tool `other` lacks, or a shaped name some provider would refuse is an error, and
    /// nothing is added. A collision names both tools and where each came from.
    ///
    /// The added tools run as they did in `other`, under their new names: same tool, same
    /// retry policy, same required scopes, and the same circuit breaker (shared, so its
    /// state carries over); a tool without a breaker gets one if this registry gives every
    /// tool one. This registry's limits, timeouts and approval hook apply to them; values of
    /// `other`'s extensions join this registry's where it has none of that type.
    ///
    /// ```
    /// use tool_core::{tool, tools, RegistryError, Shape};
    ///
    /// /// Searches the local notes.
    /// #[tool]
    /// fn search(query: String) -> String { query }
    ///
    /// let mut registry = tools![search];
    /// let imported = tools![search]; // e.g. an MCP server's tools
    /// let error = registry.extend_from(&imported, Shape::new().source("notes-server")).unwrap_err();
    /// assert!(matches!(error, RegistryError::Collision { .. }));
    /// assert_eq!(
    ///     error.to_string(),
    ///     "two tools would be named 'search': 'search' (registered directly) and 'search' from \
    ///      notes-server; give one toolset a prefix or a namespace, rename one tool, or filter one out"
    /// );
    /// assert_eq!(registry.extend_from(&imported, Shape::new().prefix("notes_")), Ok(1));
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["search", "notes_search"]);
    /// ```
    pub fn extend_from(
        &mut self,
        other: &ToolRegistry,
        shape: Shape,
    ) -> Result<usize, RegistryError> {
        let source = shape.source_label();
        for (from, _) in &shape.renames {
            if other.position(from).is_none() {
                return Err(RegistryError::Shape {
                    name: from.clone(),
                    reason: format!(
                        "cannot rename '{from}': {source} has no tool of that name (it has: {})",
                        crate::suggest::quoted_list(other.names())
                    ),
                });
            }
        }
        // Plan first, so an error leaves this registry as it was.
        let mut plan: Vec<(usize, String)> = Vec::new();
        let mut planned: HashMap<String, usize> = HashMap::new();
        for (index, def) in other.definitions.iter().enumerate() {
            if !shape.keeps(def) {
                continue;
            }
            let name = shape.name_for(&def.name);
            if !is_valid_tool_name(&name) {
                return Err(RegistryError::Shape {
                    reason: bad_name_reason(&name, &def.name, &source),
                    name,
                });
            }
            let incoming = other.describe(index, &source);
            if let Some(existing) = self.position(&name) {
                return Err(RegistryError::Collision {
                    existing: self.describe(existing, &Arc::from("")),
                    incoming,
                    name,
                });
            }
            if let Some(&earlier) = planned.get(&name) {
                return Err(RegistryError::Collision {
                    existing: other.describe(earlier, &source),
                    incoming,
                    name,
                });
            }
            planned.insert(name.clone(), index);
            plan.push((index, name));
        }
        let count = plan.len();
        for (index, name) in plan {
            let (Some(entry), Some(def)) = (other.entries.get(index), other.definitions.get(index))
            else {
                continue;
            };
            let mut definition = def.clone();
            definition.name.clone_from(&name);
            if let Some(ns) = &shape.namespace {
                definition.namespace = Some(ns.clone());
            }
            let breaker = entry.breaker.clone().or_else(|| {
                self.policy
                    .breaker
                    .map(|config| Arc::new(Breaker::new(config)))
            });
            self.keys.push(NameKey::of(&name));
            self.index.insert(name, self.entries.len());
            self.entries.push(Entry {
                tool: entry.tool.clone(),
                retry: entry.retry,
                breaker,
                scopes: entry.scopes.clone(),
                origin: Some(Origin {
                    source: source.clone(),
                    original: entry
                        .origin
                        .as_ref()
                        .map_or_else(|| def.name.clone(), |o| o.original.clone()),
                }),
                // A setting the source registry made for the tool, or for all its tools,
                // goes with the tool; its unset default gives way to this registry's.
                strict: entry
                    .strict
                    .or((other.strict != StrictMode::Auto).then_some(other.strict)),
                nulls: None,
            });
            self.definitions.push(definition);
            self.apply_strict(self.entries.len() - 1);
        }
        self.extensions.fill_from(&other.extensions);
        self.definitions_changed();
        Ok(count)
    }

    /// [`ToolRegistry::extend_from`], for chaining: this registry with `other`'s tools added.
    ///
    /// ```
    /// use tool_core::{tool, tools, Shape, ToolCall, ToolNamespace};
    ///
    /// /// Current weather for a city.
    /// #[tool]
    /// fn get_weather(city: String) -> String { format!("15 degrees in {city}") }
    ///
    /// /// Finds an account.
    /// #[tool]
    /// fn find_account(name: String) -> String { format!("account of {name}") }
    ///
    /// let registry = tools![get_weather]
    ///     .merge(&tools![find_account], Shape::new().namespace(ToolNamespace::new("crm", "Customer records.")))
    ///     .unwrap();
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["get_weather", "crm__find_account"]);
    /// let reply = registry.call_blocking(&ToolCall::new("1", "crm__find_account", r#"{"name":"Ada"}"#));
    /// assert_eq!(reply.model_text(), "account of Ada");
    /// ```
    pub fn merge(mut self, other: &ToolRegistry, shape: Shape) -> Result<Self, RegistryError> {
        self.extend_from(other, shape)?;
        Ok(self)
    }

    /// How collision errors name the tool at `index`: its original name and source.
    fn describe(&self, index: usize, source: &Arc<str>) -> String {
        let name = self.definitions.get(index).map_or("", |d| d.name.as_str());
        match self.entries.get(index).and_then(|e| e.origin.as_ref()) {
            Some(origin) if !source.is_empty() => {
                format!("'{}' from {source}", origin.original)
            }
            Some(origin) => format!("'{}' from {}", origin.original, origin.source),
            None if !source.is_empty() => format!("'{name}' from {source}"),
            None => format!("'{name}' (registered directly)"),
        }
    }
}

/// Why a shaped name is refused, and which part to shorten or change.
fn bad_name_reason(name: &str, original: &str, source: &str) -> String {
    let length = name.chars().count();
    if length > 64 {
        format!(
            "'{original}' from {source} would be named '{name}' ({length} characters), over the \
             64 every provider accepts; use a shorter prefix or namespace, or rename the tool"
        )
    } else {
        format!(
            "'{original}' from {source} would be named '{name}', which some provider refuses: \
             use ASCII letters, digits, '_' or '-', starting with a letter or '_'"
        )
    }
}
