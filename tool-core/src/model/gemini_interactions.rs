//! [`GeminiInteractions`]: Google's Interactions API.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::http::{self, Decoder};
use super::http::{
    calls_and_responses, count, endpoint_methods, finished_turn, native_of, push_reasoning,
    push_turn_items, reasoning_methods,
};
use super::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream, ModelTurn,
    NativeContent, Reasoning, ReasoningEffort, Usage,
};
use crate::http::{provider_message, Endpoint, Transport};
use crate::provider::gemini_interactions::reasoning_of;
use crate::provider::{
    Api, Assembler, ChatApi, GeminiInteractions as Wire, GeminiInteractionsStream,
};

/// The tag of this adapter's [`NativeContent`].
const PROVIDER: Api = Api::GeminiInteractions;

/// A Gemini model behind Google's Interactions API (`POST {base}/interactions`, the base
/// ending in `/v1`), key in `x-goog-api-key`.
///
/// Requests carry `model`, `system_instruction`, `input` (a list of steps: `user_input`, the
/// model's steps as the API sent them, one `function_result` per call in call order),
/// `tools` (function tools with the tool's JSON Schema as `parameters`) on every request,
/// and `generation_config` (`tool_choice`, and `thinking_level` and `thinking_summaries`
/// with [`GeminiInteractions::with_reasoning`]). Typed output is sent as `response_format`.
/// There is no switch for parallel calls.
///
/// History is stateful by default: the API stores each interaction, so a request names the
/// latest one as `previous_interaction_id` and sends only what came after it (the tool
/// results). With [`GeminiInteractions::with_store`]`(false)` it is stateless: `store:
/// false`, no previous id, and the whole history in `input` (thought steps with their
/// signatures unchanged).
///
/// Streamed, text and thought summaries are reported as their `step.delta`s arrive, a
/// call's arguments as their `arguments_delta` pieces arrive, and each call at its
/// `step.stop`.
///
/// ```
/// use tool_core::model::GeminiInteractions;
/// let model = GeminiInteractions::new("gemini-3-flash-preview").with_api_key("test-key");
/// assert_eq!(model.request_url(), "https://generativelanguage.googleapis.com/v1/interactions");
/// ```
#[derive(Debug)]
pub struct GeminiInteractions {
    transport: Transport,
    model: String,
    reasoning: Option<Reasoning>,
    /// Whether the API keeps the interactions (`previous_interaction_id` chains them).
    store: bool,
}

impl GeminiInteractions {
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://generativelanguage.googleapis.com/v1";

    /// A client for `model` with no key yet, stateful.
    ///
    /// ```
    /// assert_eq!(tool_core::model::GeminiInteractions::new("gemini-3-flash-preview").model(), "gemini-3-flash-preview");
    /// ```
    pub fn new(model: impl Into<String>) -> Self {
        GeminiInteractions {
            transport: Transport::new(Endpoint::new(Self::DEFAULT_BASE_URL)),
            model: model.into(),
            reasoning: None,
            store: true,
        }
    }

    /// Sends `x-goog-api-key: <key>`.
    ///
    /// ```
    /// let m = tool_core::model::GeminiInteractions::new("gemini-3-flash-preview").with_api_key("k");
    /// assert!(m.endpoint().headers.contains(&("x-goog-api-key".to_string(), "k".to_string())));
    /// ```
    pub fn with_api_key(self, key: impl Into<String>) -> Self {
        self.with_endpoint(|e| e.with_header("x-goog-api-key", key))
    }

