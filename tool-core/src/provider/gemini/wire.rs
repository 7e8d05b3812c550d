//! The `generateContent` shapes: function declarations, `toolConfig`, parts, the history
//! entries.

use serde_json::{json, Map, Value};

use super::schema::parameters_schema;
use super::stream::{read_parts, GeminiStream, Parsed, SYNTHETIC_ID_PREFIX};
use super::Gemini;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::provider::{
    arguments_value, pairs, same_calls, AllowedMode, Api, Assembler, AssistantTurn, ChatApi,
    ProviderError, Sealed, ToolChoice,
};
use crate::response::ToolResponse;

fn has_parameters(def: &ToolDefinition) -> bool {
    def.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
}

/// One function declaration with `parameters` in the OpenAPI subset (omitted for a tool
/// without arguments).
fn function_declaration(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    out.insert("description".into(), json!(def.description));
    if has_parameters(def) {
        out.insert(
            "parameters".into(),
            parameters_schema(&def.input_schema).schema,
        );
    }
    Value::Object(out)
}

/// One function declaration with `parametersJsonSchema` (full JSON Schema, newer models).
fn function_declaration_json_schema(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    out.insert("description".into(), json!(def.description));
    if has_parameters(def) {
        out.insert("parametersJsonSchema".into(), (*def.input_schema).clone());
    }
    Value::Object(out)
}

/// The `tools` field with `parametersJsonSchema` declarations.
///
/// ```
/// assert_eq!(tool_core::provider::gemini::tools_json_schema(&[])[0]["function_declarations"], serde_json::json!([]));
/// ```
pub fn tools_json_schema(defs: &[ToolDefinition]) -> Value {
    let decls: Vec<Value> = defs.iter().map(function_declaration_json_schema).collect();
    json!([{"function_declarations": decls}])
}

/// The native parts' reading, when they still agree with the turn's text and calls.
fn native_reading(turn: &AssistantTurn) -> Option<Parsed> {
    if turn.native.is_empty() {
        return None;
    }
    let mut parsed = Parsed::default();
    read_parts(turn.native.iter(), &mut parsed).ok()?;
    (parsed.text == turn.text && same_calls(&parsed.calls, &turn.calls)).then_some(parsed)
}

fn native_agrees(turn: &AssistantTurn) -> bool {
    native_reading(turn).is_some()
}

/// [`ChatApi::results_entry`] for a turn read from Gemini: each `functionResponse` carries the
/// call's id exactly when Gemini gave one (read from [`AssistantTurn::native`]), even an id
/// that happens to start with this module's prefix. Without native parts it falls back to
/// the rule of [`ChatApi::results_entry`]: ids Gemini did not give are not sent.
///
/// ```
/// use tool_core::provider::{gemini, ChatApi, Gemini};
/// use tool_core::ToolResponse;
/// let response = serde_json::json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
///     {"functionCall": {"id": "gemini_call_9", "name": "f", "args": {}}}]}}]});
/// let turn = Gemini::read_response(&response).unwrap();
/// let c = gemini::results_entry_for(&turn, &[ToolResponse::success("ok")]);
/// assert_eq!(c["parts"][0]["functionResponse"]["id"], "gemini_call_9");
/// ```
pub fn results_entry_for(turn: &AssistantTurn, responses: &[ToolResponse]) -> Value {
    let issued = native_reading(turn).map(|p| p.issued_ids);
    let send_id = |i: usize, call: &ToolCall| match &issued {
        Some(issued) => issued.get(i).copied().unwrap_or(false),
        None => !call.id.starts_with(SYNTHETIC_ID_PREFIX),
    };
    responses_content(&turn.calls, responses, send_id)
}

fn responses_content(
    calls: &[ToolCall],
    responses: &[ToolResponse],
    send_id: impl Fn(usize, &ToolCall) -> bool,
) -> Value {
    let parts: Vec<Value> = pairs(calls, responses)
        .enumerate()
        .map(|(i, (call, response))| {
            let key = if response.is_error() {
                "error"
            } else {
                "output"
            };
            let mut body = Map::new();
            if send_id(i, call) {
                body.insert("id".into(), json!(call.id));
            }
            body.insert("name".into(), json!(call.name));
            if response.attachments.is_empty() {
                body.insert("response".into(), json!({ key: response.model_text() }));
            } else {
                // Images, PDFs and text as parts; anything else named in the text.
                let (parts, notes) = super::attachments::parts(&response.attachments);
                let mut text = response.model_text_without_attachments().into_owned();
                for note in notes {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&note);
                }
                body.insert("response".into(), json!({ key: text }));
                if !parts.is_empty() {
                    body.insert("parts".into(), Value::Array(parts));
                }
            }
            json!({"functionResponse": body})
        })
        .collect();
    json!({"role": "user", "parts": parts})
}

