//! [`OpenAiResponses`]: the OpenAI Responses API.

use std::collections::{HashMap, VecDeque};

use serde_json::{json, Map, Value};

use super::http::{self, Decoder};
use super::http::{
    calls_and_responses, count, endpoint_methods, finished_turn, push_reasoning, push_turn_items,
    reasoning_methods, unknown_tool_search,
};
use super::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream, ModelTurn,
    NativeContent, Reasoning, Usage,
};
use crate::http::{provider_message, Endpoint, Transport};
use crate::provider::openai_responses::{has_tool_search, in_namespace, tools_with_search};
use crate::provider::{Api, Assembler, ChatApi, OpenAiResponses as Wire, OpenAiResponsesStream};

/// The tag of this adapter's [`NativeContent`].
const PROVIDER: Api = Api::OpenAiResponses;

/// What `include` names to get reasoning items' encrypted content.
const ENCRYPTED_REASONING: &str = "reasoning.encrypted_content";

/// A model behind the Responses API (`POST {base}/responses`), stateless: every request
/// carries the whole history as `input` items (the assistant's output items as the API sent
/// them, then one `function_call_output` per call, in call order), with `instructions`,
/// `tools`, `tool_choice` and `parallel_tool_calls: false` when parallel calls are off.
/// Streamed, text deltas are reported as they arrive and each call at its
/// `response.output_item.done`.
///
/// Reasoning ([`OpenAiResponses::with_reasoning`]) is sent as `reasoning: {effort, summary:
/// "auto"}`; the summary streams as reasoning deltas. The reasoning items go back in later
/// requests exactly as they came; with `store: false` ([`OpenAiResponses::with_store`])
/// the request also asks for `include:
/// ["reasoning.encrypted_content"]`, so the items carry the content the API needs back.
///
/// ```
/// use tool_core::model::OpenAiResponses;
/// let model = OpenAiResponses::new("gpt-4.1-mini").with_api_key("sk-test");
/// assert_eq!(model.endpoint().url("responses"), "https://api.openai.com/v1/responses");
/// ```
#[derive(Debug)]
pub struct OpenAiResponses {
    transport: Transport,
    model: String,
    reasoning: Option<Reasoning>,
    /// Whether deferred tools go with `tool_search`; `None`: by model name.
    tool_search: Option<bool>,
    /// `store`; `None`: not sent (the API's default, stored).
    store: Option<bool>,
    /// The model's name did not tell about `tool_search`, and that was reported.
    warned: std::sync::atomic::AtomicBool,
}

impl OpenAiResponses {
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://api.openai.com/v1";