    /// The model name sent in every request.
    ///
    /// ```
    /// assert_eq!(tool_core::model::GeminiInteractions::new("gemini-2.5-flash").model(), "gemini-2.5-flash");
    /// ```
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Whether the API stores the interactions, and so which history is sent. On (the
    /// default): stateful, each request names the latest interaction of this API in the
    /// conversation as `previous_interaction_id` and sends only the messages after it.
    /// Off: stateless, `store: false` and the whole conversation in every request, for zero
    /// data retention or to keep conversations on your side only.
    ///
    /// ```
    /// use tool_core::model::{GeminiInteractions, Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("hi")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none());
    /// let body = GeminiInteractions::new("gemini-3-flash-preview").with_store(false).request_body(&request);
    /// assert_eq!(body["store"], false);
    /// assert_eq!(body["input"][0], serde_json::json!({"type": "user_input", "content": [{"type": "text", "text": "hi"}]}));
    /// let stored = GeminiInteractions::new("gemini-3-flash-preview").request_body(&request);
    /// assert!(stored.get("store").is_none());
    /// ```
    pub fn with_store(mut self, store: bool) -> Self {
        self.store = store;
        self
    }

    endpoint_methods!(GeminiInteractions, "\"gemini-3-flash-preview\"");
    reasoning_methods!(GeminiInteractions, "\"gemini-3-flash-preview\"");

    /// The URL requests go to.
    ///
    /// ```
    /// let m = tool_core::model::GeminiInteractions::new("gemini-3-flash-preview")
    ///     .with_endpoint(|e| e.with_base_url("http://127.0.0.1:9/v1"));
    /// assert_eq!(m.request_url(), "http://127.0.0.1:9/v1/interactions");
    /// ```
    pub fn request_url(&self) -> String {
        self.transport.endpoint.url("interactions")
    }

    /// The request body for `request` (what [`Model::stream`] sends).
    ///
    /// ```
    /// use tool_core::model::{GeminiInteractions, Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("hi")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief.");
    /// let body = GeminiInteractions::new("gemini-3-flash-preview").request_body(&request);
    /// assert_eq!(body["model"], "gemini-3-flash-preview");
    /// assert_eq!(body["system_instruction"], "Be brief.");
    /// assert_eq!(body["stream"], true);
    /// ```
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Value {
        let mut messages = request.messages;
        let mut previous = None;
        if self.store {
            // The latest interaction of this API: the API holds it and all before it.
            let latest = messages
                .iter()
                .enumerate()
                .rev()
                .find_map(|(i, m)| match m {
                    Message::Assistant(turn) if native_of(turn, PROVIDER).is_some() => {
                        turn.response_id.as_deref().map(|id| (i, id))
                    }
                    _ => None,
                });
            if let Some((i, id)) = latest {
                previous = Some(id);
                messages = messages.get(i + 1..).unwrap_or_default();
            }
        }
        let mut input = Vec::new();
        for message in messages {
            match message {
                Message::User { content } => input.push(json!({"type": "user_input",
                    "content": [{"type": "text", "text": content}]})),
                Message::Assistant(turn) => {
                    push_turn_items(&mut input, turn, PROVIDER, Wire::history_entry)
                }
                Message::Tool { results } => {
                    let (calls, responses) = calls_and_responses(results);
                    input.extend(Wire::results_entry(&calls, &responses));
                }
            }
        }
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        if let Some(instructions) = request.instructions {
            body.insert("system_instruction".into(), json!(instructions));
        }
        body.insert("input".into(), Value::Array(input));
        if let Some(id) = previous {
            body.insert("previous_interaction_id".into(), json!(id));
        }
        let mut config = Map::new();
        if !request.tools.is_empty() {
            let fields = Wire::tool_fields(
                request.tools.definitions(),
                request.tool_choice,
                request.parallel_tool_calls,
            );
            for (key, value) in fields {
                match (key.as_str(), value) {
                    ("generation_config", Value::Object(fields)) => config.extend(fields),
                    (_, value) => {
                        body.insert(key, value);
                    }
                }
            }
        }
        if let Some(reasoning) = request.reasoning.or(self.reasoning.as_ref()) {
            config.insert("thinking_level".into(), json!(thinking_level(reasoning)));
            let summaries = if reasoning.include_text {
                "auto"
            } else {
                "none"
            };
            config.insert("thinking_summaries".into(), json!(summaries));
        }
        if !config.is_empty() {
            body.insert("generation_config".into(), Value::Object(config));
        }
        if let Some(output) = request.output {
            body.insert(
                "response_format".into(),
                super::output::wire::gemini_interactions(output),
            );
        }
        if self.transport.endpoint.stream {
            body.insert("stream".into(), Value::Bool(true));
        }
        if !self.store {
            body.insert("store".into(), Value::Bool(false));
        }
        self.transport.endpoint.finish_body(body)
    }
}

/// The API's `thinking_level` for a reasoning setting.
fn thinking_level(reasoning: &Reasoning) -> &'static str {
    match reasoning.effort_level() {
        ReasoningEffort::Minimal => "minimal",
        ReasoningEffort::Low => "low",
        ReasoningEffort::Medium => "medium",
        _ => "high",
    }
}

impl Model for GeminiInteractions {
    fn provider_name(&self) -> &str {
        "gcp.gemini"
    }

    fn model_name(&self) -> &str {
        &self.model
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.request_body(&request);
        http::run(
            &self.transport,
            self.request_url(),
            &body,
            InteractionsDecoder::default(),
        )
    }

    /// `response_format` with a JSON Schema, with or without tools.
    fn native_output(&self, _with_tools: bool) -> bool {
        true
    }
}

/// Reads streamed interaction events.
#[derive(Default)]
struct InteractionsDecoder {
    assembler: GeminiInteractionsStream,
    usage: Option<Usage>,
    reasoning: String,
    /// The step index of the last thought summary piece, to separate thoughts.
    thought_at: Option<u64>,
    /// Step index -> call number, for the steps that are calls.
    calls: Vec<(u64, usize)>,
    /// The interaction ended `incomplete` (the output limit).
    at_limit: bool,
}

