//! OpenAI Chat Completions: `tools`, `tool_choice`, `parallel_tool_calls`, reading
//! `message.tool_calls`, and the `role: "tool"` messages that answer them.
//!
//! Shapes from OpenAI's function-calling guide and the Chat Completions API reference: a tool is
//! `{"type": "function", "function": {"name", "description", "parameters", "strict"}}`; a call
//! is `{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}`; each
//! call is answered by its own `{"role": "tool", "tool_call_id", "content"}` message, right
//! after the assistant message that made the calls, one per call.

use serde_json::{json, Map, Value};

use super::error::At;
use super::{pairs, AssistantTurn, ProviderError, ToolChoice};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;
use crate::schema::openai_strict;

/// One function tool. `strict` is `true` when the schema could be made strict, else `false`
/// with the canonical schema (see [`openai_strict`] for the reasons).
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
/// let t = tool_core::provider::openai::tool(&tools![add].definitions()[0]);
/// assert_eq!(t["type"], "function");
/// assert_eq!(t["function"]["parameters"]["required"], serde_json::json!(["a", "b"]));
/// ```
pub fn tool(def: &ToolDefinition) -> Value {
    let dialect = openai_strict(&def.input_schema);
    json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": dialect.schema,
            "strict": dialect.strict,
        }
    })
}

/// The `tools` array, in registration order.
///
/// ```
/// assert_eq!(tool_core::provider::openai::tools(&[]), serde_json::json!([]));
/// ```
pub fn tools(defs: &[ToolDefinition]) -> Value {
    Value::Array(defs.iter().map(tool).collect())
}

/// `tool_choice`: `"auto"`, `"required"`, `"none"` or
/// `{"type": "function", "function": {"name": …}}`.
///
/// ```
/// use tool_core::provider::{openai, ToolChoice};
/// assert_eq!(openai::tool_choice(&ToolChoice::tool("f"))["function"]["name"], "f");
/// ```
pub fn tool_choice(choice: &ToolChoice) -> Value {
    match choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::Required => json!("required"),
        ToolChoice::None => json!("none"),
        ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
    }
}

/// The request fields for tools: `tools`, `tool_choice` and `parallel_tool_calls` (sent only
/// when it is `false`, the switch that turns parallel calls off). Merge them into a request.
///
/// ```
/// use tool_core::provider::{openai, ToolChoice};
/// let fields = openai::request_fields(&[], &ToolChoice::Auto, false);
/// assert_eq!(fields["parallel_tool_calls"], false);
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

/// Reads the first choice of a Chat Completions response: its text (`content`, often null
/// when there are calls) and its `tool_calls`, in order.
///
/// ```
/// let response = serde_json::json!({"choices": [{"finish_reason": "stop",
///     "message": {"role": "assistant", "content": "Hello"}}]});
/// let turn = tool_core::provider::openai::read_response(&response).unwrap();
/// assert_eq!(turn.text, "Hello");
/// assert!(turn.calls.is_empty());
/// ```
pub fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
    let choice = At::root(response).get("choices")?.index(0)?;
    let stop_reason = choice
        .opt("finish_reason")
        .map(|r| r.str().map(str::to_owned))
        .transpose()?;
    let mut turn = read_message(&choice.get("message")?)?;
    turn.stop_reason = stop_reason;
    Ok(turn)
}

/// Reads an assistant `message` object (`content` and `tool_calls`).
///
/// ```
/// let message = serde_json::json!({"role": "assistant", "content": null, "tool_calls": [
///     {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]});
/// let turn = tool_core::provider::openai::read_message_value(&message).unwrap();
/// assert_eq!(turn.calls[0].id, "call_1");
/// ```
pub fn read_message_value(message: &Value) -> Result<AssistantTurn, ProviderError> {
    read_message(&At::root(message))
}

fn read_message(message: &At<'_>) -> Result<AssistantTurn, ProviderError> {
    let text = match message.opt("content") {
        None => String::new(),
        // Content parts (`[{"type": "text", "text": …}]`), as some compatible servers send.
        Some(content) if content.value.is_array() => {
            let mut text = String::new();
            for part in content.array()? {
                if let Some(t) = part.opt("text") {
                    text.push_str(t.str()?);
                }
            }
            text
        }
        Some(content) => content.str()?.to_owned(),
    };
    let mut calls = Vec::new();
    if let Some(tool_calls) = message.opt("tool_calls") {
        for call in tool_calls.array()? {
            let function = call.get("function")?;
            let arguments = function.get("arguments")?;
            // Arguments are JSON text; a provider-compatible server that sends an object is
            // tolerated by re-serializing it.
            let arguments = match arguments.value {
                Value::String(s) => s.clone(),
                Value::Object(_) => arguments.value.to_string(),
                _ => return Err(arguments.expected("a JSON string")),
            };
            calls.push(ToolCall {
                id: call.get("id")?.str()?.to_owned(),
                name: function.get("name")?.str()?.to_owned(),
                arguments,
            });
        }
    }
    Ok(AssistantTurn {
        text,
        calls,
        ..AssistantTurn::default()
    })
}

/// The assistant message that carried the calls, for the history: `content` is the text (or
/// null when there was none) and `tool_calls` lists the calls with their ids.
///
/// ```
/// use tool_core::{provider::{openai, AssistantTurn}, ToolCall};
/// let turn = AssistantTurn::new("", vec![ToolCall::new("call_1", "f", "{}")]);
/// let m = openai::assistant_message(&turn);
/// assert_eq!(m["content"], serde_json::Value::Null);
/// assert_eq!(m["tool_calls"][0]["function"]["arguments"], "{}");
/// ```
pub fn assistant_message(turn: &AssistantTurn) -> Value {
    let mut out = Map::new();
    out.insert("role".into(), json!("assistant"));
    out.insert(
        "content".into(),
        if turn.text.is_empty() {
            Value::Null
        } else {
            Value::String(turn.text.clone())
        },
    );
    if !turn.calls.is_empty() {
        let calls = turn
            .calls
            .iter()
            .map(|c| {
                json!({"id": c.id, "type": "function",
                       "function": {"name": c.name, "arguments": c.arguments}})
            })
            .collect();
        out.insert("tool_calls".into(), Value::Array(calls));
    }
    Value::Object(out)
}

/// One `{"role": "tool", "tool_call_id", "content"}` message per call, in call order; the
/// content is [`ToolResponse::model_text`] (an `ERROR` reads `Error [CODE]: …`, since this API
/// has no error flag).
///
/// ```
/// use tool_core::{provider::openai, ToolCall, ToolResponse};
/// let calls = [ToolCall::new("call_a", "f", "{}"), ToolCall::new("call_b", "f", "{}")];
/// let out = openai::tool_messages(&calls, &[ToolResponse::success("1"), ToolResponse::success("2")]);
/// assert_eq!(out[1], serde_json::json!({"role": "tool", "tool_call_id": "call_b", "content": "2"}));
/// ```
pub fn tool_messages(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
    pairs(calls, responses)
        .map(|(call, response)| {
            json!({"role": "tool", "tool_call_id": call.id, "content": response.model_text()})
        })
        .collect()
}
