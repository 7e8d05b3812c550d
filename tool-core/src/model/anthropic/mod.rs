//! [`Anthropic`]: the Anthropic Messages API.

use serde_json::{json, Map, Value};

use super::http;
use super::http::{
    calls_and_responses, endpoint_methods, native_of, neutral_turn, reasoning_methods,
    unknown_tool_search,
};
use super::{Message, Model, ModelRequest, ModelStream, Reasoning};
use crate::http::{Endpoint, Transport};
use crate::provider::anthropic::{has_tool_search, tools_for, CodeExecution, SearchTool};
use crate::provider::{Anthropic as Wire, Api, ChatApi};

mod container;
mod decoder;

use decoder::MessagesDecoder;

/// The tag of this adapter's [`NativeContent`](super::NativeContent).
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
/// Tools that programs may call bring the code execution tool along (programmatic tool
/// calling; see [`Anthropic::with_code_execution`]). The container a response names is kept
/// with its turn, beside the content blocks in the turn's native content, and every later
/// request names the latest one. A `pause_turn` stop is a turn the runner sends back
/// unchanged, as the last message, for Claude to continue.
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
    /// The code execution tool offered when tools allow calls from programs.
    code_execution: CodeExecution,
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
            code_execution: CodeExecution::default(),
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

    /// Which version of the code execution tool runs the programs Claude writes to call
    /// tools (programmatic tool calling): the current one, [`CodeExecution::V20260120`],
    /// unless set. The tool is offered whenever a tool allows calls from programs
    /// ([`AllowedCallers`](crate::AllowedCallers) `Program` or `Any`), and those tools
    /// name it in their `allowed_callers`.
    ///
    /// A response that ran code names its container; the turn keeps it (also in a stored
    /// conversation) and every later request sends `container: "<id>"`, as the API requires
    /// while a program waits for tool results. A request refused because that container has
    /// expired fails with an `InvalidRequest` [`ModelError`](super::ModelError) that names
    /// the container and says how to go on.
    ///
    /// ```
    /// use tool_core::model::{Anthropic, Message, ModelRequest, OfferedTools};
    /// use tool_core::provider::anthropic::CodeExecution;
    /// use tool_core::{AllowedCallers, ToolDefinition};
    ///
    /// let model = Anthropic::new("claude-sonnet-4-5").with_code_execution(CodeExecution::V20250825);
    /// assert_eq!(model.code_execution(), CodeExecution::V20250825);
    /// let tools = [ToolDefinition::new("roll_die", "Rolls a die.", serde_json::json!({"type": "object"}))
    ///     .with_allowed_callers(AllowedCallers::Program)];
    /// let messages = [Message::user("Play.")];
    /// let body = model.request_body(&ModelRequest::new(&messages, OfferedTools::from_definitions(&tools)));
    /// assert_eq!(body["tools"][0]["allowed_callers"], serde_json::json!(["code_execution_20250825"]));
    /// assert_eq!(body["tools"][1], serde_json::json!({"type": "code_execution_20250825", "name": "code_execution"}));
    /// ```
    pub fn with_code_execution(mut self, version: CodeExecution) -> Self {
        self.code_execution = version;
        self
    }

    /// The code execution tool offered with tools that programs may call (see
    /// [`Anthropic::with_code_execution`]).
    ///
    /// ```
    /// use tool_core::provider::anthropic::CodeExecution;
    /// assert_eq!(tool_core::model::Anthropic::new("claude-opus-4-6").code_execution(), CodeExecution::V20260120);
    /// ```
    pub fn code_execution(&self) -> CodeExecution {
        self.code_execution
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
                    Some(native) => container::message(native),
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
            let tools = tools_for(defs, self.tool_search(), self.code_execution);
            body.insert("tools".into(), tools);
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
        if let Some(id) = container::latest(request.messages) {
            body.insert("container".into(), json!(id));
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
        let stream = http::run(&self.transport, url, &body, MessagesDecoder::default());
        match body.get("container").and_then(Value::as_str) {
            Some(id) => container::watch(stream, id.to_owned()),
            None => stream,
        }
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