/// The interaction's own error message, or a sentence saying it failed.
fn failed(interaction: &Value) -> ModelError {
    let message = provider_message(interaction)
        .or_else(|| {
            let errors = interaction.get("errors")?.as_array()?;
            errors
                .iter()
                .find_map(|e| e.get("message")?.as_str().map(str::to_owned))
        })
        .unwrap_or_else(|| "the interaction failed".into());
    ModelError::new(ModelErrorKind::Server, message)
}

impl Decoder for InteractionsDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        // The SDK stops at a `[DONE]` line; the API need not send one.
        if data.trim() == "[DONE]" {
            return Ok(());
        }
        let mut event = http::parse_data(name, data)?;
        if event.get("event_type").is_none() && !name.is_empty() {
            if let Some(map) = event.as_object_mut() {
                map.insert("event_type".into(), json!(name));
            }
        }
        let kind = event
            .get("event_type")
            .and_then(Value::as_str)
            .unwrap_or(name);
        match kind {
            "error" => {
                let message = provider_message(&event)
                    .unwrap_or_else(|| "the interaction stream reported an error".into());
                return Err(ModelError::new(ModelErrorKind::Server, message));
            }
            "interaction.completed" => {
                let interaction = event.get("interaction").unwrap_or(&Value::Null);
                match interaction.get("status").and_then(Value::as_str) {
                    Some("failed") => return Err(failed(interaction)),
                    Some("incomplete") => self.at_limit = true,
                    _ => {}
                }
                if let Some(usage) = interaction.get("usage").filter(|u| u.is_object()) {
                    self.usage = Some(read_usage(usage));
                }
            }
            _ => {}
        }
        self.assembler.push(&event).map_err(http::malformed)?;
        let index = event.get("index").and_then(Value::as_u64);
        match (kind, index) {
            ("step.start", Some(index)) => {
                let step = &event["step"];
                if step["type"] == "function_call" {
                    let number = self.calls.len();
                    self.calls.push((index, number));
                    let field = |key: &str| step[key].as_str().unwrap_or_default().to_owned();
                    out.push_back(ModelEvent::CallStarted {
                        index: number,
                        id: field("id"),
                        name: field("name"),
                    });
                }
            }
            ("step.delta", Some(index)) => {
                let delta = &event["delta"];
                match delta["type"].as_str() {
                    Some("text") => {
                        let text = delta["text"].as_str().unwrap_or_default();
                        if !text.is_empty() {
                            out.push_back(ModelEvent::TextDelta(text.to_owned()));
                        }
                    }
                    Some("thought_summary") => {
                        let text = delta["content"]["text"].as_str().unwrap_or_default();
                        if self.thought_at.is_some_and(|at| at != index) {
                            push_reasoning(&mut self.reasoning, "\n\n", out);
                        }
                        self.thought_at = Some(index);
                        push_reasoning(&mut self.reasoning, text, out);
                    }
                    Some("arguments_delta") => {
                        let piece = delta["arguments"].as_str().unwrap_or_default();
                        let call = self.calls.iter().find(|(at, _)| *at == index);
                        if let (Some(&(_, number)), false) = (call, piece.is_empty()) {
                            out.push_back(ModelEvent::ArgumentsDelta {
                                index: number,
                                delta: piece.to_owned(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            ("step.stop", Some(_)) => {
                self.assembler
                    .take_ready(|index, call| out.push_back(ModelEvent::CallReady { index, call }))
                    .map_err(http::malformed)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        let assembler = std::mem::take(&mut self.assembler);
        let handed = assembler.handed();
        let turn = assembler.finish().map_err(http::incomplete)?;
        for (index, call) in turn.calls.iter().enumerate().skip(handed) {
            out.push_back(ModelEvent::CallReady {
                index,
                call: call.clone(),
            });
        }
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, self.usage, native);
        turn.reasoning = std::mem::take(&mut self.reasoning);
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        if body.get("status").and_then(Value::as_str) == Some("failed") {
            return Err(failed(body));
        }
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body.get("usage").filter(|u| u.is_object()).map(read_usage);
        let reasoning = reasoning_of(&turn.native);
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, usage, native);
        turn.reasoning = reasoning;
        Ok(turn)
    }

    fn stopped_at_limit(&self) -> bool {
        self.at_limit
    }
}

/// The interaction's totals: thought tokens count as output, as on `generateContent`.
fn read_usage(usage: &Value) -> Usage {
    let thoughts = count(usage, &["total_thought_tokens"]);
    Usage {
        input_tokens: count(usage, &["total_input_tokens"]),
        output_tokens: count(usage, &["total_output_tokens"]) + thoughts,
        cached_input_tokens: count(usage, &["total_cached_tokens"]),
        reasoning_tokens: thoughts,
    }
}
