//! Deferred tools with the provider's own tool search, over loopback HTTP: Anthropic's BM25
//! search tool and OpenAI Responses' hosted `tool_search`. The first request marks the
//! deferred tools `defer_loading: true` and adds the search tool; the model's search blocks
//! or items come back in the next request exactly as they were sent; the found tool is
//! called and runs; the `tools` part of every request is the same bytes; every request is one
//! the official SDK's request types accept.
//!
//! Recorded traffic (each file names its source in its header):
//! `tests/fixtures/http/tool_search_anthropic_turn{1,2,3}.sse` (vercel/ai's recorded
//! claude-sonnet-4-5 session with a deferred tool found by BM25 search),
//! `tool_search_openai_responses_turn1.sse` (vercel/ai's recorded gpt-5.4 stream with hosted
//! tool search). The whole (non-streamed) Anthropic response is vercel/ai's
//! `packages/anthropic/src/__fixtures__/anthropic-tool-search-bm25.1.json` (commit ed857f5),
//! copied below.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Model, ModelTurn, OpenAiResponses};
use tool_core::{CallFuture, Tool, ToolContext, ToolDefinition, ToolRegistry, ToolResponse};
use wiremock::{Request, ResponseTemplate};

use crate::http_support::{self, fixture, requests, server, sse};

/// A tool known by its definition, deferred or not, counting its runs.
struct Listed {
    definition: ToolDefinition,
    deferred: bool,
    runs: Arc<AtomicUsize>,
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
    fn defer_loading(&self) -> bool {
        self.deferred
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        CallFuture::ready(ToolResponse::success(format!(
            "{} done",
            self.definition.name
        )))
    }
}

/// A registry of `(name, description, schema, deferred)`, and each tool's run counter.
pub(crate) fn registry(
    tools: &[(&str, &str, Value, bool)],
) -> (ToolRegistry, Vec<Arc<AtomicUsize>>) {
    let mut registry = ToolRegistry::new();
    let mut runs = Vec::new();
    for (name, description, schema, deferred) in tools {
        let counter = Arc::new(AtomicUsize::new(0));
        runs.push(counter.clone());
        registry
            .register_arc(Arc::new(Listed {
                definition: ToolDefinition::new(*name, *description, schema.clone()),
                deferred: *deferred,
                runs: counter,
            }))
            .unwrap();
    }
    (registry, runs)
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// The `tools` part of a request, as bytes.
fn tools_bytes(request: &Request) -> String {
    body(request)["tools"].to_string()
}

/// The model's turns of a conversation from `user` (at most `max` turns), calls answered
/// with `call_all`.
async fn converse(
    model: &dyn Model,
    registry: &ToolRegistry,
    user: &str,
    max: usize,
) -> Vec<ModelTurn> {
    let conversation = http_support::converse_as(model, registry, user, max).await;
    if let Err(error) = &conversation.outcome {
        panic!("the turn is read: {error:?}");
    }
    conversation.model_turns()
}

pub(crate) fn note_tools() -> Vec<(&'static str, &'static str, Value, bool)> {
    let note_id = json!({"type": "object", "properties": {"noteId": {"type": "string"}}, "required": ["noteId"]});
    vec![
        (
            "readNoteTree",
            "Reads the block tree of a note.",
            note_id.clone(),
            false,
        ),
        (
            "executeEditorOperation",
            "Runs editor operations (insert, delete, move nodes) on a note.",
            json!({"type": "object", "properties": {
                "noteId": {"type": "string"},
                "operations": {"type": "array", "items": {"type": "object"}}},
                "required": ["noteId", "operations"]}),
            true,
        ),
        ("deleteNote", "Deletes a note.", note_id.clone(), true),
        (
            "shareNote",
            "Shares a note with another user.",
            note_id,
            true,
        ),
    ]
}

#[tokio::test]
async fn anthropic_streamed_search_then_the_found_tool() {
    let route = "/v1/messages";
    let server = server(
        route,
        (1..=3)
            .map(|i| sse(fixture(&format!("tool_search_anthropic_turn{i}.sse"))))
            .collect(),
    )
    .await;
    let (registry, runs) = registry(&note_tools());
    // A model with tool search by default.
    let model = Anthropic::new("claude-sonnet-4-5-20250929")
        .with_api_key("sk-ant-test")
        .with_endpoint(|e| http_support::test_endpoint(e, format!("{}/v1", server.uri())));
    assert!(model.native_tool_search());
    let turns = converse(&model, &registry, "Add a bullet 'bye' after 'hi'.", 4).await;
    assert_eq!(turns.len(), 3);

    // Turn one: a direct call, and a server-side search that is no call of ours.
    let names = |t: &ModelTurn| t.calls.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&turns[0]), ["readNoteTree"]);
    // Turn two: the search result, then a call of the deferred tool it found.
    assert_eq!(names(&turns[1]), ["executeEditorOperation"]);
    assert!(turns[1].calls[0].arguments.contains("bulletedListItem"));
    assert_eq!(turns[1].calls[0].caller, Some(tool_core::Caller::Direct));
    assert!(turns[2].calls.is_empty());
    let counts: Vec<usize> = runs.iter().map(|r| r.load(Ordering::SeqCst)).collect();
    assert_eq!(counts, [1, 1, 0, 0]);

    let sent = requests(&server).await;
    assert_eq!(sent.len(), 3);
    // Deferred tools marked, the search tool last, nothing else changed.
    let first = body(&sent[0]);
    let tools = first["tools"].as_array().unwrap();
    let marked: Vec<(&str, bool)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t.get("defer_loading") == Some(&json!(true)),
            )
        })
        .collect();
    assert_eq!(
        marked,
        [
            ("readNoteTree", false),
            ("executeEditorOperation", true),
            ("deleteNote", true),
            ("shareNote", true),
            ("tool_search_tool_bm25", false),
        ]
    );
    assert_eq!(
        tools[4],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    // The tools part is the same bytes on every turn (the prompt cache's prefix).
    assert_eq!(tools_bytes(&sent[0]), tools_bytes(&sent[1]));
    assert_eq!(tools_bytes(&sent[1]), tools_bytes(&sent[2]));

    // History as sent: message one's blocks (the search call with its streamed input, the
    // `caller` fields) and message two's search result, byte for byte, in their places.
    let third = body(&sent[2]);
    let messages = third["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant", "user"]);
    assert_eq!(
        messages[1]["content"][2].to_string(),
        r#"{"type":"server_tool_use","id":"srvtoolu_01FjZe9o4YXXJjGxLmfj44Rf","name":"tool_search_tool_bm25","input":{"query":"add bullet point insert text editor","limit":5},"caller":{"type":"direct"}}"#
    );
    assert_eq!(
        messages[1]["content"][1].to_string(),
        r#"{"type":"tool_use","id":"toolu_01U8pzAHj2vNdPCA2Kf8JjeN","name":"readNoteTree","input":{"noteId":"d10aa585-982b-4bd9-984e-420f9b3717f7"},"caller":{"type":"direct"}}"#
    );
    assert_eq!(
        messages[3]["content"][0].to_string(),
        r#"{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_01FjZe9o4YXXJjGxLmfj44Rf","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"executeEditorOperation"}]}}"#
    );
    assert_eq!(messages[3]["content"][2]["name"], "executeEditorOperation");
    // What the second request sent of turn one is what the third sent again.
    assert_eq!(body(&sent[1])["messages"][1], messages[1]);
    http_support::assert_sdk_accepts(route, &sent);
}

