//! [`Anthropic`]: the Anthropic Messages API.

use std::collections::{HashMap, VecDeque};

use serde_json::{json, Map, Value};

use super::http::{self, Decoder};
use super::http::{
    calls_and_responses, count, endpoint_methods, finished_turn, native_of, neutral_turn,
    push_reasoning, reasoning_methods, unknown_tool_search,
};
use super::{
    Message, Model, ModelError, ModelErrorKind, ModelEvent, ModelRequest, ModelStream, ModelTurn,
    NativeContent, Reasoning, Usage,
};
use crate::http::{provider_message, Endpoint, Transport};
use crate::provider::anthropic::{has_tool_search, tools_with_search, SearchTool};
use crate::provider::{Anthropic as Wire, AnthropicStream, Api, Assembler, ChatApi};

/// The tag of this adapter's [`NativeContent`].
const PROVIDER: Api = Api::Anthropic;

/// A Claude model behind the Messages API (`POST {base}/messages`).
///
/// Requests carry `system`, `max_tokens` (required by the API; default 4096), the history in
/// the API's shapes (the assistant's content blocks as Claude sent them, then one `user`
/// message whose `tool_result` blocks answer every call in order), `tools`, and
/// `tool_choice` with `disable_parallel_tool_use` when parallel calls are off. Streamed, text
/// deltas are reported as they arrive and each call as soon as its `tool_use` block closes.
/// A streamed `error` event (`overloaded_error`, ...) is a typed error.
///
/// Reasoning ([`Anthropic::with_reasoning`]) is sent as `thinking: {type: "enabled",
/// budget_tokens}`; the API wants `max_tokens` above the budget, so when it is not,
/// `max_tokens` becomes the budget plus the configured `max_tokens`. Thinking streams as
/// reasoning deltas; the `thinking` blocks with their signatures and `redacted_thinking`
/// blocks go back in later requests unchanged, in place before the `tool_use` blocks.
/// Adaptive thinking is `with_endpoint(|e| e.with_fields(json!({"thinking": {"type":
/// "adaptive"}})))`.
///
/// ```
/// use tool_core::model::Anthropic;
/// let model = Anthropic::new("claude-sonnet-4-5").with_api_key("sk-ant-test").with_max_tokens(1024);
/// assert_eq!(model.endpoint().url("messages"), "https://api.anthropic.com/v1/messages");
/// assert!(model.endpoint().headers.iter().any(|(n, v)| n == "anthropic-version" && v == "2023-06-01"));
/// ```
#[derive(Debug)]
pub struct Anthropic {
    transport: Transport,
    model: String,
    max_tokens: u32,
    reasoning: Option<Reasoning>,
    /// Whether to ask for typed answers through `output_config.format`; `None`: by model name.
    native_output: Option<bool>,
    /// The tool search tool for deferred tools: `None` by model name, `Some(None)` off.
    tool_search: Option<Option<SearchTool>>,
    /// The model's name did not tell about tool search, and that was reported.
    warned: std::sync::atomic::AtomicBool,
}

impl Anthropic {
    /// The default base URL.
    pub const DEFAULT_BASE_URL: &'static str = "https://api.anthropic.com/v1";
    /// The `anthropic-version` header sent.
    pub const API_VERSION: &'static str = "2023-06-01";

