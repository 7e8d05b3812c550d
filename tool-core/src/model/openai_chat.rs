//! [`OpenAiChat`]: the OpenAI Chat Completions API (and every server compatible with it).

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::http::{self, Decoder};
use super::http::{
    calls_and_responses, count, endpoint_methods, finished_turn, native_of, neutral_turn,
    push_reasoning, reasoning_methods,
};
use super::{
    Message, Model, ModelError, ModelEvent, ModelRequest, ModelStream, ModelTurn, NativeContent,
    Reasoning, Usage,
};
use crate::http::{provider_message, Endpoint, Transport};
use crate::provider::{
    Api, Assembler, AssistantTurn, ChatApi, OpenAiChat as Wire, OpenAiChatStream,
};

/// The tag of this adapter's [`NativeContent`].
const PROVIDER: Api = Api::OpenAiChat;

/// A model behind the Chat Completions API (`POST {base}/chat/completions`): OpenAI itself,
/// or any compatible server (vLLM, llama.cpp's server, Ollama, LiteLLM) through
/// [`Endpoint::with_base_url`].
///
/// Requests carry the instructions as a `system` message, the history in the API's shapes
/// (the assistant message with its `tool_calls`, then one `tool` message per result, in call
/// order), `tools`, `tool_choice` (only when tools are offered), `parallel_tool_calls: false`
/// when parallel calls are off, and, streamed, `stream_options.include_usage`. Text deltas are
/// reported as they arrive. The API streams a call's arguments in fragments keyed by index;
/// a call is handed out ([`ModelEvent::CallReady`]) as soon as it is complete: when its
/// arguments are one whole JSON object, when the next call begins, or at the end of the turn,
/// whichever comes first.
///
/// Reasoning ([`OpenAiChat::with_reasoning`]) is sent as `reasoning_effort`. The reasoning
/// compatible servers stream as `reasoning_content` (vLLM, DeepSeek, llama.cpp) or
/// `reasoning` (OpenRouter, newer vLLM) comes out as reasoning deltas, never as text. A turn
/// with calls sends its reasoning back on its assistant message, whole, in the field it came
/// in (DeepSeek's thinking mode refuses a later request without it); a turn without calls
/// does not (DeepSeek says to drop that reasoning, and ignores it).
///
/// ```no_run
/// use tool_core::model::{self, Message, ModelRequest, OfferedTools, OpenAiChat};
///
/// let model = OpenAiChat::new("gpt-4o-mini").with_api_key(std::env::var("OPENAI_API_KEY").unwrap());
/// let messages = [Message::user("Say hi")];
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let turn = model::collect_turn(model.stream(ModelRequest::new(&messages, OfferedTools::none()))).await?;
/// println!("{}", turn.text);
/// # Ok::<(), tool_core::model::ModelError>(()) }).unwrap();
/// # use tool_core::model::Model;
/// ```
#[derive(Debug)]
pub struct OpenAiChat {
    transport: Transport,
    model: String,
    reasoning: Option<Reasoning>,
}

impl OpenAiChat {
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://api.openai.com/v1";

    /// A client for `model` at [`OpenAiChat::DEFAULT_BASE_URL`], with no key yet.
    ///
    /// ```
    /// let model = tool_core::model::OpenAiChat::new("gpt-4o-mini");
    /// assert_eq!(model.model(), "gpt-4o-mini");
    /// ```
    pub fn new(model: impl Into<String>) -> Self {
        OpenAiChat {
            transport: Transport::new(Endpoint::new(Self::DEFAULT_BASE_URL)),
            model: model.into(),
            reasoning: None,
        }
    }

    /// A client for `model` on an OpenAI-compatible server at `base_url` (vLLM, llama.cpp's
    /// server, Ollama, LM Studio, a proxy), with a key when the server wants one.
    ///
    /// ```
    /// use tool_core::model::OpenAiChat;
    /// let local = OpenAiChat::compatible("http://127.0.0.1:11434/v1", "qwen3:8b", None);
    /// assert_eq!(local.endpoint().url("chat/completions"), "http://127.0.0.1:11434/v1/chat/completions");
    /// assert!(local.endpoint().headers.is_empty());
    /// let vllm = OpenAiChat::compatible("http://127.0.0.1:8000/v1", "Qwen/Qwen3-8B", Some("token-abc"));
    /// assert_eq!(vllm.endpoint().headers[0].1, "Bearer token-abc");
    /// ```
    pub fn compatible(
        base_url: impl Into<String>,
        model: impl Into<String>,
        api_key: Option<&str>,
    ) -> Self {
        let model = OpenAiChat::new(model).with_endpoint(|e| e.with_base_url(base_url));
        match api_key {
            Some(key) => model.with_api_key(key),
            None => model,
        }
    }

