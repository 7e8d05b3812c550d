//! OpenAI Responses API: flat function tools, `tool_choice`, `function_call` output items and
//! `function_call_output` input items.
//!
//! Shapes from the Responses API reference: a tool is
//! `{"type": "function", "name", "description", "parameters", "strict"}` (flat, and `strict`
//! is sent explicitly because this API defaults it to true); a call is an output item
//! `{"type": "function_call", "id": "fc_…", "call_id": "call_…", "name", "arguments"}` and is
//! answered by an input item `{"type": "function_call_output", "call_id", "output"}`.

use serde_json::{json, Map, Value};

use super::error::At;
use super::{pairs, same_calls, AssistantTurn, ProviderError, ToolChoice};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;
use crate::schema::openai_strict;

/// One flat function tool with an explicit `strict`.
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let t = tool_core::provider::openai_responses::tool(&tools![hi].definitions()[0]);
/// assert_eq!(t["name"], "hi");
/// assert_eq!(t["strict"], true);
/// ```
pub fn tool(def: &ToolDefinition) -> Value {
    let dialect = openai_strict(&def.input_schema);
    json!({
        "type": "function",
        "name": def.name,
        "description": def.description,
        "parameters": dialect.schema,
        "strict": dialect.strict,
    })
}

/// The `tools` array.
///
/// ```
/// assert_eq!(tool_core::provider::openai_responses::tools(&[]), serde_json::json!([]));
/// ```
pub fn tools(defs: &[ToolDefinition]) -> Value {
    Value::Array(defs.iter().map(tool).collect())
}

/// `tool_choice`: `"auto"`, `"required"`, `"none"` or `{"type": "function", "name": …}`.
///
/// ```
/// use tool_core::provider::{openai_responses, ToolChoice};
/// assert_eq!(openai_responses::tool_choice(&ToolChoice::tool("f")), serde_json::json!({"type": "function", "name": "f"}));
/// ```
pub fn tool_choice(choice: &ToolChoice) -> Value {
    match choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::Required => json!("required"),
        ToolChoice::None => json!("none"),
        ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
    }
}

/// `tools`, `tool_choice` and, when `parallel` is false, `parallel_tool_calls: false`.
///
/// ```
/// use tool_core::provider::{openai_responses, ToolChoice};
/// let f = openai_responses::request_fields(&[], &ToolChoice::Required, true);
/// assert!(f.get("parallel_tool_calls").is_none());
/// ```
pub fn request_fields(defs: &[ToolDefinition], choice: &ToolChoice, parallel: bool) -> Value {
    let mut out = Map::new();
    out.insert("tools".into(), tools(defs));
    out.insert("tool_choice".into(), tool_choice(choice));
    if !parallel {
        out.insert("parallel_tool_calls".into(), Value::Bool(false));
    }
    Value::Object(out)
}

/// Reads a response's `output` items: `message` items give the text, `function_call` items
/// the calls (id = `call_id`). Every item, including the ones not read here (`reasoning` with
/// its `encrypted_content`, web search calls), is kept unchanged in
/// [`AssistantTurn::native`] for the history. A call whose `status` is not `completed` is an
/// error, so it is never dispatched.
///
/// ```
/// let response = serde_json::json!({"status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}]});
/// let turn = tool_core::provider::openai_responses::read_response(&response).unwrap();
/// assert_eq!(turn.calls[0].id, "call_1");
/// assert_eq!(turn.item_ids, [Some("fc_1".to_string())]);
/// assert_eq!(turn.native[0]["encrypted_content"], "gAAAA");
/// ```
pub fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
    let root = At::root(response);
    let output = root.get("output")?;
    let items = output
        .value
        .as_array()
        .ok_or_else(|| output.expected("an array"))?;
    let read = read_items(items)?;
    Ok(AssistantTurn {
        text: read.text,
        calls: read.calls,
        stop_reason: root
            .opt("status")
            .and_then(|s| s.value.as_str().map(str::to_owned)),
        item_ids: read.item_ids,
        native: items.clone(),
        ..AssistantTurn::default()
    })
}

