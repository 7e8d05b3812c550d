//! The fake provider behind every cell: an abstract scripted turn (reasoning, text, calls,
//! usage) rendered as each API's whole JSON response and as its SSE stream, following the
//! recorded shapes in `tests/fixtures/http/` (their envelopes, event names and field order),
//! and the adapter of each column aimed at a loopback server that replays them.

use serde_json::{json, Value};
use tool_core::model::{
    Anthropic, Gemini, GeminiInteractions, Model, OpenAiChat, OpenAiResponses, TextMode,
};
use tool_core::parse::ToolFormat;
use tool_core::provider::anthropic::CODE_EXECUTION_CALLER;
use wiremock::{MockServer, ResponseTemplate};

use crate::http_support::{requests, server, test_endpoint};

/// One column of the matrix: an API (or an API and a server's dialect of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Api {
    /// OpenAI Chat Completions, as OpenAI serves it.
    Chat,
    /// Chat Completions from a server that streams reasoning as `reasoning` (vLLM, OpenRouter).
    ChatVllm,
    /// Chat Completions from a server that streams reasoning as `reasoning_content` (DeepSeek).
    ChatDeepSeek,
    /// OpenAI Responses.
    Responses,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini generateContent.
    Gemini,
    /// Google's Interactions API, stateful (`previous_interaction_id`), as by default.
    Interactions,
    /// `TextMode` in the Hermes format over a Chat Completions server.
    TextHermes,
    /// `TextMode` in the `<use_tool>` format over a Chat Completions server.
    TextUseTool,
}

impl Api {
    /// Every column, in the table's order.
    pub const ALL: [Api; 9] = [
        Api::Chat,
        Api::ChatVllm,
        Api::ChatDeepSeek,
        Api::Responses,
        Api::Anthropic,
        Api::Gemini,
        Api::Interactions,
        Api::TextHermes,
        Api::TextUseTool,
    ];

    /// The column's heading in the table.
    pub fn heading(self) -> &'static str {
        match self {
            Api::Chat => "Chat Completions",
            Api::ChatVllm => "Chat, `reasoning` (vLLM)",
            Api::ChatDeepSeek => "Chat, `reasoning_content` (DeepSeek)",
            Api::Responses => "Responses",
            Api::Anthropic => "Anthropic Messages",
            Api::Gemini => "Gemini",
            Api::Interactions => "Gemini Interactions",
            Api::TextHermes => "`TextMode` Hermes",
            Api::TextUseTool => "`TextMode` `<use_tool>`",
        }
    }

    /// Whether the model writes its calls in text (`TextMode`).
    pub fn is_text_mode(self) -> bool {
        matches!(self, Api::TextHermes | Api::TextUseTool)
    }

    /// The path the adapter POSTs to.
    pub fn route(self, stream: bool) -> &'static str {
        match self {
            Api::Responses => "/v1/responses",
            Api::Anthropic => "/v1/messages",
            Api::Gemini if stream => "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
            Api::Gemini => "/v1beta/models/gemini-2.5-flash:generateContent",
            Api::Interactions => "/v1/interactions",
            _ => "/v1/chat/completions",
        }
    }

    fn base_path(self) -> &'static str {
        match self {
            Api::Gemini => "/v1beta",
            _ => "/v1",
        }
    }

    /// The column's adapter aimed at `base` (the server's root).
    pub fn model(self, root: &str, stream: bool) -> Box<dyn Model> {
        let base = format!("{root}{}", self.base_path());
        let chat = |name: &str, key: Option<&str>| {
            OpenAiChat::compatible(base.clone(), name, key).with_endpoint(|e| {
                let base = e.base_url.clone();
                test_endpoint(e, base).with_stream(stream)
            })
        };
        match self {
            Api::Chat => Box::new(
                OpenAiChat::new("gpt-4o")
                    .with_api_key("sk-test")
                    .with_endpoint(|e| test_endpoint(e, base.clone()).with_stream(stream)),
            ),
            Api::ChatVllm => Box::new(chat("Qwen/Qwen3-8B", None)),
            Api::ChatDeepSeek => Box::new(chat("deepseek-v4-flash", Some("sk-test"))),
            Api::Responses => Box::new(
                OpenAiResponses::new("gpt-5.4")
                    .with_api_key("sk-test")
                    .with_endpoint(|e| test_endpoint(e, base.clone()).with_stream(stream)),
            ),
            Api::Anthropic => Box::new(
                Anthropic::new("claude-sonnet-4-5")
                    .with_api_key("sk-ant-test")
                    .with_endpoint(|e| test_endpoint(e, base.clone()).with_stream(stream)),
            ),
            Api::Gemini => Box::new(
                Gemini::new("gemini-2.5-flash")
                    .with_api_key("test-key")
                    .with_endpoint(|e| test_endpoint(e, base.clone()).with_stream(stream)),
            ),
            Api::Interactions => Box::new(
                GeminiInteractions::new(super::interactions::MODEL)
                    .with_api_key("test-key")
                    .with_endpoint(|e| test_endpoint(e, base.clone()).with_stream(stream)),
            ),
            Api::TextHermes => Box::new(TextMode::new(
                chat("NousResearch/Hermes-3", None),
                ToolFormat::Hermes,
            )),
            Api::TextUseTool => Box::new(TextMode::new(
                chat("Qwen/Qwen3-8B", None),
                ToolFormat::UseTool,
            )),
        }
    }

    /// The names of the tools a request offers natively (empty in text mode, whose tools
    /// are in the instructions).
    pub fn tool_names(self, body: &Value) -> Vec<String> {
        let tools = match self {
            Api::Gemini => &body["tools"][0]["function_declarations"],
            _ => &body["tools"],
        };
        let tools = tools.as_array().map(Vec::as_slice).unwrap_or_default();
        tools
            .iter()
            .map(|tool| match self {
                Api::Chat | Api::ChatVllm | Api::ChatDeepSeek => tool["function"]["name"].clone(),
                _ => tool["name"].clone(),
            })
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect()
    }

    /// The instructions a request carries (system message, `instructions`, `system`,
    /// `systemInstruction`), as text.
    pub fn instructions(self, body: &Value) -> String {
        let value = match self {
            Api::Responses => body["instructions"].clone(),
            Api::Anthropic => body["system"].clone(),
            Api::Gemini => body["systemInstruction"]["parts"][0]["text"].clone(),
            Api::Interactions => body["system_instruction"].clone(),
            _ => body["messages"][0]["content"].clone(),
        };
        match value {
            Value::String(s) => s,
            Value::Array(blocks) => blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }
}

