//! Gemini `generateContent`: `function_declarations`, `tool_config`, reading `functionCall`
//! parts (whole or streamed) and the `functionResponse` parts that answer them.
//!
//! From Gemini's function-calling guide and the Gemini API reference: calls are `functionCall` parts
//! `{"name", "args"}` with an object `args` and usually no id (newer models may send `id`);
//! `finishReason` is `STOP` even when there are calls; a part may carry a `thoughtSignature`
//! that must be sent back unchanged with that part; answers are `functionResponse` parts
//! `{"name", "response": {...}}` where the reference suggests `output` for a result and
//! `error` for a failure. There is no switch to turn parallel calls off.

use serde_json::{json, Map, Value};

use super::error::At;
use super::{arguments_value, pairs, same_calls, AssistantTurn, ProviderError, ToolChoice};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;
use crate::schema::gemini_parameters;

/// Prefix of the ids this module makes up for calls that came without one. Such ids are
/// not sent back to Gemini, which never issued them.
///
/// ```
/// assert!(tool_core::provider::gemini::synthetic_id(2, "f").starts_with(tool_core::provider::gemini::SYNTHETIC_ID_PREFIX));
/// ```
pub const SYNTHETIC_ID_PREFIX: &str = "gemini_call_";

/// A stable id for the `index`-th call of a turn: the same response always gives the same ids.
///
/// ```
/// assert_eq!(tool_core::provider::gemini::synthetic_id(0, "get_weather"), "gemini_call_0_get_weather");
/// ```
pub fn synthetic_id(index: usize, name: &str) -> String {
    format!("{SYNTHETIC_ID_PREFIX}{index}_{name}")
}

fn has_parameters(def: &ToolDefinition) -> bool {
    def.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
}

/// One function declaration with `parameters` in the OpenAPI subset (omitted for a tool
/// without arguments).
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Says hi.
/// #[tool]
/// fn hi() -> &'static str { "hi" }
/// let d = tool_core::provider::gemini::function_declaration(&tools![hi].definitions()[0]);
/// assert_eq!(d, serde_json::json!({"name": "hi", "description": "Says hi."}));
/// ```
pub fn function_declaration(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    out.insert("description".into(), json!(def.description));
    if has_parameters(def) {
        out.insert(
            "parameters".into(),
            gemini_parameters(&def.input_schema).schema,
        );
    }
    Value::Object(out)
}

/// One function declaration with `parametersJsonSchema` (full JSON Schema, newer models).
///
/// ```
/// # use tool_core::{tool, tools};
/// /// Adds.
/// #[tool]
/// fn add(a: i64) -> i64 { a }
/// let d = tool_core::provider::gemini::function_declaration_json_schema(&tools![add].definitions()[0]);
/// assert_eq!(d["parametersJsonSchema"]["additionalProperties"], false);
/// ```
pub fn function_declaration_json_schema(def: &ToolDefinition) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(def.name));
    out.insert("description".into(), json!(def.description));
    if has_parameters(def) {
        out.insert("parametersJsonSchema".into(), (*def.input_schema).clone());
    }
    Value::Object(out)
}

