//! Model Context Protocol: `tools/list` entries, reading a `tools/call` request, and its
//! result.
//!
//! From the MCP specification (Tools): a tool is `{"name", "description", "inputSchema",
//! "outputSchema", "annotations"}` with the hints `readOnlyHint`, `destructiveHint`, `idempotentHint` and
//! `openWorldHint`; a result is `{"content": [{"type": "text", "text"}], "isError"}`, with
//! `structuredContent` holding a JSON object result.

use serde_json::{json, Map, Value};

use super::error::At;
use super::ProviderError;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;
use crate::schema::mcp_input_schema;

/// One `tools/list` entry; `outputSchema` only when the tool has one, `annotations` only when
/// a hint is stated.
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Reads a file.
/// #[tool(read_only)]
/// fn read(path: String) -> String { path }
/// let t = tool_core::provider::mcp::tool(&tools![read].definitions()[0]);
/// assert_eq!(t["annotations"], serde_json::json!({"readOnlyHint": true}));
/// ```
pub fn tool(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    if let Some(title) = &def.title {
        out.insert("title".into(), json!(title));
    }
    out.insert("description".into(), json!(def.description));
    out.insert(
        "inputSchema".into(),
        mcp_input_schema(&def.input_schema).schema,
    );
    if let Some(output) = &def.output_schema {
        out.insert("outputSchema".into(), Value::clone(output));
    }
    let a = &def.annotations;
    let mut hints = Map::new();
    for (key, value) in [
        ("readOnlyHint", a.read_only),
        ("destructiveHint", a.destructive),
        ("idempotentHint", a.idempotent),
        ("openWorldHint", a.open_world),
    ] {
        if let Some(value) = value {
            hints.insert(key.into(), Value::Bool(value));
        }
    }
    if !hints.is_empty() {
        out.insert("annotations".into(), Value::Object(hints));
    }
    Value::Object(out)
}

/// The `tools/list` result: `{"tools": [...]}`.
///
/// ```
/// assert_eq!(tool_core::provider::mcp::tools_list_result(&[]), serde_json::json!({"tools": []}));
/// ```
pub fn tools_list_result(defs: &[ToolDefinition]) -> Value {
    json!({"tools": defs.iter().map(tool).collect::<Vec<_>>()})
}

/// Reads a `tools/call` JSON-RPC request into a call; the JSON-RPC id (string or number)
/// becomes the call id.
///
/// ```
/// let req = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "f", "arguments": {"x": 1}}});
/// let call = tool_core::provider::mcp::read_call(&req).unwrap();
/// assert_eq!((call.id.as_str(), call.arguments.as_str()), ("7", r#"{"x":1}"#));
/// ```
pub fn read_call(request: &Value) -> Result<ToolCall, ProviderError> {
    let root = At::root(request);
    let id = match root.get("id")?.value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err(root.get("id")?.expected("a string or a number")),
    };
    let params = root.get("params")?;
    let arguments = match params.opt("arguments") {
        Some(args) if args.value.is_object() => args.value.to_string(),
        Some(args) => return Err(args.expected("an object")),
        None => "{}".to_string(),
    };
    Ok(ToolCall {
        id,
        name: params.get("name")?.str()?.to_owned(),
        arguments,
    })
}

/// The `tools/call` result: the model text as one text block, `isError` for an `ERROR`, and
/// `structuredContent` when the response's `data` is a JSON object.
///
/// ```
/// let r = tool_core::ToolResponse::success("ok").with_data(&serde_json::json!({"n": 1}));
/// let out = tool_core::provider::mcp::call_result(&r);
/// assert_eq!(out["isError"], false);
/// assert_eq!(out["structuredContent"]["n"], 1);
/// ```
pub fn call_result(response: &ToolResponse) -> Value {
    let mut out = Map::new();
    out.insert(
        "content".into(),
        json!([{"type": "text", "text": response.model_text()}]),
    );
    if let Some(data) = &response.data {
        if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(data.get()) {
            out.insert("structuredContent".into(), Value::Object(object));
        }
    }
    out.insert("isError".into(), Value::Bool(response.is_error()));
    Value::Object(out)
}
