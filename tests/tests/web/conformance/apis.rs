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
const CONTAINER: &str = "container_conformance";
const FINGERPRINT: &str = "gAAAAABconformance-program-fingerprint";

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
        ResponseTemplate::new(200).set_body_json(render_whole(api, turn))
    }
}

/// The turn as the model's text in a text-mode format.
pub fn text_mode_reply(api: Api, turn: &Turn) -> String {
    let mut out = String::new();
    // Hermes models (Qwen3) open the reply with `<think>`; a `<use_tool>` model's reasoning
    // comes apart from its text, from a server with a reasoning parser (`reasoning`).
    if let Some(reasoning) = turn.reasoning.as_ref().filter(|_| api == Api::TextHermes) {
        out.push_str("<think>\n");
        out.push_str(reasoning);
        out.push_str("\n</think>\n\n");
    }
    out.push_str(&turn.text);
    for call in &turn.calls {
        if !out.is_empty() {
            out.push('\n');
        }
        match api {
            Api::TextUseTool => out.push_str(&format!(
                "<use_tool>\n  <tool_name>{}</tool_name>\n  <arguments>{}</arguments>\n</use_tool>",
                call.name, call.args
            )),
            _ => out.push_str(&format!(
                "<tool_call>\n{}\n</tool_call>",
                json!({"name": call.name, "arguments": call.args})
            )),
        }
    }
    out
}

pub fn render_whole(api: Api, turn: &Turn) -> Value {
    let (input, output) = turn.usage;
    match api {
        Api::Chat | Api::ChatVllm | Api::ChatDeepSeek | Api::TextHermes | Api::TextUseTool => {
            let mut message = json!({"role": "assistant", "content": null, "refusal": null});
            let content = if api.is_text_mode() {
                text_mode_reply(api, turn)
            } else {
                turn.text.clone()
            };
            if !content.is_empty() {
                message["content"] = json!(content);
            }
            match (&turn.reasoning, api) {
                (Some(r), Api::ChatVllm | Api::TextUseTool) => message["reasoning"] = json!(r),
                (Some(r), Api::ChatDeepSeek) => message["reasoning_content"] = json!(r),
                _ => {}
            }
            let native_calls = !api.is_text_mode() && !turn.calls.is_empty();
            if native_calls {
                message["tool_calls"] = turn
                    .calls
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "type": "function",
                            "function": {"name": c.name, "arguments": c.args.to_string()}})
                    })
                    .collect();
            }
            json!({"id": "chatcmpl-conformance", "object": "chat.completion", "created": 1,
                "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null,
                    "finish_reason": if native_calls { "tool_calls" } else { "stop" },
                    "message": message}],
                "usage": {"prompt_tokens": input, "completion_tokens": output,
                    "total_tokens": input + output}})
        }
        Api::Responses => json!({"id": "resp_conformance", "object": "response",
            "created_at": 1, "status": "completed", "model": "gpt-5.4",
            "output": responses_items(turn),
            "usage": responses_usage(turn)}),
        Api::Anthropic => {
            let mut message = json!({"id": "msg_conformance", "type": "message",
                "role": "assistant", "model": "claude-sonnet-4-5",
                "content": anthropic_blocks(turn),
                "stop_reason": if turn.calls.is_empty() { "end_turn" } else { "tool_use" },
                "stop_sequence": null,
                "usage": {"input_tokens": input, "output_tokens": output}});
            if let Some(container) = anthropic_container(turn) {
                message["container"] = container;
            }
            message
        }
        Api::Gemini => {
            let mut parts = Vec::new();
            if let Some(r) = &turn.reasoning {
                parts.push(json!({"text": r, "thought": true}));
            }
            if !turn.text.is_empty() {
                parts.push(json!({"text": turn.text}));
            }
            parts.extend(gemini_calls(turn));
            gemini_chunk(parts, Some("STOP"), turn.usage)
        }
        Api::Interactions => super::interactions::whole(turn),
    }
}