    /// A client for `model` with no key yet.
    ///
    /// ```
    /// assert_eq!(tool_core::model::OpenAiResponses::new("gpt-4.1-mini").model(), "gpt-4.1-mini");
    /// ```
    pub fn new(model: impl Into<String>) -> Self {
        OpenAiResponses {
            transport: Transport::new(Endpoint::new(Self::DEFAULT_BASE_URL)),
            model: model.into(),
            reasoning: None,
            tool_search: None,
            store: None,
            warned: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Sends `Authorization: Bearer <key>`.
    ///
    /// ```
    /// let m = tool_core::model::OpenAiResponses::new("gpt-4.1-mini").with_api_key("k");
    /// assert_eq!(m.endpoint().headers[0].1, "Bearer k");
    /// ```
    pub fn with_api_key(self, key: impl AsRef<str>) -> Self {
        let bearer = format!("Bearer {}", key.as_ref());
        self.with_endpoint(|e| e.with_header("authorization", bearer))
    }

    /// Whether the model searches deferred tools ([`ToolDefinition::defer_loading`]) with
    /// OpenAI's hosted `tool_search`. When on, every offered tool is sent, the deferred ones
    /// with `defer_loading: true`, and `{"type": "tool_search"}` is added to `tools` whenever
    /// one offered tool is deferred; the model's searches come back as `tool_search_call` and
    /// `tool_search_output` items, which later requests send back unchanged. When off,
    /// deferred tools are sent as ordinary tools.
    ///
    /// By default it is read from the model's name: on for GPT-5.4 and later (also behind a
    /// provider prefix, as a fine-tune, with a date: `openai/gpt-5.4`, `gpt-5.4-2026-03-05`),
    /// off for earlier GPT versions, GPT-4o, gpt-oss and the o-series.
    /// [`Model::native_tool_search`] says which applies, so a run uses its own
    /// `search_tools` tool where the model has none. A name that is none of these (a
    /// deployment's or a gateway's own name) is taken as without: the run uses its own
    /// `search_tools`, and the first run with deferred tools reports it once (a `tracing`
    /// warning with the `tracing` feature). This setting wins over the name.
    ///
    /// [`ToolDefinition::defer_loading`]: crate::ToolDefinition::defer_loading
    ///
    /// ```
    /// use tool_core::model::{Model, OpenAiResponses};
    /// assert!(OpenAiResponses::new("gpt-5.4").native_tool_search());
    /// assert!(!OpenAiResponses::new("gpt-4.1-mini").native_tool_search());
    /// assert!(OpenAiResponses::new("my-gateway-model").with_tool_search(true).native_tool_search());
    /// ```
    pub fn with_tool_search(mut self, on: bool) -> Self {
        self.tool_search = Some(on);
        self
    }

    /// Whether OpenAI stores the responses (`store`; the API stores them unless told not
    /// to). This adapter is stateless: every request carries the whole conversation as
    /// `input` and never a `previous_response_id`, so it works the same either way. With
    /// `store: false` (zero data retention, or not to keep conversations on OpenAI's side)
    /// the request also asks for `include: ["reasoning.encrypted_content"]`: a reasoning
    /// item is then sent back with its encrypted content, which the API needs because it
    /// kept nothing. Set through [`Endpoint::with_fields`] instead, `{"store": false}` gets
    /// the same `include`.
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools, OpenAiResponses};
    /// let model = OpenAiResponses::new("gpt-5.1").with_store(false);
    /// let messages = [Message::user("hi")];
    /// let body = model.request_body(&ModelRequest::new(&messages, OfferedTools::none()));
    /// assert_eq!(body["store"], false);
    /// assert_eq!(body["include"], serde_json::json!(["reasoning.encrypted_content"]));
    /// assert!(body.get("previous_response_id").is_none());
    /// let stored = OpenAiResponses::new("gpt-5.1").request_body(&ModelRequest::new(&messages, OfferedTools::none()));
    /// assert!(stored.get("store").is_none() && stored.get("include").is_none());
    /// ```
    pub fn with_store(mut self, store: bool) -> Self {
        self.store = Some(store);
        self
    }

    /// The model name sent in every request.
    ///
    /// ```
    /// let model = tool_core::model::OpenAiResponses::new("gpt-4.1-mini");
    /// assert_eq!(model.model(), "gpt-4.1-mini");
    /// ```
    pub fn model(&self) -> &str {
        &self.model
    }

    endpoint_methods!(OpenAiResponses, "\"gpt-4.1-mini\"");
    reasoning_methods!(OpenAiResponses, "\"o4-mini\"");

    /// The request body for `request` (what [`Model::stream`] sends).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools, OpenAiResponses};
    /// let messages = [Message::user("hi")];
    /// let body = OpenAiResponses::new("gpt-4.1-mini").request_body(&ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief."));
    /// assert_eq!(body["instructions"], "Be brief.");
    /// assert_eq!(body["input"][0], serde_json::json!({"role": "user", "content": "hi"}));
    /// ```
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Value {
        let mut input = Vec::new();
        for message in request.messages {
            match message {
                Message::User { content } => {
                    input.push(json!({"role": "user", "content": content}))
                }
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
            body.insert("instructions".into(), json!(instructions));
        }
        body.insert("input".into(), Value::Array(input));
        if !request.tools.is_empty() {
            // What `tool_fields` writes, with the deferred tools marked and `tool_search`.
            let defs = request.tools.definitions();
            let mut fields =
                Wire::tool_fields(defs, request.tool_choice, request.parallel_tool_calls);
            fields.insert(
                "tools".into(),
                tools_with_search(defs, self.tool_search_on()),
            );
            body.extend(fields);
        }
        if let Some(reasoning) = request.reasoning.or(self.reasoning.as_ref()) {
            let mut fields = Map::new();
            fields.insert("effort".into(), json!(reasoning.effort_level().as_str()));
            if reasoning.include_text {
                fields.insert("summary".into(), json!("auto"));
            }
            body.insert("reasoning".into(), Value::Object(fields));
        }
        if let Some(output) = request.output {
            body.insert("text".into(), super::output::wire::openai_responses(output));
        }
        if self.transport.endpoint.stream {
            body.insert("stream".into(), Value::Bool(true));
        }
        if let Some(store) = self.store {
            body.insert("store".into(), Value::Bool(store));
        }
        let mut body = self.transport.endpoint.finish_body(body);
        // Not stored, a reasoning item can only be sent back with its encrypted content, which
        // the API includes only when asked.
        if body.get("store") == Some(&Value::Bool(false)) {
            if let Some(body) = body.as_object_mut() {
                let include = body
                    .entry("include")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(include) = include {
                    let wanted = json!(ENCRYPTED_REASONING);
                    if !include.contains(&wanted) {
                        include.push(wanted);
                    }
                }
            }
        }
        body
    }

    /// Whether deferred tools go with `tool_search`: the setting, else the model's name.
    fn tool_search_on(&self) -> bool {
        self.tool_search
            .or_else(|| has_tool_search(&self.model))
            .unwrap_or(false)
    }
}

impl Model for OpenAiResponses {
    fn provider_name(&self) -> &str {
        "openai"
    }

    fn model_name(&self) -> &str {
        &self.model
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.request_body(&request);
        let url = self.transport.endpoint.url("responses");
        http::run(&self.transport, url, &body, ResponsesDecoder::default())
    }

    fn native_output(&self, _with_tools: bool) -> bool {
        true
    }

    fn native_tool_search(&self) -> bool {
        if self.tool_search.is_none() && has_tool_search(&self.model).is_none() {
            unknown_tool_search(
                &self.warned,
                "openai",
                &self.model,
                "OpenAiResponses::with_tool_search",
            );
        }
        self.tool_search_on()
    }
}

/// Reads Responses stream events.
#[derive(Default)]
struct ResponsesDecoder {
    assembler: OpenAiResponsesStream,
    /// `output_index` -> call index, for the items that are function calls.
    call_of_item: HashMap<u64, usize>,
    /// `output_index` -> the `namespace` a call's item was added with, for a `done` item
    /// that does not repeat it.
    namespace_of_item: HashMap<u64, String>,
    started: usize,
    ready: usize,
    usage: Option<Usage>,
    reasoning: String,
    /// The `(output_index, summary_index)` of the last reasoning piece, to separate parts.
    reasoning_at: Option<(u64, u64)>,
    /// `response.incomplete` said `max_output_tokens`.
    at_limit: bool,
}

impl Decoder for ResponsesDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        let event = http::parse_data(name, data)?;
        let kind = event.get("type").and_then(Value::as_str).unwrap_or(name);
        match kind {
            "error" => {
                let message = provider_message(&event)
                    .unwrap_or_else(|| "the response stream reported an error".into());
                return Err(ModelError::new(ModelErrorKind::Server, message));
            }
            "response.failed" => {
                let message = event
                    .pointer("/response/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("the response failed while streaming");
                return Err(ModelError::new(ModelErrorKind::Server, message));
            }
            _ => {}
        }
        self.assembler.push(&event).map_err(http::malformed)?;
        let output_index = event.get("output_index").and_then(Value::as_u64);
        let is_call =
            || event.pointer("/item/type").and_then(Value::as_str) == Some("function_call");
        match kind {
            "response.output_text.delta" => {
                if let Some(text) = event.get("delta").and_then(Value::as_str) {
                    if !text.is_empty() {
                        out.push_back(ModelEvent::TextDelta(text.to_owned()));
                    }
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                let at = (
                    output_index.unwrap_or_default(),
                    ["summary_index", "content_index"]
                        .iter()
                        .find_map(|key| event.get(*key).and_then(Value::as_u64))
                        .unwrap_or_default(),
                );
                if self.reasoning_at.is_some_and(|last| last != at) {
                    push_reasoning(&mut self.reasoning, "\n\n", out);
                }
                self.reasoning_at = Some(at);
                let delta = event.get("delta").and_then(Value::as_str).unwrap_or("");
                push_reasoning(&mut self.reasoning, delta, out);
            }
            "response.output_item.added" if is_call() => {
                let field = |key: &str| {
                    event
                        .get("item")
                        .and_then(|i| i.get(key))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                let index = self.started;
                self.started += 1;
                let namespace = event
                    .pointer("/item/namespace")
                    .and_then(Value::as_str)
                    .filter(|ns| !ns.is_empty());
                if let Some(output_index) = output_index {
                    self.call_of_item.insert(output_index, index);
                    if let Some(namespace) = namespace {
                        self.namespace_of_item
                            .insert(output_index, namespace.to_owned());
                    }
                }
                // Named as the finished turn names it (`namespace__tool`), from the start.
                let call = in_namespace(
                    namespace,
                    crate::ToolCall::new(field("call_id"), field("name"), ""),
                );
                out.push_back(ModelEvent::CallStarted {
                    index,
                    id: call.id,
                    name: call.name,
                });
            }
            "response.function_call_arguments.delta" => {
                let call = output_index.and_then(|i| self.call_of_item.get(&i));
                let delta = event
                    .get("delta")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let (Some(&index), false) = (call, delta.is_empty()) {
                    out.push_back(ModelEvent::ArgumentsDelta {
                        index,
                        delta: delta.to_owned(),
                    });
                }
            }
            "response.output_item.done" if is_call() => {
                let item = event.get("item");
                let field = |key: &str| {
                    item.and_then(|i| i.get(key))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                };
                let mut call =
                    crate::ToolCall::new(field("call_id"), field("name"), field("arguments"));
                call.caller = item.and_then(crate::provider::openai_responses::caller_of);
                // The same name the finished turn gives the call (`read_items`), so a call
                // that starts early is the call the turn runs, and runs once.
                let added = output_index.and_then(|i| self.namespace_of_item.get(&i));
                let namespace = item
                    .and_then(|i| i.get("namespace"))
                    .and_then(Value::as_str)
                    .filter(|ns| !ns.is_empty())
                    .or(added.map(String::as_str));
                let call = in_namespace(namespace, call);
                out.push_back(ModelEvent::CallReady {
                    index: self.ready,
                    call,
                });
                self.ready += 1;
            }
            "response.completed" | "response.incomplete" => {
                let reason = event.pointer("/response/incomplete_details/reason");
                if reason.and_then(Value::as_str) == Some("max_output_tokens") {
                    self.at_limit = true;
                }
                if let Some(usage) = event.pointer("/response/usage").filter(|u| u.is_object()) {
                    self.usage = Some(read_usage(usage));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        let turn = std::mem::take(&mut self.assembler)
            .finish()
            .map_err(http::incomplete)?;
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, self.usage, native);
        turn.reasoning = std::mem::take(&mut self.reasoning);
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body.get("usage").filter(|u| u.is_object()).map(read_usage);
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, usage, native);
        turn.reasoning = whole_reasoning(body);
        Ok(turn)
    }

    fn stopped_at_limit(&self) -> bool {
        self.at_limit
    }
}

fn read_usage(usage: &Value) -> Usage {
    Usage {
        input_tokens: count(usage, &["input_tokens"]),
        output_tokens: count(usage, &["output_tokens"]),
        cached_input_tokens: count(usage, &["input_tokens_details", "cached_tokens"]),
        reasoning_tokens: count(usage, &["output_tokens_details", "reasoning_tokens"]),
    }
}

/// The reasoning summaries (or reasoning text) of a whole response's reasoning items, parts
/// separated by a blank line.
fn whole_reasoning(body: &Value) -> String {
    let items = body.get("output").and_then(Value::as_array);
    let parts: Vec<&str> = items
        .into_iter()
        .flatten()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("reasoning"))
        .flat_map(|item| {
            let summary = item.get("summary").and_then(Value::as_array);
            let content = item.get("content").and_then(Value::as_array);
            summary
                .into_iter()
                .flatten()
                .chain(content.into_iter().flatten())
        })
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    parts.join("\n\n")
}
