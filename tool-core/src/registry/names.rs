//! Tool names: which names are valid, why one could not be registered, and the message for a
//! name the registry does not know.

use std::fmt;

use crate::suggest::closest;

/// `Unknown tool 'x'. Did you mean 'y'?`: the part of every unknown-tool message that names the
/// mistake; callers add which tools are available (all, or only those offered this turn).
pub(crate) fn unknown_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    let hint = closest(name, candidates)
        .map(|h| format!(" Did you mean '{h}'?"))
        .unwrap_or_default();
    let shown = if name.is_empty() {
        "(empty name)"
    } else {
        name
    };
    format!("Unknown tool '{shown}'.{hint}")
}

/// Why a tool could not be registered.
///
/// ```
/// use tool_core::{tool, RegistryError, ToolRegistry};
///
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(hi {}).unwrap();
/// assert!(matches!(registry.register(hi {}), Err(RegistryError::DuplicateName(_))));
/// ```
// Non-exhaustive: new registration rules bring new reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Another tool already has this name.
    DuplicateName(String),
    /// The name does not match `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
    InvalidName(String),
    /// Composing two tool sets would give two tools the same name
    /// ([`ToolRegistry::extend_from`](crate::ToolRegistry::extend_from)); nothing was added.
    Collision {
        /// The name both tools would have.
        name: String,
        /// The tool already there, and where it came from.
        existing: String,
        /// The tool being added, and where it came from.
        incoming: String,
    },
    /// A [`Shape`](crate::Shape) cannot be applied: it renames a tool the source does not
    /// have, or its prefix, rename or namespace makes a name no provider accepts (too long,
    /// a character outside letters, digits, `_` and `-`); nothing was added.
    Shape {
        /// The name concerned (the shaped name, or the missing tool's).
        name: String,
        /// What is wrong and what to change.
        reason: String,
    },
}

impl RegistryError {
    /// The name that could not be registered.
    ///
    /// ```
    /// assert_eq!(tool_core::RegistryError::InvalidName("9lives".into()).name(), "9lives");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            RegistryError::DuplicateName(name)
            | RegistryError::InvalidName(name)
            | RegistryError::Collision { name, .. }
            | RegistryError::Shape { name, .. } => name,
        }
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::DuplicateName(name) => write!(
                f,
                "a tool named '{name}' is already registered; tool names must be unique \
                 (rename one with #[tool(name = \"...\")])"
            ),
            RegistryError::InvalidName(name) => write!(
                f,
                "'{name}' is not a valid tool name: use 1 to 64 ASCII letters, digits, '_' or '-', \
                 not starting with a digit or '-'"
            ),
            RegistryError::Collision {
                name,
                existing,
                incoming,
            } => write!(
                f,
                "two tools would be named '{name}': {existing} and {incoming}; give one \
                 toolset a prefix or a namespace, rename one tool, or filter one out"
            ),
            RegistryError::Shape { reason, .. } => f.write_str(reason),
        }
    }
}

impl std::error::Error for RegistryError {}

/// Whether `name` matches `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, the rule every provider accepts.
///
/// ```
/// assert!(tool_core::is_valid_tool_name("get_weather"));
/// assert!(!tool_core::is_valid_tool_name("get weather"));
/// assert!(!tool_core::is_valid_tool_name("9lives"));
/// ```
pub const fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 64 {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let ok =
            b.is_ascii_alphabetic() || b == b'_' || (i > 0 && (b.is_ascii_digit() || b == b'-'));
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}