/// What [`read_items`] finds in a list of output items.
#[derive(Default)]
pub(super) struct Items {
    pub text: String,
    pub calls: Vec<ToolCall>,
    pub item_ids: Vec<Option<String>>,
    pub has_message: bool,
}

/// The text, calls and call item ids of a list of output items (shared by the reader, the
/// stream assembler and the history writer's agreement check).
pub(super) fn read_items(items: &[Value]) -> Result<Items, ProviderError> {
    let mut out = Items::default();
    for (i, value) in items.iter().enumerate() {
        let item = At {
            value,
            path: format!("output[{i}]"),
        };
        match item.get("type")?.str()? {
            "message" => {
                out.has_message = true;
                for part in item.get("content")?.array()? {
                    if part.opt("type").and_then(|t| t.value.as_str()) == Some("output_text") {
                        out.text.push_str(part.get("text")?.str()?);
                    }
                }
            }
            "function_call" => {
                if let Some(status) = item.opt("status") {
                    let status = status.str()?;
                    if status != "completed" {
                        return Err(ProviderError::new(
                            item.path.clone(),
                            format!("function call is '{status}', not completed; not dispatched"),
                        ));
                    }
                }
                out.calls.push(ToolCall {
                    id: item.get("call_id")?.str()?.to_owned(),
                    name: item.get("name")?.str()?.to_owned(),
                    arguments: item.get("arguments")?.str()?.to_owned(),
                });
                out.item_ids.push(
                    item.opt("id")
                        .and_then(|i| i.value.as_str().map(str::to_owned)),
                );
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The assistant's items for the next request's `input`. A turn read from the API sends its
/// output items back exactly as they came ([`AssistantTurn::native`]: reasoning items with
/// their ids and `encrypted_content`, messages, calls, in their order), which is what the API
/// wants for reasoning models. A turn built by hand, or whose `text` or `calls` no longer
/// match those items, is written as its text in an assistant message, then one
/// `function_call` item per call (with the original `fc_…` id when known).
///
/// ```
/// use tool_core::{provider::{openai_responses, AssistantTurn}, ToolCall};
/// let turn = AssistantTurn::new("", vec![ToolCall::new("call_1", "f", "{}")]);
/// let items = openai_responses::assistant_items(&turn);
/// assert_eq!(items[0]["type"], "function_call");
/// assert_eq!(items[0]["call_id"], "call_1");
///
/// let response = serde_json::json!({"status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}]});
/// let turn = openai_responses::read_response(&response).unwrap();
/// assert_eq!(serde_json::Value::Array(openai_responses::assistant_items(&turn)), response["output"]);
/// ```
pub fn assistant_items(turn: &AssistantTurn) -> Vec<Value> {
    if native_agrees(turn) {
        return turn.native.clone();
    }
    let mut out = Vec::new();
    if !turn.text.is_empty() {
        out.push(json!({"role": "assistant", "content": turn.text}));
    }
    for (i, call) in turn.calls.iter().enumerate() {
        let mut item = Map::new();
        item.insert("type".into(), json!("function_call"));
        if let Some(Some(id)) = turn.item_ids.get(i) {
            item.insert("id".into(), json!(id));
        }
        item.insert("call_id".into(), json!(call.id));
        item.insert("name".into(), json!(call.name));
        item.insert("arguments".into(), json!(call.arguments));
        out.push(Value::Object(item));
    }
    out
}

fn native_agrees(turn: &AssistantTurn) -> bool {
    if turn.native.is_empty() {
        return false;
    }
    match read_items(&turn.native) {
        Ok(read) => read.text == turn.text && same_calls(&read.calls, &turn.calls),
        Err(_) => false,
    }
}

/// One `function_call_output` item per call, in call order.
///
/// ```
/// use tool_core::{provider::openai_responses, ToolCall, ToolResponse};
/// let out = openai_responses::tool_outputs(&[ToolCall::new("call_1", "f", "{}")], &[ToolResponse::success("ok")]);
/// assert_eq!(out[0], serde_json::json!({"type": "function_call_output", "call_id": "call_1", "output": "ok"}));
/// ```
pub fn tool_outputs(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
    pairs(calls, responses)
        .map(|(call, response)| {
            json!({"type": "function_call_output", "call_id": call.id, "output": response.model_text()})
        })
        .collect()
}