/// The `tools` field: `[{"function_declarations": [...]}]` with `parameters`.
///
/// ```
/// assert_eq!(tool_core::provider::gemini::tools(&[]), serde_json::json!([{"function_declarations": []}]));
/// ```
pub fn tools(defs: &[ToolDefinition]) -> Value {
    let decls: Vec<Value> = defs.iter().map(function_declaration).collect();
    json!([{"function_declarations": decls}])
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

/// `tool_config`: `function_calling_config.mode` `AUTO`, `ANY` or `NONE`; one named tool is
/// `ANY` with `allowed_function_names`.
///
/// ```
/// use tool_core::provider::{gemini, ToolChoice};
/// assert_eq!(gemini::tool_config(&ToolChoice::tool("f")),
///            serde_json::json!({"function_calling_config": {"mode": "ANY", "allowed_function_names": ["f"]}}));
/// ```
pub fn tool_config(choice: &ToolChoice) -> Value {
    let config = match choice {
        ToolChoice::Auto => json!({"mode": "AUTO"}),
        ToolChoice::Required => json!({"mode": "ANY"}),
        ToolChoice::None => json!({"mode": "NONE"}),
        ToolChoice::Tool(name) => json!({"mode": "ANY", "allowed_function_names": [name]}),
    };
    json!({"function_calling_config": config})
}

/// Reads the first candidate of a response: text parts (not thought summaries), and
/// `functionCall` parts with their `thoughtSignature`s; ids are synthesized when absent. All
/// parts, in their order and with every signature, are kept unchanged in
/// [`AssistantTurn::native`] for the history.
///
/// ```
/// let response = serde_json::json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Beijing"}}},
///     {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}]}}]});
/// let turn = tool_core::provider::gemini::read_response(&response).unwrap();
/// assert_eq!(turn.calls[1].id, "gemini_call_1_get_weather");
/// assert_eq!(turn.calls[1].arguments, r#"{"city":"Tokyo"}"#);
/// assert_eq!(turn.native.len(), 2);
/// ```
pub fn read_response(response: &Value) -> Result<AssistantTurn, ProviderError> {
    let mut stream = GeminiStream::new();
    stream.push(response)?;
    stream.finish()
}

/// Collects streamed `generateContent` chunks. Gemini streams whole parts (a `functionCall`
/// is never split), so a call is complete when its part arrives; the turn is complete when a
/// chunk carries a `finishReason`. Text is streamed as many small text parts: a text part
/// that opens a chunk joins the text part that closed the previous chunk (same `thought`
/// flag, no signature yet, a signature arriving with it moves onto the joined part), so
/// [`AssistantTurn::native`] holds the parts as a whole response would, not one per chunk.
///
/// ```
/// use serde_json::json;
/// let mut s = tool_core::provider::gemini::GeminiStream::new();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}]})).unwrap();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "check. "}]}}]})).unwrap();
/// s.push(&json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "sig"}]}, "finishReason": "STOP"}]})).unwrap();
/// let turn = s.finish().unwrap();
/// assert_eq!(turn.thought_signatures, [Some("sig".to_string())]);
/// assert_eq!(turn.native[0], json!({"text": "Let me check. "}));
/// ```
#[derive(Debug, Default)]
pub struct GeminiStream {
    parts: Vec<Value>,
    stop_reason: Option<String>,
}

impl GeminiStream {
    /// An empty assembler.
    ///
    /// ```
    /// assert!(tool_core::provider::gemini::GeminiStream::new().finish().is_err());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one chunk (a whole `GenerateContentResponse`).
    ///
    /// ```
    /// let mut s = tool_core::provider::gemini::GeminiStream::new();
    /// assert!(s.push(&serde_json::json!({"usageMetadata": {}})).is_ok());
    /// assert!(s.push(&serde_json::json!({"candidates": "x"})).is_err());
    /// ```
    pub fn push(&mut self, chunk: &Value) -> Result<(), ProviderError> {
        let root = At::root(chunk);
        let Some(candidates) = root.opt("candidates") else {
            return Ok(());
        };
        let Some(candidate) = candidates.array()?.into_iter().next() else {
            return Ok(());
        };
        let reason = candidate
            .opt("finishReason")
            .map(|r| r.str().map(str::to_owned))
            .transpose()?;
        let Some(parts) = candidate.opt("content").and_then(|c| c.opt("parts")) else {
            self.stop_reason = reason.or(self.stop_reason.take());
            return Ok(());
        };
        let parts = parts.array()?;
        // Check the chunk's parts before keeping any, so a bad chunk leaves the stream as it was.
        read_parts(parts.iter().map(|p| p.value), &mut Parsed::default())?;
        for (i, part) in parts.into_iter().enumerate() {
            if carries_nothing(part.value) {
                continue;
            }
            if i == 0 {
                if let Some(last) = self.parts.last_mut() {
                    if join_text(last, part.value) {
                        continue;
                    }
                }
            }
            self.parts.push(part.value.clone());
        }
        self.stop_reason = reason.or(self.stop_reason.take());
        Ok(())
    }

    /// The assembled turn; fails when no chunk carried a `finishReason`.
    ///
    /// ```
    /// let mut s = tool_core::provider::gemini::GeminiStream::new();
    /// s.push(&serde_json::json!({"candidates": [{"finishReason": "STOP"}]})).unwrap();
    /// assert_eq!(s.finish().unwrap().stop_reason.as_deref(), Some("STOP"));
    /// ```
    pub fn finish(self) -> Result<AssistantTurn, ProviderError> {
        let mut parsed = Parsed::default();
        read_parts(self.parts.iter(), &mut parsed)?;
        if self.stop_reason.is_none() {
            return Err(ProviderError::new(
                "candidates[0].finishReason",
                format!(
                    "missing: the response is incomplete; {} call(s) not dispatched",
                    parsed.calls.len()
                ),
            ));
        }
        Ok(AssistantTurn {
            text: parsed.text,
            calls: parsed.calls,
            stop_reason: self.stop_reason,
            thought_signatures: parsed.signatures,
            native: self.parts,
            ..AssistantTurn::default()
        })
    }
}

/// What [`read_parts`] finds in a list of parts.
#[derive(Default)]
struct Parsed {
    text: String,
    calls: Vec<ToolCall>,
    signatures: Vec<Option<String>>,
    /// Per call: whether Gemini gave its id (else it was synthesized).
    issued_ids: Vec<bool>,
}

fn read_parts<'a>(
    parts: impl Iterator<Item = &'a Value>,
    out: &mut Parsed,
) -> Result<(), ProviderError> {
    for (i, value) in parts.enumerate() {
        let part = At {
            value,
            path: format!("parts[{i}]"),
        };
        let thought = part
            .opt("thought")
            .is_some_and(|t| t.value == &Value::Bool(true));
        if let Some(text) = part.opt("text") {
            let text = text.str()?;
            if !thought {
                out.text.push_str(text);
            }
        }
        let signature = part
            .opt("thoughtSignature")
            .map(|s| s.str().map(str::to_owned))
            .transpose()?;
        if let Some(call) = part.opt("functionCall") {
            let name = call.get("name")?.str()?.to_owned();
            let arguments = match call.opt("args") {
                Some(args) if args.value.is_object() => args.value.to_string(),
                Some(args) => return Err(args.expected("an object")),
                None => "{}".to_string(),
            };
            let id = match call.opt("id") {
                Some(id) => id.str()?.to_owned(),
                None => synthetic_id(out.calls.len(), &name),
            };
            out.issued_ids.push(call.opt("id").is_some());
            out.calls.push(ToolCall {
                id,
                name,
                arguments,
            });
            out.signatures.push(signature);
        }
    }
    Ok(())
}