pub(super) fn responses_usage(turn: &Turn) -> Value {
    let (input, output) = turn.usage;
    json!({"input_tokens": input, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output, "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input + output})
}

pub(super) fn responses_items(turn: &Turn) -> Vec<Value> {
    let mut items = Vec::new();
    if let Some(r) = &turn.reasoning {
        items.push(json!({"id": "rs_conformance", "type": "reasoning",
            "summary": [{"type": "summary_text", "text": r}], "encrypted_content": ENCRYPTED}));
    }
    if !turn.text.is_empty() {
        items.push(
            json!({"id": "msg_conformance", "type": "message", "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}]}),
        );
    }
    if let Some((_, found)) = &turn.search {
        // The hosted tool search's two items, as in the recorded gpt-5.4 stream
        // (tool_search_openai_responses_turn1.sse): the call, then the tools it loaded.
        let names: Vec<&str> = found.iter().map(|(name, _, _)| name.as_str()).collect();
        items.push(json!({"id": "tsc_conformance", "type": "tool_search_call",
            "status": "completed", "arguments": {"paths": names}, "call_id": null,
            "execution": "server"}));
        let tools: Vec<Value> = found
            .iter()
            .map(|(name, description, schema)| {
                json!({"type": "function",
                "defer_loading": true, "description": description, "name": name,
                "parameters": schema, "strict": false})
            })
            .collect();
        items.push(
            json!({"id": "tso_conformance", "type": "tool_search_output",
            "status": "completed", "call_id": null, "execution": "server", "tools": tools}),
        );
    }
    if let Some(code) = &turn.program {
        items.push(json!({"id": "cm_conformance", "type": "program",
            "call_id": RESPONSES_PROGRAM, "code": code, "fingerprint": FINGERPRINT}));
    }
    for call in &turn.calls {
        // A program's call stays `in_progress` until it is answered (as recorded).
        let status = if call.caller == By::Program {
            "in_progress"
        } else {
            "completed"
        };
        let mut item = json!({"id": format!("fc_{}", call.id), "type": "function_call",
            "status": status, "call_id": call.id, "name": call.name,
            "arguments": call.args.to_string()});
        if let Some(caller) = caller_json(call.caller, false) {
            item["caller"] = caller;
        }
        if let Some(namespace) = &call.namespace {
            // A call of a tool inside a `namespace` tool names its namespace apart.
            item["namespace"] = json!(namespace);
        }
        items.push(item);
    }
    items
}

/// The `container` the code execution tool ran a turn's program in (Anthropic).
pub(super) fn anthropic_container(turn: &Turn) -> Option<Value> {
    turn.program.as_ref()?;
    Some(json!({"id": CONTAINER, "expires_at": "2026-12-07T20:00:00.000000Z"}))
}

pub(super) fn anthropic_blocks(turn: &Turn) -> Vec<Value> {
    let mut blocks = Vec::new();
    if let Some(r) = &turn.reasoning {
        blocks.push(json!({"type": "thinking", "thinking": r, "signature": SIGNATURE}));
    }
    if let Some((query, found)) = &turn.search {
        blocks.push(
            json!({"type": "server_tool_use", "id": "srvtoolu_conformance",
            "name": "tool_search_tool_bm25", "input": {"query": query, "limit": 5}}),
        );
        let references: Vec<Value> = found
            .iter()
            .map(|(name, _, _)| json!({"type": "tool_reference", "tool_name": name}))
            .collect();
        blocks.push(json!({"type": "tool_search_tool_result",
            "tool_use_id": "srvtoolu_conformance",
            "content": {"type": "tool_search_tool_search_result",
                "tool_references": references}}));
    }
    if !turn.text.is_empty() {
        blocks.push(json!({"type": "text", "text": turn.text}));
    }
    if let Some(code) = &turn.program {
        blocks.push(json!({"type": "server_tool_use", "id": ANTHROPIC_PROGRAM,
            "name": "code_execution", "input": {"code": code}, "caller": {"type": "direct"}}));
    }
    for call in &turn.calls {
        let mut block = json!({"type": "tool_use", "id": call.id, "name": call.name,
            "input": call.args});
        if let Some(caller) = caller_json(call.caller, true) {
            block["caller"] = caller;
        }
        blocks.push(block);
    }
    blocks
}

pub(super) fn gemini_calls(turn: &Turn) -> Vec<Value> {
    turn.calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut part = json!({"functionCall": {"name": c.name, "args": c.args}});
            // Gemini signs the first call of a turn that thought.
            if i == 0 && turn.reasoning.is_some() {
                part["thoughtSignature"] = json!(THOUGHT_SIGNATURE);
            }
            part
        })
        .collect()
}

pub(super) fn gemini_chunk(
    parts: Vec<Value>,
    finish: Option<&str>,
    (input, output): (u64, u64),
) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    if let Some(finish) = finish {
        candidate["finishReason"] = json!(finish);
    }
    json!({"candidates": [candidate],
        "usageMetadata": {"promptTokenCount": input, "candidatesTokenCount": output,
            "totalTokenCount": input + output},
        "modelVersion": "gemini-2.5-flash", "responseId": "gemini-conformance"})
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