/// vercel/ai `packages/anthropic/src/__fixtures__/anthropic-tool-search-bm25.1.json`
/// (commit ed857f5): a whole response with the search, its result and the call together.
pub(crate) fn whole_search_response() -> Value {
    json!({
        "model": "claude-sonnet-4-5-20250929",
        "id": "msg_01UT62y3tNACWwnL9oJ9rzUG",
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "text", "text": "I'll search for a weather-related tool to help you get the current weather in San Francisco."},
            {"type": "server_tool_use", "id": "srvtoolu_011Jcb838xqvZyWwDt7bWqAz", "name": "tool_search_tool_bm25",
             "input": {"query": "weather current conditions San Francisco"}, "caller": {"type": "direct"}},
            {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_011Jcb838xqvZyWwDt7bWqAz",
             "content": {"type": "tool_search_tool_search_result",
                         "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
            {"type": "text", "text": "Great! I found a weather tool. Let me get the current weather in San Francisco for you."},
            {"type": "tool_use", "id": "toolu_01PFQG18bVLaXcEaCxTZtX4G", "name": "get_weather",
             "input": {"location": "San Francisco, CA"}, "caller": {"type": "direct"}}
        ],
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {"input_tokens": 1631, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                  "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
                  "output_tokens": 161, "service_tier": "standard",
                  "server_tool_use": {"web_search_requests": 0}}
    })
}

