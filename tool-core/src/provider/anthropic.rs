//! Anthropic Messages: `tools`, `tool_choice`, reading `tool_use` blocks, and the `user`
//! message of `tool_result` blocks that answers them.
//!
//! Rules from Anthropic's "handling tool calls" page: calls are `tool_use` blocks
//! `{"id", "name", "input"}` with `stop_reason: "tool_use"`; the answer is one `user` message
//! right after, whose `tool_result` blocks (`tool_use_id`, `content`, `is_error`) come first,
//! with any text after all of them; content is a string or a list of blocks. `tool_choice`
//! (`auto`, `any`, `tool`, `none`) and `disable_parallel_tool_use` are from the Messages API
//! reference.

use serde_json::{json, Map, Value};

use super::error::At;
use super::{arguments_value, pairs, same_calls, AssistantTurn, ProviderError, ToolChoice};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;
use crate::schema::anthropic_input_schema;

/// One tool: `{"name", "description", "input_schema"}`.
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let t = tool_core::provider::anthropic::tool(&tools![hi].definitions()[0]);
/// assert_eq!(t["input_schema"]["type"], "object");
/// assert!(t.get("strict").is_none());
/// ```
pub fn tool(def: &ToolDefinition) -> Value {
    json!({
        "name": def.name,
        "description": def.description,
        "input_schema": anthropic_input_schema(&def.input_schema).schema,
    })
}

/// The `tools` array.
///
/// ```
/// assert_eq!(tool_core::provider::anthropic::tools(&[]), serde_json::json!([]));
/// ```
pub fn tools(defs: &[ToolDefinition]) -> Value {
    Value::Array(defs.iter().map(tool).collect())
}

/// The `tools` array for strict tool use: `strict: true` on every tool whose schema allows
/// it (closed objects, no recursion); the others are sent without `strict` (see
/// [`anthropic_input_schema`] for why).
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let t = tool_core::provider::anthropic::tools_strict(tools![hi].definitions());
/// assert_eq!(t[0]["strict"], true);
/// ```
pub fn tools_strict(defs: &[ToolDefinition]) -> Value {
    Value::Array(
        defs.iter()
            .map(|def| {
                let mut t = tool(def);
                if anthropic_input_schema(&def.input_schema).strict {
                    if let Value::Object(map) = &mut t {
                        map.insert("strict".into(), Value::Bool(true));
                    }
                }
                t
            })
            .collect(),
    )
}

/// `tool_choice`: `{"type": "auto" | "any" | "none"}` or `{"type": "tool", "name"}`;
/// `parallel: false` adds `disable_parallel_tool_use: true` (not for `none`, where it has no
/// meaning).
///
/// ```
/// use tool_core::provider::{anthropic, ToolChoice};
/// assert_eq!(anthropic::tool_choice(&ToolChoice::Auto, false),
///            serde_json::json!({"type": "auto", "disable_parallel_tool_use": true}));
/// ```
pub fn tool_choice(choice: &ToolChoice, parallel: bool) -> Value {
    let mut out = Map::new();
    match choice {
        ToolChoice::Auto => out.insert("type".into(), json!("auto")),
        ToolChoice::Required => out.insert("type".into(), json!("any")),
        ToolChoice::None => out.insert("type".into(), json!("none")),
        ToolChoice::Tool(name) => {
            out.insert("type".into(), json!("tool"));
            out.insert("name".into(), json!(name))
        }
    };
    if !parallel && *choice != ToolChoice::None {
        out.insert("disable_parallel_tool_use".into(), Value::Bool(true));
    }
    Value::Object(out)
}

/// Reads a Messages response: text blocks (joined), `tool_use` blocks (their `input` object
/// becomes the argument text), and `stop_reason`. Every block, including the ones not read
/// here (thinking, redacted thinking, server-tool blocks, a `caller` on a `tool_use`), is kept
/// unchanged in [`AssistantTurn::native`] for the history.
///
/// ```
/// let response = serde_json::json!({"stop_reason": "tool_use", "content": [
///     {"type": "thinking", "thinking": "The user wants the weather.", "signature": "EqQB"},
///     {"type": "text", "text": "Checking."},
///     {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}}]});
/// let turn = tool_core::provider::anthropic::read_response(&response).unwrap();
/// assert_eq!((turn.text.as_str(), turn.calls[0].arguments.as_str()), ("Checking.", r#"{"x":1}"#));
/// assert_eq!(turn.native[0]["signature"], "EqQB");
/// ```
pub fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
    let root = At::root(response);
    let stop_reason = root
        .opt("stop_reason")
        .map(|r| r.str().map(str::to_owned))
        .transpose()?;
    let content = root.get("content")?;
    let blocks = content
        .value
        .as_array()
        .ok_or_else(|| content.expected("an array"))?;
    let (text, calls) = read_blocks(blocks)?;
    Ok(AssistantTurn {
        text,
        calls,
        stop_reason,
        native: blocks.clone(),
        ..AssistantTurn::default()
    })
}

/// The text and the calls of a list of content blocks (shared by the reader, the stream
/// assembler and the history writer's agreement check).
pub(super) fn read_blocks(blocks: &[Value]) -> Result<(String, Vec<ToolCall>), ProviderError> {
    let mut text = String::new();
    let mut calls = Vec::new();
    for (i, value) in blocks.iter().enumerate() {
        let block = At {
            value,
            path: format!("content[{i}]"),
        };
        match block.get("type")?.str()? {
            "text" => text.push_str(block.get("text")?.str()?),
            "tool_use" => {
                let input = block.get("input")?;
                if !input.value.is_object() {
                    return Err(input.expected("an object"));
                }
                calls.push(ToolCall {
                    id: block.get("id")?.str()?.to_owned(),
                    name: block.get("name")?.str()?.to_owned(),
                    arguments: input.value.to_string(),
                });
            }
            _ => {}
        }
    }
    Ok((text, calls))
}

