//! The Responses API shapes: tools, `tool_choice`, output items, the history entries.

use serde_json::{json, Map, Value};

use super::stream::{read_items, OpenAiResponsesStream};
use super::OpenAiResponses;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::provider::error::At;
use crate::provider::openai_chat::strict_schema;
use crate::provider::turn::id_at;
use crate::provider::{
    pairs, same_calls, Api, AssistantTurn, ChatApi, ProviderError, Sealed, ToolChoice,
};
use crate::response::ToolResponse;

/// One flat function tool with an explicit `strict` (this API defaults it to true).
fn tool(def: &ToolDefinition) -> Value {
    let dialect = strict_schema(&def.input_schema);
    json!({
        "type": "function",
        "name": def.name,
        "description": def.description,
        "parameters": dialect.schema,
        "strict": dialect.strict,
    })
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

impl Sealed for OpenAiResponses {}

impl ChatApi for OpenAiResponses {
    const API: Api = Api::OpenAiResponses;
    type Stream = OpenAiResponsesStream;

    fn tools(defs: &[ToolDefinition]) -> Value {
        Value::Array(defs.iter().map(tool).collect())
    }

    /// `"auto"`, `"required"`, `"none"` or `{"type": "function", "name": …}`; the parallel
    /// switch is a field of its own (see `tool_fields`).
    fn tool_choice(choice: &ToolChoice, _parallel: bool) -> Value {
        match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("required"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
        }
    }

    /// `tools`, `tool_choice` and, when `parallel` is false, `parallel_tool_calls: false`.
    fn tool_fields(
        defs: &[ToolDefinition],
        choice: &ToolChoice,
        parallel: bool,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("tools".into(), Self::tools(defs));
        out.insert("tool_choice".into(), Self::tool_choice(choice, parallel));
        if !parallel {
            out.insert("parallel_tool_calls".into(), Value::Bool(false));
        }
        out
    }

    /// The `output` items: `message` items give the text, `function_call` items the calls
    /// (id = `call_id`). Every item, including the ones not read here (`reasoning` with its
    /// `encrypted_content`, web search calls), is kept unchanged in
    /// [`AssistantTurn::native`]. A call whose `status` is not `completed` is an error, so it
    /// is never dispatched.
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
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
            response_id: id_at(response, "id"),
            ..AssistantTurn::default()
        })
    }

    /// The assistant's items for the next request's `input`, as an array. A turn read from
    /// the API sends its output items back exactly as they came (reasoning items with their
    /// ids and `encrypted_content`, messages, calls, in their order). A turn built by hand,
    /// or whose `text` or `calls` no longer match those items, is written as its text in an
    /// assistant message, then one `function_call` item per call (with the original `fc_…`
    /// id when known).
    fn history_entry(turn: &AssistantTurn) -> Value {
        if native_agrees(turn) {
            return Value::Array(turn.native.clone());
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
        Value::Array(out)
    }

    /// One `function_call_output` item per call, in call order. The `output` is the model
    /// text, or for a response with attachments a list: `input_text`, then an `input_image`
    /// per image, an `input_file` per file, and an `input_text` naming each audio clip.
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
        pairs(calls, responses)
            .map(|(call, response)| {
                let output = if response.attachments.is_empty() {
                    json!(response.model_text())
                } else {
                    super::attachments::output_items(
                        &response.model_text_without_attachments(),
                        &response.attachments,
                    )
                };
                json!({"type": "function_call_output", "call_id": call.id, "output": output})
            })
            .collect()
    }

    fn stream() -> OpenAiResponsesStream {
        OpenAiResponsesStream::default()
    }
}
