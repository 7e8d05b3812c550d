//! MCP `tools/list` `inputSchema`.
//!
//! The MCP specification (Tools, `Tool.inputSchema`) asks for a JSON Schema object with
//! `type: "object"`; it takes JSON Schema as is, so the canonical schema goes unchanged.

use serde_json::Value;

use crate::schema::DialectSchema;

/// The MCP `inputSchema`: the canonical schema unchanged.
///
/// ```
/// let canonical = serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
/// assert_eq!(tool_core::provider::mcp::input_schema(&canonical).schema, canonical);
/// ```
pub fn input_schema(schema: &Value) -> DialectSchema {
    DialectSchema {
        schema: schema.clone(),
        strict: false,
        changes: Vec::new(),
        not_strict: Vec::new(),
    }
}