    /// Sends `Authorization: Bearer <key>`.
    ///
    /// ```
    /// let model = tool_core::model::OpenAiChat::new("gpt-4o-mini").with_api_key("sk-test");
    /// assert_eq!(model.endpoint().headers[0], ("authorization".to_string(), "Bearer sk-test".to_string()));
    /// ```
    pub fn with_api_key(self, key: impl AsRef<str>) -> Self {
        let bearer = format!("Bearer {}", key.as_ref());
        self.with_endpoint(|e| e.with_header("authorization", bearer))
    }

    /// The model name sent in every request.
    ///
    /// ```
    /// let model = tool_core::model::OpenAiChat::new("qwen2.5-7b-instruct")
    ///     .with_endpoint(|e| e.with_base_url("http://127.0.0.1:8000/v1"));
    /// assert_eq!(model.model(), "qwen2.5-7b-instruct");
    /// ```
    pub fn model(&self) -> &str {
        &self.model
    }

    endpoint_methods!(OpenAiChat, "\"gpt-4o-mini\"");
    reasoning_methods!(OpenAiChat, "\"o4-mini\"");

    /// The request body for `request` (what [`Model::stream`] sends).
    ///
    /// ```
    /// use tool_core::model::{Message, ModelRequest, OfferedTools, OpenAiChat};
    /// let messages = [Message::user("hi")];
    /// let body = OpenAiChat::new("gpt-4o-mini").request_body(&ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief."));
    /// assert_eq!(body["messages"][0], serde_json::json!({"role": "system", "content": "Be brief."}));
    /// assert!(body.get("tools").is_none());
    /// ```
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Value {
        let mut messages = Vec::new();
        if let Some(instructions) = request.instructions {
            messages.push(json!({"role": "system", "content": instructions}));
        }
        for message in request.messages {
            match message {
                Message::User { content } => {
                    messages.push(json!({"role": "user", "content": content}))
                }
                Message::Assistant(turn) => messages.push(match native_of(turn, PROVIDER) {
                    Some(native) => native.clone(),
                    None => Wire::history_entry(&neutral_turn(turn)),
                }),
                Message::Tool { results } => {
                    let (calls, responses) = calls_and_responses(results);
                    messages.extend(Wire::results_entry(&calls, &responses));
                }
            }
        }
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert("messages".into(), Value::Array(messages));
        if let Some(reasoning) = request.reasoning.or(self.reasoning.as_ref()) {
            let effort = reasoning.effort_level().as_str();
            body.insert("reasoning_effort".into(), json!(effort));
        }
        if !request.tools.is_empty() {
            body.extend(Wire::tool_fields(
                request.tools.definitions(),
                request.tool_choice,
                request.parallel_tool_calls,
            ));
        }
        if let Some(output) = request.output {
            body.insert(
                "response_format".into(),
                super::output::wire::openai_chat(output),
            );
        }
        if self.transport.endpoint.stream {
            body.insert("stream".into(), Value::Bool(true));
            body.insert("stream_options".into(), json!({"include_usage": true}));
        }
        self.transport.endpoint.finish_body(body)
    }
}

impl Model for OpenAiChat {
    fn provider_name(&self) -> &str {
        "openai"
    }

    fn model_name(&self) -> &str {
        &self.model
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.request_body(&request);
        let url = self.transport.endpoint.url("chat/completions");
        http::run(&self.transport, url, &body, ChatDecoder::default())
    }

    fn native_output(&self, _with_tools: bool) -> bool {
        true
    }
}

/// Reads `chat.completion.chunk`s: text and reasoning deltas at once, call fragments as
/// deltas, each call as soon as it is complete.
#[derive(Default)]
struct ChatDecoder {
    assembler: OpenAiChatStream,
    started: usize,
    usage: Option<Usage>,
    reasoning: String,
    /// The field the reasoning came in (`reasoning_content` or `reasoning`), to send it back
    /// in the same one.
    reasoning_field: Option<&'static str>,
    text_bytes: usize,
}

