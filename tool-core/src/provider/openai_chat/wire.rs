//! The Chat Completions shapes: tools, `tool_choice`, a response, the history entries.

use serde_json::{json, Map, Value};

use super::schema::strict_schema;
use super::stream::OpenAiChatStream;
use super::OpenAiChat;
use crate::call::ToolCall;
use crate::definition::{StrictMode, ToolDefinition};
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{pairs, Api, AssistantTurn, ChatApi, ProviderError, Sealed, ToolChoice};
use crate::response::ToolResponse;

/// One function tool. `strict` is `true` when the schema could be made strict, else `false`
/// with the canonical schema (see [`strict_schema`] for the reasons).
pub(crate) fn tool(def: &ToolDefinition) -> Value {
    let (parameters, strict) = parameters(def);
    json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": parameters,
            "strict": strict,
        }
    })
}

/// A tool's `parameters` and `strict` for both OpenAI APIs: the strict form when the tool's
/// [`StrictMode`] allows it and the schema can be made strict faithfully, else the canonical
/// schema with `strict: false`.
pub(crate) fn parameters(def: &ToolDefinition) -> (Value, bool) {
    if def.strict == StrictMode::Off {
        return (Value::clone(&def.input_schema), false);
    }
    let dialect = strict_schema(&def.input_schema);
    (dialect.schema, dialect.strict)
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
            calls.push(ToolCall::new(
                call.get("id")?.str()?.to_owned(),
                function.get("name")?.str()?.to_owned(),
                arguments,
            ));
        }
    }
    Ok(AssistantTurn {
        text,
        calls,
        ..AssistantTurn::default()
    })
}

impl Sealed for OpenAiChat {}

impl ChatApi for OpenAiChat {
    const API: Api = Api::OpenAiChat;
    type Stream = OpenAiChatStream;

    fn tools(defs: &[ToolDefinition]) -> Value {
        Value::Array(
            defs.iter()
                .filter(|d| Self::API.offers(d))
                .map(tool)
                .collect(),
        )
    }

    /// `"auto"`, `"required"`, `"none"`, `{"type": "function", "function": {"name": …}}` or
    /// `{"type": "allowed_tools", "allowed_tools": {"mode", "tools"}}`;
    /// the parallel switch is a field of its own (see `tool_fields`).
    fn tool_choice(choice: &ToolChoice, _parallel: bool) -> Value {
        match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("required"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
            ToolChoice::Allowed { tools, mode } => json!({
                "type": "allowed_tools",
                "allowed_tools": {
                    "mode": mode.as_str(),
                    "tools": tools
                        .iter()
                        .map(|name| json!({"type": "function", "function": {"name": name}}))
                        .collect::<Vec<_>>(),
                },
            }),
        }
    }

    /// `tools`, `tool_choice` and `parallel_tool_calls` (sent only when it is `false`, the
    /// switch that turns parallel calls off).
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
        out.insert("tool_choice".into(), Self::tool_choice(choice, parallel));
        if !parallel {
            out.insert("parallel_tool_calls".into(), Value::Bool(false));
        }
        out
    }

    /// The first choice: its text (`content`, often null when there are calls) and its
    /// `tool_calls`, in order; the completion's `id` as the response id.
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
        let choice = At::root(response).get("choices")?.index(0)?;
        let stop_reason = choice
            .opt("finish_reason")
            .map(|r| r.str().map(str::to_owned))
            .transpose()?;
        let mut turn = read_message(&choice.get("message")?)?;
        turn.stop_reason = stop_reason;
        turn.response_id = id_at(response, "id");
        Ok(turn)
    }

    /// The assistant message that carried the calls: `content` is the text (or null when
    /// there was none) and `tool_calls` lists the calls with their ids.
    fn history_entry(turn: &AssistantTurn) -> Value {
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
    /// content is the model text (an `ERROR` reads `Error [CODE]: …`, since this API has no
    /// error flag). A tool message takes text only, so it names each attachment
    /// (`[image/png, 34 KB, "chart.png"]`), and when there are images, PDFs or WAV/MP3 audio
    /// one `user` message follows the tool messages with them as content parts.
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
        let mut out: Vec<Value> = pairs(calls, responses)
            .map(|(call, response)| {
                json!({"role": "tool", "tool_call_id": call.id, "content": response.model_text()})
            })
            .collect();
        if responses.iter().any(|r| !r.attachments.is_empty()) {
            out.extend(super::attachments::user_message(
                calls.iter().zip(responses.iter()),
            ));
        }
        out
    }

    fn stream() -> OpenAiChatStream {
        OpenAiChatStream::default()
    }
}