/// Opaque reasoning state the APIs hand out and want back unchanged.
pub const SIGNATURE: &str = "EqQBCkYIBxgCKkBconformanceSignatureOfTheThinkingBlock";
pub const ENCRYPTED: &str = "gAAAAABconformance-encrypted-reasoning-content";
pub const THOUGHT_SIGNATURE: &str = "Y29uZm9ybWFuY2UtdGhvdWdodC1zaWduYXR1cmU=";

/// One call of a scripted turn.
#[derive(Debug, Clone)]
pub struct Call {
    pub id: String,
    pub name: String,
    pub args: Value,
    /// The namespace of a call of a namespaced tool (Responses sends it apart from the name).
    pub namespace: Option<String>,
    /// Who the response says made the call (Anthropic and Responses only).
    pub caller: By,
}

/// Who a response says made a call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum By {
    /// The response does not say (no `caller`).
    #[default]
    Unsaid,
    /// `{"type": "direct"}`: the model itself.
    Direct,
    /// The program of the turn ([`Turn::with_program`]): Anthropic's code execution tool,
    /// Responses' `program` item.
    Program,
}

/// The id of the program a scripted turn runs: Anthropic's `server_tool_use` block of the
/// code execution tool, Responses' `program` item's `call_id`.
pub const ANTHROPIC_PROGRAM: &str = "srvtoolu_conformance_program";
pub const RESPONSES_PROGRAM: &str = "call_conformance_program";
pub(super) const CONTAINER: &str = "container_conformance";
pub(super) const FINGERPRINT: &str = "gAAAAABconformance-program-fingerprint";

/// The `caller` of a call on Anthropic (`anthropic`) or Responses, as the recorded sessions
/// write it; `None` when the response does not say.
pub(super) fn caller_json(by: By, anthropic: bool) -> Option<Value> {
    match (by, anthropic) {
        (By::Unsaid, _) => None,
        (By::Direct, _) => Some(json!({"type": "direct"})),
        (By::Program, true) => Some(json!({"type": CODE_EXECUTION_CALLER,
            "tool_id": ANTHROPIC_PROGRAM})),
        (By::Program, false) => Some(json!({"type": "program",
            "caller_id": RESPONSES_PROGRAM})),
    }
}

