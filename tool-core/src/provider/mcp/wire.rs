//! The MCP shapes: `tools/list` entries, a `tools/call` request, its result.

use serde_json::{json, Map, Value};

use super::schema::input_schema;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::output_schema::is_wrapped_output;
use crate::provider::error::At;
use crate::provider::ProviderError;
use crate::response::ToolResponse;

/// One `tools/list` entry; `outputSchema` only when the tool has one, `annotations` only when
/// a hint is stated, `icons` and `_meta` only when given.
pub(crate) fn tool(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    if let Some(title) = &def.title {
        out.insert("title".into(), json!(title));
    }
    out.insert("description".into(), json!(def.description));
    out.insert("inputSchema".into(), input_schema(&def.input_schema).schema);
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
    crate::metadata::write_metadata(&mut out, &def.icons, def.meta.as_ref());
    if let Some(uri) = def.app() {
        write_app(&mut out, uri);
    }
    Value::Object(out)
}

/// `_meta.ui.resourceUri` of a tool with an interactive view (the MCP Apps extension), beside
/// whatever else `_meta` holds; other keys of a `ui` object given in `_meta` (such as
/// `visibility`) stay.
fn write_app(out: &mut Map<String, Value>, uri: &str) {
    let meta = out
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Value::Object(meta) = meta {
        let ui = meta
            .entry("ui")
            .or_insert_with(|| Value::Object(Map::new()));
        if !ui.is_object() {
            *ui = Value::Object(Map::new());
        }
        if let Value::Object(ui) = ui {
            ui.insert("resourceUri".into(), json!(uri));
        }
    }
}

/// The `tools/list` result: `{"tools": [...]}`.
///
/// ```
/// assert_eq!(tool_core::provider::mcp::tools(&[]), serde_json::json!({"tools": []}));
/// ```
pub fn tools(defs: &[ToolDefinition]) -> Value {
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
    Ok(ToolCall::new(
        id,
        params.get("name")?.str()?.to_owned(),
        arguments,
    ))
}

/// The `tools/call` result: the model text as one text block, then one block per attachment
/// (image and audio content, an embedded resource for a file, a resource link for a URL),
/// `isError` for an `ERROR`, and
/// `structuredContent` only for a success of a tool that declares an output schema (the
/// specification requires it to match that schema): the response's `data`, wrapped as
/// `{"result": …}` when the schema is the wrapper of a non-object result. The MCP server
/// answers with exactly this.
///
/// ```
/// use tool_core::provider::mcp;
/// let schema = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
/// let r = tool_core::ToolResponse::success("ok").with_data(&serde_json::json!({"n": 1}));
/// let out = mcp::call_result(&r, Some(&schema));
/// assert_eq!(out["isError"], false);
/// assert_eq!(out["structuredContent"]["n"], 1);
/// assert!(mcp::call_result(&r, None).get("structuredContent").is_none());
/// ```
pub fn call_result(response: &ToolResponse, output_schema: Option<&Value>) -> Value {
    let mut out = Map::new();
    let content = if response.attachments.is_empty() {
        json!([{"type": "text", "text": response.model_text()}])
    } else {
        let text = response.model_text_without_attachments();
        let text = (!text.is_empty()).then(|| json!({"type": "text", "text": text}));
        let blocks = response
            .attachments
            .iter()
            .map(super::attachments::content_block);
        Value::Array(text.into_iter().chain(blocks).collect())
    };
    out.insert("content".into(), content);
    let structured = match (response.is_error(), output_schema, &response.data) {
        (false, Some(schema), Some(data)) => {
            serde_json::from_str::<Value>(data.get()).ok().map(|value| {
                if is_wrapped_output(schema) {
                    json!({ "result": value })
                } else {
                    value
                }
            })
        }
        _ => None,
    };
    if let Some(structured) = structured {
        out.insert("structuredContent".into(), structured);
    }
    out.insert("isError".into(), Value::Bool(response.is_error()));
    Value::Object(out)
}