impl Decoder for ChatDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        if data.trim() == "[DONE]" {
            return Ok(());
        }
        let chunk = http::parse_data(name, data)?;
        if let Some(error) = chunk.get("error") {
            // Some compatible servers report a failure inside the stream.
            let message = provider_message(&chunk).unwrap_or_else(|| error.to_string());
            return Err(ModelError::new(super::ModelErrorKind::Server, message));
        }
        self.assembler.push(&chunk).map_err(http::malformed)?;
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(read_usage(usage));
        }
        let delta = chunk.pointer("/choices/0/delta");
        if let Some((field, reasoning)) = delta.and_then(reasoning_of) {
            if !reasoning.is_empty() {
                self.reasoning_field.get_or_insert(field);
            }
            push_reasoning(&mut self.reasoning, reasoning, out);
        }
        if let Some(text) = delta.and_then(|d| d.get("content")).and_then(Value::as_str) {
            if !text.is_empty() {
                self.text_bytes += text.len();
                out.push_back(ModelEvent::TextDelta(text.to_owned()));
            }
        }
        let calls = delta
            .and_then(|d| d.get("tool_calls"))
            .and_then(Value::as_array);
        for call in calls.into_iter().flatten() {
            let Some(index) = call.get("index").and_then(Value::as_u64) else {
                continue;
            };
            let index = usize::try_from(index).unwrap_or(usize::MAX);
            let function = call.get("function");
            if index == self.started {
                // The calls before this one are complete: ready before this one starts.
                self.assembler.take_ready(index, |index, call| {
                    out.push_back(ModelEvent::CallReady { index, call })
                });
                let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
                let name = function
                    .and_then(|f| f.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.started += 1;
                out.push_back(ModelEvent::CallStarted {
                    index,
                    id: id.to_owned(),
                    name: name.to_owned(),
                });
            }
            let fragment = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            // A call already handed out takes only whitespace (the assembler refuses more),
            // which is not part of its arguments.
            if !fragment.is_empty() && index >= self.assembler.handed() {
                out.push_back(ModelEvent::ArgumentsDelta {
                    index,
                    delta: fragment.to_owned(),
                });
            }
        }
        // A call is ready once its arguments are one whole JSON object, while the model
        // may still stream more of the turn.
        self.assembler.take_ready(usize::MAX, |index, call| {
            out.push_back(ModelEvent::CallReady { index, call })
        });
        Ok(())
    }

    fn finish(&mut self, out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        if !self.assembler.is_finished() {
            // Say what had arrived: text and calls alike are dropped.
            return Err(ModelError::new(
                super::ModelErrorKind::Incomplete,
                format!(
                    "the stream ended before its finish_reason, after {} bytes of text and {} \
                     tool call(s) begun; nothing of the turn is dispatched",
                    self.text_bytes, self.started
                ),
            ));
        }
        let assembler = std::mem::take(&mut self.assembler);
        let handed = assembler.handed();
        let turn = assembler.finish().map_err(http::incomplete)?;
        // The calls not handed out yet are complete now.
        for (index, call) in turn.calls.iter().enumerate().skip(handed) {
            out.push_back(ModelEvent::CallReady {
                index,
                call: call.clone(),
            });
        }
        let reasoning = std::mem::take(&mut self.reasoning);
        let entry = history_entry(&turn, self.reasoning_field, &reasoning);
        let native = NativeContent::new(PROVIDER, entry);
        let mut turn = finished_turn(turn, self.usage, native);
        turn.reasoning = reasoning;
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body.get("usage").filter(|u| u.is_object()).map(read_usage);
        let message = body.pointer("/choices/0/message");
        let (field, reasoning) = message.and_then(reasoning_of).unwrap_or(("", ""));
        let field = (!reasoning.is_empty()).then_some(field);
        let native = NativeContent::new(PROVIDER, history_entry(&turn, field, reasoning));
        let mut turn = finished_turn(turn, usage, native);
        turn.reasoning = reasoning.to_owned();
        Ok(turn)
    }
}

/// The assistant message this turn goes back as. A turn with calls carries its reasoning in
/// the field it came in: DeepSeek's thinking mode answers 400 when a tool-call turn's
/// `reasoning_content` is missing from a later request, and vLLM's chat templates read it to
/// continue the reasoning across the calls. A turn without calls does not: DeepSeek ignores
/// such reasoning and says to drop it, and most templates strip it from earlier turns.
fn history_entry(turn: &AssistantTurn, field: Option<&str>, reasoning: &str) -> Value {
    let mut entry = Wire::history_entry(turn);
    if let (Some(field), Value::Object(message)) = (field, &mut entry) {
        if !turn.calls.is_empty() && !reasoning.is_empty() {
            // Before `tool_calls`, where DeepSeek and vLLM put it in their responses.
            let calls = message.remove("tool_calls");
            message.insert(field.to_owned(), Value::String(reasoning.to_owned()));
            if let Some(calls) = calls {
                message.insert("tool_calls".into(), calls);
            }
        }
    }
    entry
}

fn read_usage(usage: &Value) -> Usage {
    Usage {
        input_tokens: count(usage, &["prompt_tokens"]),
        output_tokens: count(usage, &["completion_tokens"]),
        cached_input_tokens: count(usage, &["prompt_tokens_details", "cached_tokens"]),
        reasoning_tokens: count(usage, &["completion_tokens_details", "reasoning_tokens"]),
    }
}

/// The reasoning of a delta or message and the field it is in: `reasoning_content` (vLLM,
/// DeepSeek, llama.cpp) or `reasoning` (OpenRouter, newer vLLM), when it is text.
fn reasoning_of(message: &Value) -> Option<(&'static str, &str)> {
    REASONING_FIELDS.iter().find_map(|key| {
        let text = message.get(*key).and_then(Value::as_str)?;
        Some((*key, text))
    })
}

/// The fields compatible servers put reasoning in, in the order they are looked for.
const REASONING_FIELDS: [&str; 2] = ["reasoning_content", "reasoning"];