#[tokio::test]
async fn anthropic_whole_response_with_search_and_call() {
    let route = "/v1/messages";
    let first = whole_search_response();
    let second = json!({"id": "msg_01Final", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "It is 15 C in San Francisco."}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 1800, "output_tokens": 12}});
    let server = server(
        route,
        vec![
            ResponseTemplate::new(200).set_body_json(first.clone()),
            ResponseTemplate::new(200).set_body_json(second),
        ],
    )
    .await;
    let location = json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]});
    let (registry, runs) = registry(&[
        (
            "get_time",
            "Current time in a time zone.",
            location.clone(),
            false,
        ),
        (
            "get_weather",
            "Current weather at a location.",
            location.clone(),
            true,
        ),
        (
            "get_forecast",
            "Weather forecast for the next days.",
            location,
            true,
        ),
    ]);
    let model = Anthropic::new("claude-opus-4-5")
        .with_api_key("sk-ant-test")
        .with_tool_search(tool_core::provider::anthropic::SearchTool::Regex)
        .with_endpoint(|e| {
            http_support::test_endpoint(e, format!("{}/v1", server.uri())).with_stream(false)
        });
    let turns = converse(&model, &registry, "Weather in San Francisco?", 3).await;
    assert_eq!(turns[0].calls.len(), 1);
    assert_eq!(turns[0].calls[0].name, "get_weather");
    assert_eq!(runs[1].load(Ordering::SeqCst), 1);

    let sent = requests(&server).await;
    let tools = body(&sent[0])["tools"].clone();
    assert_eq!(tools[1]["defer_loading"], true);
    assert_eq!(
        tools[3],
        json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"})
    );
    assert_eq!(tools_bytes(&sent[0]), tools_bytes(&sent[1]));
    // The whole content goes back as it came, byte for byte.
    assert_eq!(
        body(&sent[1])["messages"][1]["content"].to_string(),
        first["content"].to_string()
    );
    http_support::assert_sdk_accepts(route, &sent);
}

#[tokio::test]
async fn openai_responses_hosted_search_then_the_found_tool() {
    let route = "/v1/responses";
    let server = server(
        route,
        vec![
            sse(fixture("tool_search_openai_responses_turn1.sse")),
            sse(fixture("openai_responses_turn2.sse")),
        ],
    )
    .await;
    // The recording's three deferred functions, as its echoed request lists them.
    let (registry, runs) = registry(&[
        (
            "get_weather",
            "Get the current weather at a specific location",
            json!({"type": "object", "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"}},
                "required": ["location", "unit"]}),
            true,
        ),
        (
            "search_files",
            "Search through files in the workspace",
            json!({"type": "object", "properties": {
                "query": {"type": "string", "description": "The search query"},
                "file_types": {"type": "array", "items": {"type": "string"}, "description": "Filter by file types"}},
                "required": ["query", "file_types"]}),
            true,
        ),
        (
            "send_email",
            "Send an email to a recipient",
            json!({"type": "object", "properties": {
                "to": {"type": "string", "description": "Recipient email address"},
                "subject": {"type": "string", "description": "Email subject"},
                "body": {"type": "string", "description": "Email body content"}},
                "required": ["to", "subject", "body"]}),
            true,
        ),
    ]);
    let model = OpenAiResponses::new("gpt-5.4")
        .with_api_key("sk-test")
        .with_endpoint(|e| http_support::test_endpoint(e, format!("{}/v1", server.uri())));
    assert!(model.native_tool_search());
    let turns = converse(&model, &registry, "What's the weather in San Francisco?", 3).await;
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0].calls.len(), 1);
    assert_eq!(turns[0].calls[0].name, "get_weather");
    assert_eq!(
        turns[0].calls[0].arguments,
        r#"{"location":"San Francisco, CA","unit":"fahrenheit"}"#
    );
    let counts: Vec<usize> = runs.iter().map(|r| r.load(Ordering::SeqCst)).collect();
    assert_eq!(counts, [1, 0, 0]);

    let sent = requests(&server).await;
    let first = body(&sent[0]);
    let tools = first["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 4);
    assert!(tools[..3].iter().all(|t| t["defer_loading"] == true));
    assert_eq!(tools[3], json!({"type": "tool_search"}));
    assert_eq!(tools_bytes(&sent[0]), tools_bytes(&sent[1]));

    // The search call, its output and the call of the found tool (with the namespace the API
    // gave it) go back exactly as `response.completed` listed them.
    let recorded = fixture("tool_search_openai_responses_turn1.sse");
    let completed = recorded
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["type"] == "response.completed")
        .unwrap();
    let input = body(&sent[1])["input"].clone();
    assert_eq!(
        input[0],
        json!({"role": "user", "content": "What's the weather in San Francisco?"})
    );
    for (i, item) in completed["response"]["output"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert_eq!(input[i + 1].to_string(), item.to_string(), "item {i}");
    }
    assert_eq!(input[1]["type"], "tool_search_call");
    assert_eq!(input[2]["type"], "tool_search_output");
    assert_eq!(input[4]["type"], "function_call_output");
    http_support::assert_sdk_accepts(route, &sent);
}
