//! [`ToolDefinition`] and [`ToolAnnotations`]: what an application sends a model about a tool.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Behaviour hints that travel with a definition (MCP's `readOnlyHint`, `destructiveHint`,
/// `idempotentHint`, `openWorldHint`). `None` means "not stated".
///
/// ```
/// use tool_core::ToolAnnotations;
/// let a = ToolAnnotations { read_only: Some(true), ..ToolAnnotations::NONE };
/// assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"read_only":true}"#);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolAnnotations {
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool talks to an open world (the web, other people's systems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No hints stated.
    pub const NONE: ToolAnnotations = ToolAnnotations {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// Whether no hint is stated.
    ///
    /// ```
    /// assert!(tool_core::ToolAnnotations::NONE.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }
}

/// A tool as a model is told about it: name, description, the canonical JSON Schema of its
/// parameters, annotations, and (for tools that return structured data) the JSON Schema of
/// that data. Built once per tool by the registry and cached.
///
/// ```
/// use tool_core::{tool, tools};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let def = &registry.definitions()[0];
/// assert_eq!(def.name, "add");
/// assert_eq!(def.input_schema["required"], serde_json::json!(["a", "b"]));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The name the model calls the tool by.
    pub name: String,
    /// A human-readable display name (MCP's `title`, e.g. "Weather forecast"), for people
    /// choosing tools in a client's interface; models see `name` and `description`. Only
    /// the MCP server and client carry it; the other dialects leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, when to use it, and what it returns.
    pub description: String,
    /// The canonical JSON Schema of the arguments (`type: object` at the root).
    pub input_schema: Arc<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// The JSON Schema of the response's `data` (an object schema, as MCP's `outputSchema`
    /// requires), when the tool declares one; see [`Tool::output_schema`](crate::Tool::output_schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Arc<Value>>,
}
