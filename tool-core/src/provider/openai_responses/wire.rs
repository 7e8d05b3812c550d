//! The Responses API shapes: tools, `tool_choice`, output items, the history entries.

use serde_json::{json, Map, Value};

use super::stream::{read_items, OpenAiResponsesStream};
use super::OpenAiResponses;
use crate::call::{AllowedCallers, Caller, ToolCall};
use crate::definition::ToolDefinition;
use crate::provider::error::At;
use crate::provider::openai_chat::parameters;
use crate::provider::turn::id_at;
use crate::provider::{
    pairs, same_calls, Api, AssistantTurn, ChatApi, ProviderError, Sealed, ToolChoice,
};
use crate::response::ToolResponse;

/// One flat function tool with an explicit `strict` (this API defaults it to true), and
/// `defer_loading: true` when `deferred` and the tool is (only with `tool_search` in the
/// same request).
pub(super) fn tool(def: &ToolDefinition, deferred: bool) -> Value {
    let (parameters, strict) = parameters(def);
    let mut out = Map::new();
    out.insert("type".into(), json!("function"));
    out.insert("name".into(), json!(def.local_name()));
    out.insert("description".into(), json!(def.description));
    out.insert("parameters".into(), parameters);
    out.insert("strict".into(), json!(strict));
    if deferred && def.defer_loading() {
        out.insert("defer_loading".into(), Value::Bool(true));
    }
    // The API's default is direct calls only, so the default is not sent.
    let allowed = match def.allowed_callers() {
        AllowedCallers::Program => Some(json!(["programmatic"])),
        AllowedCallers::Any => Some(json!(["direct", "programmatic"])),
        _ => None,
    };
    if let Some(allowed) = allowed {
        out.insert("allowed_callers".into(), allowed);
    }
    Value::Object(out)
}

/// The tool that lets the model write programs which call functions (programmatic tool
/// calling): `{"type": "programmatic_tool_calling"}` (openai-python's
/// `ProgrammaticToolCalling`).
pub(super) const PROGRAMS_TOOL: &str = "programmatic_tool_calling";

/// Adds the programs tool to a `tools` array when a function allows calls from programs
/// (they could not be called otherwise).
pub(super) fn add_programs(defs: &[ToolDefinition], tools: &mut Value) {
    let wanted = defs
        .iter()
        .any(|def| def.allowed_callers() != AllowedCallers::Direct);
    if let (true, Value::Array(list)) = (wanted, tools) {
        list.push(json!({"type": PROGRAMS_TOOL}));
    }
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

    /// One function tool per definition; tools in a namespace grouped in one `namespace`
    /// entry where the first of them stands, under their own names; then
    /// `{"type": "programmatic_tool_calling"}` when a function allows calls from programs.
    fn tools(defs: &[ToolDefinition]) -> Value {
        let mut tools = super::namespace::tools(defs, |def| tool(def, false));
        add_programs(defs, &mut tools);
        tools
    }

    /// `"auto"`, `"required"`, `"none"`, `{"type": "function", "name": …}` or
    /// `{"type": "allowed_tools", "mode", "tools"}` (through `tool_fields`, a tool in a
    /// namespace is named with its `namespace`); the parallel
    /// switch is a field of its own (see `tool_fields`).
    fn tool_choice(choice: &ToolChoice, _parallel: bool) -> Value {
        match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("required"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
            ToolChoice::Allowed { tools, mode } => super::namespace::allowed(&[], tools, *mode),
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
        let tool_choice = super::namespace::choice(defs, choice)
            .unwrap_or_else(|| Self::tool_choice(choice, parallel));
        out.insert("tool_choice".into(), tool_choice);
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
            super::namespace::write_call_name(&mut item, call);
            item.insert("arguments".into(), json!(call.arguments));
            match &call.caller {
                Some(Caller::Program { id, .. }) => {
                    item.insert("caller".into(), json!({"type": "program", "caller_id": id}));
                }
                Some(_) => {
                    item.insert("caller".into(), json!({"type": "direct"}));
                }
                None => {}
            }
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
