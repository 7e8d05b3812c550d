//! A 200-tool catalogue, every tool deferred, on the APIs without a tool search of their own
//! (Chat Completions, Gemini, and a text-mode format over an OpenAI-compatible server): the
//! first request carries only the run's `search_tools`; a search turn, then a call of the tool
//! found, while a call of a tool not found yet is refused; the tools part of each request is
//! the previous request's, byte for byte, with tools appended; every request fits the
//! official SDK's request types. Whole responses follow each API reference's example, as in
//! `http_whole.rs`; ids and texts are this test's.
//!
//! The catalogue: the 166 tools of `tests/fixtures/tool_search/tools.json` (public MCP
//! servers' published tool lists; its README names them), plus the Filesystem server and the
//! first Playwright tools again under a `sandbox_` prefix, as an agent that connects a second
//! copy of those servers (a sandbox) would see them: 200 tools.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use tool_core::model::{Gemini, Model, OpenAiChat, TextMode};
use tool_core::parse::ToolFormat;
use tool_core::runner::{RunError, RunResult, Runner};
use tool_core::{
    CallFuture, Tool, ToolContext, ToolDefinition, ToolErrorCode, ToolRegistry, ToolResponse,
};
use wiremock::ResponseTemplate;

use crate::http_support::{assert_sdk_accepts, requests, server, test_endpoint};

/// Calls run, by tool name.
type Runs = Arc<Mutex<HashMap<String, usize>>>;

/// A tool known only by its published definition, as an imported MCP tool is; it answers
/// with its name and arguments and counts its runs.
struct Listed {
    definition: ToolDefinition,
    runs: Runs,
}

impl Tool for Listed {
    fn name(&self) -> &str {
        &self.definition.name
    }
    fn description(&self) -> &str {
        &self.definition.description
    }
    fn input_schema(&self) -> Value {
        (*self.definition.input_schema).clone()
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        if let Ok(mut runs) = self.runs.lock() {
            *runs.entry(self.definition.name.clone()).or_default() += 1;
        }
        CallFuture::ready(ToolResponse::success(format!(
            "{} ran with {arguments}",
            self.definition.name
        )))
    }
}

fn catalogue() -> (ToolRegistry, Runs) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/tool_search/tools.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let listed: Vec<Value> = serde_json::from_str(&text).unwrap();
    let sandbox = listed
        .iter()
        .filter(|t| t["server"] == "filesystem" || t["server"] == "playwright")
        .take(200 - listed.len())
        .map(|t| {
            let mut t = t.clone();
            t["name"] = json!(format!("sandbox_{}", t["name"].as_str().unwrap()));
            t["description"] = json!(format!("(sandbox) {}", t["description"].as_str().unwrap()));
            t
        })
        .collect::<Vec<_>>();
    let runs = Runs::default();
    let mut registry = ToolRegistry::new();
    for tool in listed.iter().chain(&sandbox) {
        let definition = ToolDefinition::new(
            tool["name"].as_str().unwrap(),
            tool["description"].as_str().unwrap(),
            tool["input_schema"].clone(),
        );
        let tool = Listed {
            definition,
            runs: Arc::clone(&runs),
        };
        registry.register_arc(Arc::new(tool)).unwrap();
    }
    assert_eq!(registry.definitions().len(), 200);
    (registry.defer_loading_all(), runs)
}

#[derive(Debug, Clone, Copy)]
enum Api {
    Chat,
    Gemini,
    /// Hermes `<tool_call>` calls in the text of an OpenAI-compatible server's replies.
    Hermes,
}