/// Whether a part is an empty text part without a signature, as Gemini 3 closes a stream
/// (`{"text": ""}` with the `finishReason`). It says nothing, and sent back in the history
/// it can fail the next request ("Unable to submit request because it has an empty text
/// parameter"), so the assembler does not keep it. An empty text part that carries a
/// `thoughtSignature` is kept: the signature must go back.
fn carries_nothing(part: &Value) -> bool {
    part.as_object().is_some_and(|map| {
        map.get("text").and_then(Value::as_str) == Some("")
            && map.keys().all(|k| matches!(k.as_str(), "text" | "thought"))
    })
}

/// Joins a streamed text part onto the previous one when both are plain text parts of the
/// same kind (thought or not) and the previous one has no signature yet; returns whether it
/// did.
fn join_text(last: &mut Value, next: &Value) -> bool {
    fn plain_text(part: &Value) -> Option<&serde_json::Map<String, Value>> {
        let map = part.as_object()?;
        map.get("text")?.as_str()?;
        map.keys()
            .all(|k| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
            .then_some(map)
    }
    let (Some(a), Some(b)) = (plain_text(last), plain_text(next)) else {
        return false;
    };
    if a.get("thought") != b.get("thought") || a.contains_key("thoughtSignature") {
        return false;
    }
    let Value::Object(last) = last else {
        return false;
    };
    for (key, value) in b {
        match (key.as_str(), last.get_mut(key), value) {
            ("text", Some(Value::String(text)), Value::String(more)) => text.push_str(more),
            ("thought", ..) => {}
            _ => {
                last.insert(key.clone(), value.clone());
            }
        }
    }
    true
}

/// The `model` content for the history. A turn read from Gemini sends its parts back exactly
/// as they came ([`AssistantTurn::native`]): mixed text and `functionCall` parts in their
/// order, thought parts, every `thoughtSignature` on the part that carried it, and the ids
/// Gemini gave. A turn built by hand, or whose `text` or `calls` no longer match those
/// parts, is written as the text part, then each `functionCall` part with its
/// `thoughtSignature` and its id unless the id was made up here ([`SYNTHETIC_ID_PREFIX`]).
///
/// ```
/// use tool_core::{provider::{gemini, AssistantTurn}, ToolCall};
/// let turn = AssistantTurn::new("", vec![ToolCall::new("gemini_call_0_f", "f", "{}")])
///     .with_thought_signatures(vec![Some("s".into())]);
/// let c = gemini::model_content(&turn);
/// assert_eq!(c["parts"][0], serde_json::json!({"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s"}));
///
/// let response = serde_json::json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
///     {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s"},
///     {"text": "Meanwhile, "}, {"functionCall": {"name": "g", "args": {}}}]}}]});
/// let turn = gemini::read_response(&response).unwrap();
/// assert_eq!(gemini::model_content(&turn), response["candidates"][0]["content"]);
/// ```
pub fn model_content(turn: &AssistantTurn) -> Value {
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

/// [`function_responses`] for a turn read from Gemini: each `functionResponse` carries the
/// call's id exactly when Gemini gave one (read from [`AssistantTurn::native`]), even an id
/// that happens to start with [`SYNTHETIC_ID_PREFIX`]. Without native parts it falls back to
/// the prefix rule of [`function_responses`].
///
/// ```
/// use tool_core::{provider::gemini, ToolResponse};
/// let response = serde_json::json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
///     {"functionCall": {"id": "gemini_call_9", "name": "f", "args": {}}}]}}]});
/// let turn = gemini::read_response(&response).unwrap();
/// let c = gemini::function_responses_for(&turn, &[ToolResponse::success("ok")]);
/// assert_eq!(c["parts"][0]["functionResponse"]["id"], "gemini_call_9");
/// ```
pub fn function_responses_for(turn: &AssistantTurn, responses: &[ToolResponse]) -> Value {
    let issued = native_reading(turn).map(|p| p.issued_ids);
    let send_id = |i: usize, call: &ToolCall| match &issued {
        Some(issued) => issued.get(i).copied().unwrap_or(false),
        None => !call.id.starts_with(SYNTHETIC_ID_PREFIX),
    };
    responses_content(&turn.calls, responses, send_id)
}

/// The `user` content answering a turn: one `functionResponse` part per call, in call order,
/// with `{"output": text}` or, for an `ERROR`, `{"error": text}`. A call's id is sent unless
/// it starts with [`SYNTHETIC_ID_PREFIX`]; for a turn read from Gemini prefer
/// [`function_responses_for`], which knows which ids Gemini gave.
///
/// ```
/// use tool_core::{provider::gemini, ToolCall, ToolErrorCode, ToolResponse};
/// let c = gemini::function_responses(&[ToolCall::new("gemini_call_0_f", "f", "{}")], &[ToolResponse::error(ToolErrorCode::NotFound, "no")]);
/// assert_eq!(c["parts"][0]["functionResponse"]["response"]["error"], "Error [NOT_FOUND]: no");
/// ```
pub fn function_responses(calls: &[ToolCall], responses: &[ToolResponse]) -> Value {
    responses_content(calls, responses, |_, call| {
        !call.id.starts_with(SYNTHETIC_ID_PREFIX)
    })
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
            body.insert("response".into(), json!({ key: response.model_text() }));
            json!({"functionResponse": body})
        })
        .collect();
    json!({"role": "user", "parts": parts})
}