/// The assistant message for the history. A turn read from Anthropic sends its blocks back
/// exactly as they came ([`AssistantTurn::native`]: thinking blocks with their signatures,
/// `server_tool_use` and its results, `caller` fields, in their order), as the API requires
/// for thinking and server tools. A turn built by hand, or whose `text` or `calls` no longer
/// match those blocks, is written as a text block (when there was text), then one `tool_use`
/// block per call.
///
/// ```
/// use tool_core::{provider::{anthropic, AssistantTurn}, ToolCall};
/// let turn = AssistantTurn::new("On it.", vec![ToolCall::new("toolu_1", "f", r#"{"x":1}"#)]);
/// let m = anthropic::assistant_message(&turn);
/// assert_eq!(m["content"][1]["input"]["x"], 1);
///
/// let response = serde_json::json!({"stop_reason": "tool_use", "content": [
///     {"type": "thinking", "thinking": "Weather first.", "signature": "EqQB"},
///     {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}}]});
/// let turn = anthropic::read_response(&response).unwrap();
/// assert_eq!(anthropic::assistant_message(&turn)["content"], response["content"]);
/// ```
pub fn assistant_message(turn: &AssistantTurn) -> Value {
    if native_agrees(turn) {
        return json!({"role": "assistant", "content": turn.native});
    }
    let mut content = Vec::new();
    if !turn.text.is_empty() {
        content.push(json!({"type": "text", "text": turn.text}));
    }
    for call in &turn.calls {
        content.push(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": arguments_value(&call.arguments)}));
    }
    json!({"role": "assistant", "content": content})
}

fn native_agrees(turn: &AssistantTurn) -> bool {
    if turn.native.is_empty() {
        return false;
    }
    match read_blocks(&turn.native) {
        Ok((text, calls)) => text == turn.text && same_calls(&calls, &turn.calls),
        Err(_) => false,
    }
}

/// How a `tool_result`'s `content` is written.
///
/// ```
/// assert_eq!(tool_core::provider::anthropic::ResultContent::default(), tool_core::provider::anthropic::ResultContent::Text);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResultContent {
    /// `"content": "<text>"`.
    #[default]
    Text,
    /// `"content": [{"type": "text", "text": "<text>"}]`.
    Blocks,
}

/// One `tool_result` block: the response's model text, `is_error: true` for an `ERROR`.
///
/// ```
/// use tool_core::{provider::anthropic::{tool_result, ResultContent}, ToolCall, ToolErrorCode, ToolResponse};
/// let call = ToolCall::new("toolu_1", "f", "{}");
/// let block = tool_result(&call, &ToolResponse::error(ToolErrorCode::Timeout, "slow"), ResultContent::Text);
/// assert_eq!(block["is_error"], true);
/// ```
pub fn tool_result(call: &ToolCall, response: &ToolResponse, style: ResultContent) -> Value {
    let text = response.model_text();
    let mut out = Map::new();
    out.insert("type".into(), json!("tool_result"));
    out.insert("tool_use_id".into(), json!(call.id));
    let content = match style {
        ResultContent::Text => json!(text),
        ResultContent::Blocks => json!([{"type": "text", "text": text}]),
    };
    out.insert("content".into(), content);
    if response.is_error() {
        out.insert("is_error".into(), Value::Bool(true));
    }
    Value::Object(out)
}

/// The one `user` message that answers a turn's calls: every `tool_result` first, in call
/// order, then `text` (when given) after all of them, as the API requires.
///
/// ```
/// use tool_core::{provider::anthropic, ToolCall, ToolResponse};
/// let m = anthropic::tool_results_message(&[ToolCall::new("toolu_1", "f", "{}")], &[ToolResponse::success("15 degrees")], Some("What next?"));
/// assert_eq!(m["content"][0]["type"], "tool_result");
/// assert_eq!(m["content"][1]["type"], "text");
/// ```
pub fn tool_results_message(
    calls: &[ToolCall],
    responses: &[ToolResponse],
    text: Option<&str>,
) -> Value {
    tool_results_message_with(calls, responses, text, ResultContent::Text)
}

/// [`tool_results_message`] with a choice of content style.
///
/// ```
/// use tool_core::{provider::anthropic::{self, ResultContent}, ToolCall, ToolResponse};
/// let m = anthropic::tool_results_message_with(&[ToolCall::new("t", "f", "{}")], &[ToolResponse::success("ok")], None, ResultContent::Blocks);
/// assert_eq!(m["content"][0]["content"][0]["text"], "ok");
/// ```
pub fn tool_results_message_with(
    calls: &[ToolCall],
    responses: &[ToolResponse],
    text: Option<&str>,
    style: ResultContent,
) -> Value {
    let mut content: Vec<Value> = pairs(calls, responses)
        .map(|(call, response)| tool_result(call, &response, style))
        .collect();
    if let Some(text) = text.filter(|t| !t.is_empty()) {
        content.push(json!({"type": "text", "text": text}));
    }
    json!({"role": "user", "content": content})
}