impl Api {
    fn route(self) -> &'static str {
        match self {
            Api::Chat | Api::Hermes => "/v1/chat/completions",
            Api::Gemini => "/v1beta/models/gemini-2.5-flash:generateContent",
        }
    }

    fn reply(self, id: &str, name: &str, args: &Value) -> ResponseTemplate {
        let body = match self {
            Api::Chat => json!({"id": "chatcmpl-call", "object": "chat.completion",
                "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null, "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": null, "refusal": null,
                        "tool_calls": [{"id": id, "type": "function",
                            "function": {"name": name, "arguments": args.to_string()}}]}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}}),
            Api::Gemini => gemini(json!([{"functionCall": {"name": name, "args": args}}])),
            Api::Hermes => {
                let call = json!({"name": name, "arguments": args});
                chat_text(&format!("<tool_call>\n{call}\n</tool_call>"))
            }
        };
        ResponseTemplate::new(200).set_body_json(body)
    }

    /// A turn with two calls.
    fn replies(self, calls: [(&str, &str, Value); 2]) -> ResponseTemplate {
        let body = match self {
            Api::Chat => {
                let calls: Vec<Value> = calls
                    .iter()
                    .map(|(id, name, args)| {
                        json!({"id": id, "type": "function",
                        "function": {"name": name, "arguments": args.to_string()}})
                    })
                    .collect();
                json!({"id": "chatcmpl-calls", "object": "chat.completion",
                "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null, "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": null, "refusal": null,
                        "tool_calls": calls}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}})
            }
            Api::Gemini => gemini(Value::Array(
                calls
                    .iter()
                    .map(|(_, name, args)| json!({"functionCall": {"name": name, "args": args}}))
                    .collect(),
            )),
            Api::Hermes => chat_text(
                &calls
                    .iter()
                    .map(|(_, name, args)| {
                        let call = json!({"name": name, "arguments": args});
                        format!("<tool_call>\n{call}\n</tool_call>")
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        };
        ResponseTemplate::new(200).set_body_json(body)
    }

    fn text(self, text: &str) -> ResponseTemplate {
        let body = match self {
            Api::Chat | Api::Hermes => chat_text(text),
            Api::Gemini => gemini(json!([{"text": text}])),
        };
        ResponseTemplate::new(200).set_body_json(body)
    }

    /// The tools part of a request body, as sent: the `tools` field, or in text mode the
    /// tool list inside the system prompt.
    fn tools_part(self, body: &[u8]) -> String {
        #[derive(Deserialize)]
        struct Tools<'a> {
            #[serde(borrow)]
            tools: &'a RawValue,
        }
        match self {
            Api::Chat | Api::Gemini => {
                let tools: Tools = serde_json::from_slice(body).expect("a tools field");
                tools.tools.get().to_string()
            }
            Api::Hermes => {
                let body: Value = serde_json::from_slice(body).unwrap();
                let system = body["messages"][0]["content"].as_str().unwrap_or_default();
                // From the first mention of the list to its end (the prompt names the tag
                // before it opens it).
                let start = system.find("<tools>").expect("a <tools> section");
                let end = system.rfind("</tools>").expect("a </tools> end");
                system[start..end].to_string()
            }
        }
    }
}

fn chat_text(text: &str) -> Value {
    json!({"id": "chatcmpl-text", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "logprobs": null, "finish_reason": "stop",
            "message": {"role": "assistant", "content": text, "refusal": null}}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}})
}

fn gemini(parts: Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts},
        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 12,
            "totalTokenCount": 52},
        "modelVersion": "gemini-2.5-flash"})
}

/// Runs the catalogue on `api` against the server at `uri`.
async fn run_with(api: Api, uri: &str, registry: ToolRegistry) -> Result<RunResult, RunError> {
    let input = "File a bug about the crash";
    match api {
        Api::Chat => {
            let model = OpenAiChat::new("gpt-4o")
                .with_endpoint(|e| test_endpoint(e, format!("{uri}/v1")).with_stream(false));
            assert!(!model.native_tool_search());
            Runner::new(model, registry).run(input).await
        }
        Api::Gemini => {
            let model = Gemini::new("gemini-2.5-flash")
                .with_endpoint(|e| test_endpoint(e, format!("{uri}/v1beta")).with_stream(false));
            assert!(!model.native_tool_search());
            Runner::new(model, registry).run(input).await
        }
        Api::Hermes => {
            let inner = OpenAiChat::compatible(format!("{uri}/v1"), "NousResearch/Hermes-3", None)
                .with_endpoint(|e| {
                    let base = e.base_url.clone();
                    test_endpoint(e, base).with_stream(false)
                });
            let model = TextMode::new(inner, ToolFormat::Hermes);
            assert!(!model.native_tool_search());
            Runner::new(model, registry).run(input).await
        }
    }
}