impl Sealed for Gemini {}

impl ChatApi for Gemini {
    const API: Api = Api::Gemini;
    type Stream = GeminiStream;

    /// `[{"function_declarations": [...]}]` with `parameters` (see [`tools_json_schema`] for
    /// `parametersJsonSchema`).
    fn tools(defs: &[ToolDefinition]) -> Value {
        let decls: Vec<Value> = defs
            .iter()
            .filter(|d| Self::API.offers(d))
            .map(function_declaration)
            .collect();
        json!([{"function_declarations": decls}])
    }

    /// `toolConfig`: `function_calling_config.mode` `AUTO`, `ANY` or `NONE`; one named tool
    /// is `ANY` with `allowed_function_names`, several allowed ones `ANY` (a call required)
    /// or `VALIDATED` with `allowed_function_names`. Gemini has no switch for parallel calls.
    fn tool_choice(choice: &ToolChoice, _parallel: bool) -> Value {
        let config = match choice {
            ToolChoice::Auto => json!({"mode": "AUTO"}),
            ToolChoice::Required => json!({"mode": "ANY"}),
            ToolChoice::None => json!({"mode": "NONE"}),
            ToolChoice::Tool(name) => json!({"mode": "ANY", "allowed_function_names": [name]}),
            // `ANY` forces a call; `VALIDATED` lets the model answer with text or call one
            // of the allowed functions.
            ToolChoice::Allowed { tools, mode } => json!({
                "mode": if *mode == AllowedMode::Required { "ANY" } else { "VALIDATED" },
                "allowed_function_names": tools,
            }),
        };
        json!({"function_calling_config": config})
    }

    /// `tools` and `toolConfig`.
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
        out.insert("toolConfig".into(), Self::tool_choice(choice, parallel));
        out
    }

    /// The first candidate: text parts (not thought summaries), and `functionCall` parts
    /// with their `thoughtSignature`s; ids are synthesized when absent
    /// (`gemini_call_<n>_<name>`). All parts, in their order and with every signature, are
    /// kept unchanged in [`AssistantTurn::native`].
    fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
        let mut stream = GeminiStream::new();
        stream.push(response)?;
        stream.finish()
    }

    /// The `model` content. A turn read from Gemini sends its parts back exactly as they
    /// came: mixed text and `functionCall` parts in their order, thought parts, every
    /// `thoughtSignature` on the part that carried it, and the ids Gemini gave. A turn built
    /// by hand, or whose `text` or `calls` no longer match those parts, is written as the
    /// text part, then each `functionCall` part with its `thoughtSignature` and its id unless
    /// the id was made up here.
    fn history_entry(turn: &AssistantTurn) -> Value {
        if native_agrees(turn) {
            return json!({"role": "model", "parts": turn.native});
        }
        let mut parts = Vec::new();
        if !turn.text.is_empty() {
            parts.push(json!({"text": turn.text}));
        }
        for (i, call) in turn.calls.iter().enumerate() {
            let mut function_call = Map::new();
            if !call.id.starts_with(SYNTHETIC_ID_PREFIX) {
                function_call.insert("id".into(), json!(call.id));
            }
            function_call.insert("name".into(), json!(call.name));
            function_call.insert("args".into(), arguments_value(&call.arguments));
            let mut part = Map::new();
            part.insert("functionCall".into(), Value::Object(function_call));
            if let Some(Some(signature)) = turn.thought_signatures.get(i) {
                part.insert("thoughtSignature".into(), json!(signature));
            }
            parts.push(Value::Object(part));
        }
        json!({"role": "model", "parts": parts})
    }

    /// One `user` content of `functionResponse` parts, in call order, with
    /// `{"output": text}` or, for an `ERROR`, `{"error": text}`; a response's images, PDFs
    /// and plain-text files go in the function response's own `parts` (`inlineData` or
    /// `fileData`), other attachments are named in the text. A call's id is sent unless
    /// it was made up here; for a turn read from Gemini prefer [`results_entry_for`], which
    /// knows which ids Gemini gave.
    fn results_entry(calls: &[ToolCall], responses: &[ToolResponse]) -> Vec<Value> {
        vec![responses_content(calls, responses, |_, call| {
            !call.id.starts_with(SYNTHETIC_ID_PREFIX)
        })]
    }

    fn stream() -> GeminiStream {
        GeminiStream::default()
    }
}