    /// A client for `model` with `max_tokens` 4096 and no key yet.
    ///
    /// ```
    /// assert_eq!(tool_core::model::Anthropic::new("claude-sonnet-4-5").model(), "claude-sonnet-4-5");
    /// ```
    pub fn new(model: impl Into<String>) -> Self {
        Anthropic {
            transport: Transport::new(
                Endpoint::new(Self::DEFAULT_BASE_URL)
                    .with_header("anthropic-version", Self::API_VERSION),
            ),
            model: model.into(),
            max_tokens: 4096,
            reasoning: None,
            native_output: None,
            tool_search: None,
            warned: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Sends `x-api-key: <key>`.
    ///
    /// ```
    /// let m = tool_core::model::Anthropic::new("claude-sonnet-4-5").with_api_key("k");
    /// assert!(m.endpoint().headers.contains(&("x-api-key".to_string(), "k".to_string())));
    /// ```
    pub fn with_api_key(self, key: impl Into<String>) -> Self {
        self.with_endpoint(|e| e.with_header("x-api-key", key))
    }

    /// Sets `max_tokens`.
    ///
    /// ```
    /// use tool_core::model::{Anthropic, Message, ModelRequest, OfferedTools};
    /// let m = Anthropic::new("claude-sonnet-4-5").with_max_tokens(256);
    /// let messages = [Message::user("hi")];
    /// assert_eq!(m.request_body(&ModelRequest::new(&messages, OfferedTools::none()))["max_tokens"], 256);
    /// ```
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Whether typed answers ([`ModelRequest::output`], a run's
    /// [`RunOptions::output`](crate::runner::RunOptions::output)) use Anthropic's structured
    /// outputs (`output_config.format`) instead of a final-answer tool. By default they do,
    /// except on the models that lack it (Claude 3 and earlier, Claude Sonnet 4 and Opus 4 /
    /// 4.1); this overrides that guess, e.g. for a model name this crate does not know.
    ///
    /// ```
    /// use tool_core::model::{Anthropic, Model};
    /// assert!(Anthropic::new("claude-sonnet-4-5").native_output(true));
    /// assert!(!Anthropic::new("claude-3-5-haiku-latest").native_output(false));
    /// assert!(!Anthropic::new("claude-sonnet-4-5").with_native_output(false).native_output(false));
    /// ```
    pub fn with_native_output(mut self, native: bool) -> Self {
        self.native_output = Some(native);
        self
    }

    /// Which tool search Claude runs over deferred tools ([`ToolDefinition::defer_loading`]),
    /// or `None` for none. With a search tool, every offered tool is sent, the deferred ones
    /// with `defer_loading: true` (their schemas stay out of Claude's context until a search
    /// loads them), and the search tool is added to `tools` whenever one offered tool is
    /// deferred; Claude's searches and their results come back as `server_tool_use` and
    /// `tool_search_tool_result` blocks, which later requests send back unchanged. Without
    /// one, deferred tools are sent as ordinary tools.
    ///
    /// By default it is read from the model's name: BM25 ([`SearchTool::Bm25`]) on Claude
    /// Opus and Sonnet 4.5 and later, however the name is written
    /// (`claude-sonnet-4-5-20250929`, Bedrock's `anthropic.claude-sonnet-4-5-20250929-v1:0`,
    /// Vertex AI's `claude-opus-4-5@20251101`), none on Haiku and on earlier versions.
    /// [`Model::native_tool_search`] says which applies, so a run uses its own
    /// `search_tools` tool where Claude has none. A name that names no Claude family and
    /// version (a gateway's own name) is taken as without: the run uses its own
    /// `search_tools`, and the first run with deferred tools reports it once (a `tracing`
    /// warning with the `tracing` feature). This setting wins over the name.
    ///
    /// [`ToolDefinition::defer_loading`]: crate::ToolDefinition::defer_loading
    ///
    /// ```
    /// use tool_core::model::{Anthropic, Model};
    /// use tool_core::provider::anthropic::SearchTool;
    /// assert!(Anthropic::new("claude-sonnet-4-5").native_tool_search());
    /// assert!(!Anthropic::new("claude-3-5-haiku-latest").native_tool_search());
    /// let regex = Anthropic::new("claude-opus-4-5").with_tool_search(SearchTool::Regex);
    /// assert_eq!(regex.tool_search(), Some(SearchTool::Regex));
    /// assert!(!Anthropic::new("claude-opus-4-5").with_tool_search(None).native_tool_search());
    /// ```
    pub fn with_tool_search(mut self, search: impl Into<Option<SearchTool>>) -> Self {
        self.tool_search = Some(search.into());
        self
    }

    /// The tool search sent with deferred tools (see [`Anthropic::with_tool_search`]).
    ///
    /// ```
    /// use tool_core::provider::anthropic::SearchTool;
    /// let model = tool_core::model::Anthropic::new("claude-sonnet-4-5");
    /// assert_eq!(model.tool_search(), Some(SearchTool::Bm25));
    /// ```
    pub fn tool_search(&self) -> Option<SearchTool> {
        self.tool_search.unwrap_or_else(|| {
            (has_tool_search(&self.model) == Some(true)).then_some(SearchTool::Bm25)
        })
    }

    /// The model name sent in every request.
    ///
    /// ```
    /// let model = tool_core::model::Anthropic::new("claude-sonnet-4-5");
    /// assert_eq!(model.model(), "claude-sonnet-4-5");
    /// ```
    pub fn model(&self) -> &str {
        &self.model
    }

    endpoint_methods!(Anthropic, "\"claude-sonnet-4-5\"");
    reasoning_methods!(Anthropic, "\"claude-sonnet-4-5\"");

    /// The request body for `request` (what [`Model::stream`] sends).
    ///
    /// ```
    /// use tool_core::model::{Anthropic, Message, ModelRequest, OfferedTools};
    /// let messages = [Message::user("hi")];
    /// let body = Anthropic::new("claude-sonnet-4-5").request_body(&ModelRequest::new(&messages, OfferedTools::none()).with_instructions("Be brief."));
    /// assert_eq!(body["system"], "Be brief.");
    /// assert_eq!(body["messages"][0], serde_json::json!({"role": "user", "content": "hi"}));
    /// ```
    pub fn request_body(&self, request: &ModelRequest<'_>) -> Value {
        let mut messages = Vec::new();
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
        let mut max_tokens = self.max_tokens;
        if let Some(reasoning) = request.reasoning.or(self.reasoning.as_ref()) {
            let budget = reasoning.token_budget();
            if max_tokens <= budget {
                max_tokens = budget.saturating_add(self.max_tokens);
            }
            body.insert(
                "thinking".into(),
                json!({"type": "enabled", "budget_tokens": budget}),
            );
        }
        body.insert("max_tokens".into(), json!(max_tokens));
        if let Some(instructions) = request.instructions {
            body.insert("system".into(), json!(instructions));
        }
        body.insert("messages".into(), Value::Array(messages));
        if !request.tools.is_empty() {
            let defs = request.tools.definitions();
            body.insert("tools".into(), tools_with_search(defs, self.tool_search()));
            body.insert(
                "tool_choice".into(),
                Wire::tool_choice(request.tool_choice, request.parallel_tool_calls),
            );
        }
        if let Some(output) = request.output {
            body.insert(
                "output_config".into(),
                super::output::wire::anthropic(output),
            );
        }
        if self.transport.endpoint.stream {
            body.insert("stream".into(), Value::Bool(true));
        }
        self.transport.endpoint.finish_body(body)
    }
}

impl Model for Anthropic {
    fn provider_name(&self) -> &str {
        "anthropic"
    }

    fn model_name(&self) -> &str {
        &self.model
    }

    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let body = self.request_body(&request);
        let url = self.transport.endpoint.url("messages");
        http::run(&self.transport, url, &body, MessagesDecoder::default())
    }

    fn native_output(&self, _with_tools: bool) -> bool {
        self.native_output
            .unwrap_or_else(|| has_structured_outputs(&self.model))
    }

    fn native_tool_search(&self) -> bool {
        if self.tool_search.is_none() && has_tool_search(&self.model).is_none() {
            unknown_tool_search(
                &self.warned,
                "anthropic",
                &self.model,
                "Anthropic::with_tool_search",
            );
        }
        self.tool_search().is_some()
    }
}

/// Whether a Claude model has structured outputs, by its name: not the Claude 3 (and older)
/// models, nor Claude Sonnet 4 and Opus 4 / 4.1 (`claude-sonnet-4-0`,
/// `claude-sonnet-4-20250514`, ...); every later one does.
fn has_structured_outputs(model: &str) -> bool {
    const WITHOUT: [&str; 9] = [
        "claude-2",
        "claude-instant",
        "claude-3",
        "claude-sonnet-4-0",
        "claude-sonnet-4-2025",
        "claude-opus-4-0",
        "claude-opus-4-1",
        "claude-opus-4-2025",
        "claude-sonnet-4@",
    ];
    !WITHOUT.iter().any(|prefix| model.starts_with(prefix))
}

/// Reads Messages stream events: text deltas at once, each call when its block closes.
#[derive(Default)]
struct MessagesDecoder {
    assembler: AnthropicStream,
    /// Content block index -> call index, for the blocks that are calls.
    call_of_block: HashMap<u64, usize>,
    started: usize,
    ready: usize,
    usage: Usage,
    reasoning: String,
    /// The content block index of the last thinking piece, to separate blocks.
    thinking_block: Option<u64>,
    /// A call block whose input did not parse when it closed: an error at the end, unless
    /// the output limit cut the reply (known only from the `message_delta` after it).
    held: Option<ModelError>,
    /// The `message_delta` said `stop_reason: max_tokens`.
    at_limit: bool,
}

impl Decoder for MessagesDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        let event = http::parse_data(name, data)?;
        let kind = event.get("type").and_then(Value::as_str).unwrap_or(name);
        if kind == "error" {
            return Err(stream_error(&event));
        }
        if let Err(error) = self.assembler.push(&event) {
            let block = event.get("index").and_then(Value::as_u64);
            let closes_call = kind == "content_block_stop"
                && block.is_some_and(|b| self.call_of_block.contains_key(&b));
            if closes_call && self.held.is_none() {
                self.held = Some(http::malformed(error));
                return Ok(());
            }
            return Err(http::malformed(error));
        }
        match kind {
            "message_start" => {
                if let Some(usage) = event.pointer("/message/usage") {
                    self.usage = read_usage(usage);
                }
            }
            "content_block_start" => {
                let block = event.get("content_block");
                if block.and_then(|b| b.get("type")).and_then(Value::as_str) == Some("tool_use") {
                    let text = |key: &str| {
                        block
                            .and_then(|b| b.get(key))
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    let index = self.started;
                    self.started += 1;
                    if let Some(block_index) = event.get("index").and_then(Value::as_u64) {
                        self.call_of_block.insert(block_index, index);
                    }
                    out.push_back(ModelEvent::CallStarted {
                        index,
                        id: text("id"),
                        name: text("name"),
                    });
                }
            }
            "content_block_delta" => {
                let delta = event.get("delta");
                let field = |key: &str| {
                    delta
                        .and_then(|d| d.get(key))
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                };
                if let Some(text) = field("text") {
                    out.push_back(ModelEvent::TextDelta(text.to_owned()));
                } else if let Some(thinking) = field("thinking") {
                    let block = event.get("index").and_then(Value::as_u64);
                    if self.thinking_block.is_some() && self.thinking_block != block {
                        push_reasoning(&mut self.reasoning, "\n\n", out);
                    }
                    self.thinking_block = block;
                    push_reasoning(&mut self.reasoning, thinking, out);
                } else if let Some(fragment) = field("partial_json") {
                    let call = event
                        .get("index")
                        .and_then(Value::as_u64)
                        .and_then(|b| self.call_of_block.get(&b));
                    if let Some(&index) = call {
                        out.push_back(ModelEvent::ArgumentsDelta {
                            index,
                            delta: fragment.to_owned(),
                        });
                    }
                }
            }
            "message_delta" => {
                if event.pointer("/delta/stop_reason").and_then(Value::as_str) == Some("max_tokens")
                {
                    self.at_limit = true;
                }
                if let Some(output) = event
                    .pointer("/usage/output_tokens")
                    .and_then(Value::as_u64)
                {
                    self.usage.output_tokens = output;
                }
                // Newer models report their thinking share of the output.
                let thinking = event.pointer("/usage/output_tokens_details/thinking_tokens");
                if let Some(thinking) = thinking.and_then(Value::as_u64) {
                    self.usage.reasoning_tokens = thinking;
                }
            }
            _ => {}
        }
        for call in self.assembler.take_completed() {
            out.push_back(ModelEvent::CallReady {
                index: self.ready,
                call,
            });
            self.ready += 1;
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        if let Some(error) = self.held.take() {
            return Err(error);
        }
        let turn = std::mem::take(&mut self.assembler)
            .finish()
            .map_err(http::incomplete)?;
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, Some(self.usage), native);
        turn.reasoning = std::mem::take(&mut self.reasoning);
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body.get("usage").map(read_usage);
        let native = NativeContent::new(PROVIDER, Wire::history_entry(&turn));
        let mut turn = finished_turn(turn, usage, native);
        let blocks = body.get("content").and_then(Value::as_array);
        let thinking: Vec<&str> = blocks
            .into_iter()
            .flatten()
            .filter_map(|block| block.get("thinking").and_then(Value::as_str))
            .collect();
        turn.reasoning = thinking.join("\n\n");
        Ok(turn)
    }

    fn stopped_at_limit(&self) -> bool {
        self.at_limit
    }
}

/// Usage as Messages reports it (a whole response's `usage`, a stream's `message_start`):
/// input counts cache writes and cache reads too, as the other APIs' input counts do.
fn read_usage(usage: &Value) -> Usage {
    let cached = count(usage, &["cache_read_input_tokens"]);
    Usage {
        input_tokens: count(usage, &["input_tokens"])
            + count(usage, &["cache_creation_input_tokens"])
            + cached,
        output_tokens: count(usage, &["output_tokens"]),
        cached_input_tokens: cached,
        reasoning_tokens: 0,
    }
}

/// A streamed `error` event: `{"type": "error", "error": {"type": "overloaded_error", "message"}}`.
fn stream_error(event: &Value) -> ModelError {
    let kind = event
        .pointer("/error/type")
        .and_then(Value::as_str)
        .unwrap_or("api_error");
    let message = provider_message(event).unwrap_or_else(|| kind.to_owned());
    let kind = match kind {
        "rate_limit_error" => ModelErrorKind::RateLimited,
        "invalid_request_error" => ModelErrorKind::InvalidRequest,
        "authentication_error" | "permission_error" => ModelErrorKind::Auth,
        _ => ModelErrorKind::Server,
    };
    ModelError::new(kind, format!("{message} (streamed error event)"))
}