/// The tools part of the same request with no tool deferred: every schema sent.
async fn every_tool(api: Api) -> String {
    let server = server(api.route(), vec![api.text("Nothing to do.")]).await;
    let (mut registry, _) = catalogue();
    registry.set_defer_loading_all(false);
    run_with(api, &server.uri(), registry).await.unwrap();
    let sent = requests(&server).await;
    api.tools_part(&sent[0].body)
}

async fn run_on(api: Api) {
    let issue = json!({"owner": "acme", "repo": "app", "title": "Crash on start"});
    let replies = vec![
        api.reply(
            "s1",
            "search_tools",
            &json!({"query": "create a github issue", "limit": 3}),
        ),
        // The tool found, and one no search has found.
        api.replies([
            ("c1", "create_issue", issue.clone()),
            ("r1", "read_file", json!({"path": "/etc/hosts"})),
        ]),
        api.text("Opened the issue."),
    ];
    let server = server(api.route(), replies).await;
    let (registry, runs) = catalogue();
    let result = run_with(api, &server.uri(), registry).await;
    let result = result.unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(result.final_text().unwrap(), "Opened the issue.", "{api:?}");

    let sent = requests(&server).await;
    assert_eq!(sent.len(), 3, "{api:?}");
    let parts: Vec<String> = sent.iter().map(|r| api.tools_part(&r.body)).collect();
    // The first request carries the search alone: at least 90% fewer tool bytes.
    let every_tool = every_tool(api).await;
    let shrink = 1.0 - parts[0].len() as f64 / every_tool.len() as f64;
    println!(
        "{api:?}: first request's tools {} bytes, every tool {} bytes, {:.1}% less",
        parts[0].len(),
        every_tool.len(),
        shrink * 100.0
    );
    assert!(shrink >= 0.9, "{api:?}: only {:.1}% less", shrink * 100.0);
    assert!(parts[0].contains("search_tools") && !parts[0].contains("create_issue"));
    // Tools are only appended: each request's tools start with the previous request's.
    for pair in parts.windows(2) {
        let open = pair[0].trim_end_matches([']', '}']);
        assert!(
            pair[1].starts_with(open),
            "{api:?}: {}\nis no prefix of\n{}",
            pair[0],
            pair[1]
        );
    }
    assert!(parts[1].contains("create_issue") && parts[1].len() > parts[0].len());
    assert!(
        !parts[1].contains("defer_loading"),
        "{api:?}: nothing marked deferred"
    );
    assert_eq!(parts[2], parts[1]);

    // The found tool ran once; the one not found was refused and never ran.
    let runs = runs.lock().unwrap().clone();
    assert_eq!(runs.get("create_issue"), Some(&1), "{api:?}: {runs:?}");
    assert_eq!(runs.get("read_file"), None, "{api:?}: {runs:?}");
    let messages = result.messages();
    let tool_core::model::Message::Tool { results } = &messages[4] else {
        panic!("{api:?}: {:?}", messages[4])
    };
    assert_eq!(results[0].response.error_code(), None);
    assert_eq!(
        results[1].response.error_code(),
        Some(ToolErrorCode::NotFound)
    );
    // History is faithful: the last request carries the search result and both results.
    let last = String::from_utf8_lossy(&sent[2].body);
    assert!(last.contains("Found 3 tool(s)"), "{api:?}: {last}");
    assert!(last.contains("create_issue ran with"), "{api:?}");
    assert!(
        last.contains("is not loaded yet; call search_tools first"),
        "{api:?}"
    );
    // A text-mode request is a plain Chat Completions request.
    assert_sdk_accepts(api.route(), &sent);
}

#[tokio::test]
async fn a_deferred_catalogue_on_chat_completions() {
    run_on(Api::Chat).await;
}

#[tokio::test]
async fn a_deferred_catalogue_on_gemini() {
    run_on(Api::Gemini).await;
}

#[tokio::test]
async fn a_deferred_catalogue_in_text_mode() {
    run_on(Api::Hermes).await;
}
