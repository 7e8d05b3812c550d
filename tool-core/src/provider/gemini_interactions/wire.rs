//! The Interactions shapes: function tools, `tool_choice`, the model's steps as history, and
//! the `function_result` steps.

use serde_json::{json, Map, Value};

use super::stream::{read_steps, text_content, GeminiInteractionsStream, Parsed};
use super::GeminiInteractions;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::provider::error::At;
use crate::provider::{
    arguments_value, pairs, same_calls, AllowedMode, Api, AssistantTurn, ChatApi, ProviderError,
    Sealed, ToolChoice,
};
use crate::response::{Attachment, ToolResponse};

/// One function tool: the tool's JSON Schema as `parameters`, unchanged.
fn function_tool(def: &ToolDefinition) -> Value {
    json!({
        "type": "function",
        "name": def.name,
        "description": def.description,
        "parameters": *def.input_schema,
    })
}

/// Whether the turn's native steps still say what its `text` and `calls` say.
fn native_agrees(turn: &AssistantTurn) -> bool {
    if turn.native.is_empty() {
        return false;
    }
    let mut parsed = Parsed::default();
    let steps = turn.native.iter().enumerate().map(|(i, value)| At {
        value,
        path: format!("steps[{i}]"),
    });
    read_steps(steps, &mut parsed).is_ok()
        && parsed.text == turn.text
        && same_calls(&parsed.calls, &turn.calls)
}

/// A result's attachments as `function_result` content: images and documents the API takes
/// (`image`, `document` with `data` or `uri`), the rest named in the text.
fn result_content(response: &ToolResponse) -> Value {
    let mut text = response.model_text_without_attachments().into_owned();
    let mut items = Vec::new();
    for attachment in &response.attachments {
        match attachment_content(attachment) {
            Some(item) => items.push(item),
            None => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&attachment.note());
            }
        }
    }
    let mut out = Vec::with_capacity(items.len() + 1);
    if !text.is_empty() {
        out.push(json!({"type": "text", "text": text}));
    }
    out.extend(items);
    Value::Array(out)
}

fn attachment_content(a: &Attachment) -> Option<Value> {
    let mime = a.mime_type();
    let kind = match mime {
        "image/png" | "image/jpeg" | "image/webp" | "image/heic" | "image/heif" | "image/gif" => {
            "image"
        }
        "application/pdf" => "document",
        _ => return None,
    };
    let mut item = Map::new();
    item.insert("type".into(), json!(kind));
    match a.url() {
        Some(url) => item.insert("uri".into(), json!(url)),
        None => item.insert("data".into(), json!(a.base64()?)),
    };
    item.insert("mime_type".into(), json!(mime));
    Some(Value::Object(item))
}

impl Sealed for GeminiInteractions {}

impl ChatApi for GeminiInteractions {
    const API: Api = Api::GeminiInteractions;
    type Stream = GeminiInteractionsStream;

    /// `[{"type": "function", "name", "description", "parameters"}]`, `parameters` the
    /// tool's JSON Schema unchanged.
    fn tools(defs: &[ToolDefinition]) -> Value {
        defs.iter()
            .filter(|d| Self::API.offers(d))
            .map(function_tool)
            .collect()
    }

    /// `generation_config.tool_choice`: `"auto"`, `"any"` or `"none"`; one forced tool or
    /// several allowed ones are `{"allowed_tools": {"mode", "tools"}}` with mode `any` (a
    /// call required) or `validated` (text or a call of one of them). There is no switch for
    /// parallel calls.
    fn tool_choice(choice: &ToolChoice, _parallel: bool) -> Value {
        let allowed =
            |mode: &str, tools: &[String]| json!({"allowed_tools": {"mode": mode, "tools": tools}});
        match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("any"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => allowed("any", std::slice::from_ref(name)),
            ToolChoice::Allowed { tools, mode } => allowed(
                if *mode == AllowedMode::Required {
                    "any"
                } else {
                    "validated"
                },
                tools,
            ),
        }
    }

    /// `tools`, and `generation_config: {"tool_choice": ...}` (merge it with the request's
    /// other generation settings).
    fn tool_fields(
        defs: &[ToolDefinition],
        choice: &ToolChoice,
        parallel: bool,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        if !defs.iter().any(|d| Self::API.offers(d)) {
            return out;
        }
        out.insert("tools".into(), Self::tools(defs));
        out.insert(
            "generation_config".into(),
            json!({"tool_choice": Self::tool_choice(choice, parallel)}),
        );
        out
    }

    /// The model's steps of an `Interaction`: `model_output` text, `function_call` steps
    /// with their ids, thought steps kept as they are; the echoed input steps are left out.
    /// The `status` is the stop reason and the `id` the response id.
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
        super::stream::read_interaction(response)
    }

    /// The model's steps, an array to spread into `input`. A turn read from the API sends
    /// its steps back exactly as they came (thought steps with their signatures, text and
    /// calls in their order); a turn built by hand, or whose text or calls changed, is
    /// written as a `model_output` step, then one `function_call` step per call.
    fn history_entry(turn: &AssistantTurn) -> Value {
        if native_agrees(turn) {
            return Value::Array(turn.native.clone());
        }
        let mut steps = Vec::with_capacity(turn.calls.len() + 1);
        if !turn.text.is_empty() {
            steps.push(json!({"type": "model_output", "content": text_content(&turn.text)}));
        }
        for call in &turn.calls {
            steps.push(
                json!({"type": "function_call", "id": call.id, "name": call.name,
                "arguments": arguments_value(&call.arguments)}),
            );
        }
        Value::Array(steps)
    }

    /// One `function_result` step per call, in call order: `call_id`, `name`, the result
    /// text (or, with images or PDFs, a list of `text`, `image` and `document` content) and
    /// `is_error: true` for a failed tool only.
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
        pairs(calls, responses)
            .map(|(call, response)| {
                let mut step = Map::new();
                step.insert("type".into(), json!("function_result"));
                step.insert("call_id".into(), json!(call.id));
                step.insert("name".into(), json!(call.name));
                let result = if response.attachments.is_empty() {
                    json!(response.model_text())
                } else {
                    result_content(&response)
                };
                step.insert("result".into(), result);
                if response.is_error() {
                    step.insert("is_error".into(), Value::Bool(true));
                }
                Value::Object(step)
            })
            .collect()
    }

    fn stream() -> GeminiInteractionsStream {
        GeminiInteractionsStream::default()
    }
}