/// A tool a provider's search found: name, description, input schema.
pub type Found = (String, String, Value);

/// One scripted model turn, before it is rendered for an API.
#[derive(Debug, Clone, Default)]
pub struct Turn {
    pub reasoning: Option<String>,
    pub text: String,
    pub calls: Vec<Call>,
    /// A search the provider ran over the deferred tools before the calls (Anthropic's
    /// `tool_search_tool_bm25`, Responses' hosted `tool_search`): the query and the tools it
    /// found (name, description, input schema).
    pub search: Option<(String, Vec<Found>)>,
    /// Input and output tokens.
    pub usage: (u64, u64),
    /// The code of a program the model wrote and the provider runs, whose calls are the
    /// turn's calls made [`By::Program`] (Anthropic's code execution tool, with the
    /// response's `container`; Responses' `program` item).
    pub program: Option<String>,
}

impl Turn {
    pub fn text(text: &str) -> Turn {
        Turn {
            text: text.to_string(),
            usage: (100, 20),
            ..Turn::default()
        }
    }

    pub fn call(id: &str, name: &str, args: Value) -> Turn {
        Turn {
            usage: (100, 20),
            ..Turn::default()
        }
        .and_call(id, name, args)
    }

    pub fn and_call(mut self, id: &str, name: &str, args: Value) -> Turn {
        self.calls.push(Call {
            id: id.to_string(),
            name: name.to_string(),
            args,
            namespace: None,
            caller: By::Unsaid,
        });
        self
    }

    /// Says who made the last call.
    pub fn by(mut self, caller: By) -> Turn {
        if let Some(call) = self.calls.last_mut() {
            call.caller = caller;
        }
        self
    }

    /// Runs a program (`code`) this turn; its calls are those made [`By::Program`].
    pub fn with_program(mut self, code: &str) -> Turn {
        self.program = Some(code.to_string());
        self
    }

    /// Puts the last call in `namespace`.
    pub fn in_namespace(mut self, namespace: &str) -> Turn {
        if let Some(call) = self.calls.last_mut() {
            call.namespace = Some(namespace.to_string());
        }
        self
    }

    pub fn with_text(mut self, text: &str) -> Turn {
        self.text = text.to_string();
        self
    }

    pub fn with_reasoning(mut self, reasoning: &str) -> Turn {
        self.reasoning = Some(reasoning.to_string());
        self
    }

    pub fn with_native_search(mut self, query: &str, found: Vec<Found>) -> Turn {
        self.search = Some((query.to_string(), found));
        self
    }

    pub fn with_usage(mut self, input: u64, output: u64) -> Turn {
        self.usage = (input, output);
        self
    }
}

/// The size of the content pieces of a streamed Chat Completions reply.
pub const TEXT_PIECE: usize = 9;

/// Pieces of `text` of at most `size` bytes (ASCII scripts only), so everything streams in
/// several deltas.
pub(super) fn pieces(text: &str, size: usize) -> Vec<String> {
    text.as_bytes()
        .chunks(size)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

/// The whole response or the SSE stream of `turn` on `api`.
pub fn respond(api: Api, turn: &Turn, stream: bool) -> ResponseTemplate {
    if stream {
        ResponseTemplate::new(200).set_body_raw(
            super::sse::render_sse(api, turn).concat().into_bytes(),
            "text/event-stream",
        )
    } else {
        ResponseTemplate::new(200).set_body_json(super::whole::render_whole(api, turn))
    }
}

/// A loopback server for one run of `api`: it answers the requests with `turns`, in order.
pub struct Fake {
    pub api: Api,
    pub stream: bool,
    pub server: MockServer,
}

impl Fake {
    pub async fn start(api: Api, stream: bool, turns: &[Turn]) -> Fake {
        let responses = turns.iter().map(|t| respond(api, t, stream)).collect();
        let server = server(api.route(stream), responses).await;
        Fake {
            api,
            stream,
            server,
        }
    }

    pub fn model(&self) -> Box<dyn Model> {
        self.api.model(&self.server.uri(), self.stream)
    }

    /// The request bodies the server received, in order.
    pub async fn bodies(&self) -> Vec<Value> {
        requests(&self.server)
            .await
            .iter()
            .map(|r| serde_json::from_slice(&r.body).expect("the request body is JSON"))
            .collect()
    }
}
