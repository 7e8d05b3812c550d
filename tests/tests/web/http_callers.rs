//! Who made a call, over loopback HTTP: Anthropic's `caller` on `tool_use` blocks and OpenAI
//! Responses' `caller` on `function_call` items reach the call a tool sees; a tool declares
//! who may call it (`allowed_callers` on the wire); a tool that allows only direct calls never
//! runs on a call made from a program, and the model gets a `PERMISSION_DENIED` result
//! instead; the provider's items go back in the history as they came.
//!
//! Recorded traffic (each file names its source in its header): vercel/ai's recorded
//! programmatic tool calling sessions, `tests/fixtures/http/callers_anthropic_turn{1,2,3}.sse`
//! (claude-sonnet-4-5, `rollDie` called from the code execution tool) and
//! `callers_openai_responses_turn{1,2,3}.sse` (gpt-5.6-sol, `getInventory` and `getDemand`
//! called from a program item).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Message, ModelEvent, OpenAiResponses};
use tool_core::provider::anthropic::CodeExecution;
use tool_core::{AllowedCallers, Caller, ToolErrorCode, ToolRegistry, ToolResponse};
use wiremock::Request;

use crate::http_support::counted::Counted;
use crate::http_support::{self, fixture, requests, server, sse};

/// A counted tool of this session (see `http_support::counted`).
fn counted(name: &'static str, allowed: AllowedCallers, runs: &Arc<AtomicUsize>) -> Counted {
    Counted {
        name,
        description: "A tool of the recorded session.",
        schema: json!({"type": "object", "properties": {"player": {"type": "string"}, "sku": {"type": "string"}}}),
        allowed,
        result: json!({"value": 6}).to_string(),
        runs: Arc::clone(runs),
    }
}

fn registry(names: &[&'static str], allowed: AllowedCallers) -> (ToolRegistry, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut registry = ToolRegistry::new();
    for name in names {
        registry = registry.with(counted(name, allowed, &runs));
    }
    (registry, runs)
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// What a conversation did: per turn, the calls handed out early (`CallReady`), the calls of
/// the finished turn, and the responses given back.
struct Story {
    early: Vec<Vec<tool_core::ToolCall>>,
    calls: Vec<Vec<tool_core::ToolCall>>,
    responses: Vec<Vec<ToolResponse>>,
}

async fn converse(model: &dyn tool_core::model::Model, registry: &ToolRegistry) -> Story {
    let conversation = http_support::converse_as(model, registry, "Play the game.", 4).await;
    if let Err(error) = &conversation.outcome {
        panic!("the turn is read: {error:?}");
    }
    let early = conversation
        .turns
        .iter()
        .map(|events| {
            events
                .iter()
                .filter_map(|e| match e {
                    ModelEvent::CallReady { call, .. } => Some(call.clone()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let calls = conversation
        .model_turns()
        .into_iter()
        .map(|turn| turn.calls)
        .collect();
    let responses = conversation
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Tool { results } => Some(results.iter().map(|r| r.response.clone()).collect()),
            _ => None,
        })
        .collect();
    Story {
        early,
        calls,
        responses,
    }
}

async fn anthropic(allowed: AllowedCallers) -> (Story, Vec<Request>, usize) {
    play(
        "/v1/messages",
        "callers_anthropic",
        &["rollDie"],
        allowed,
        |endpoint| {
            // The recorded session ran the code execution tool's 2025-08-25 version.
            Anthropic::new("claude-sonnet-4-5-20250929")
                .with_api_key("sk-ant-test")
                .with_code_execution(CodeExecution::V20250825)
                .with_endpoint(|e| http_support::test_endpoint(e, endpoint))
        },
    )
    .await
}

/// Replays the three recorded turns `<fixtures>_turn{1,2,3}.sse` on `route` to the model
/// `connect` builds for the server's `/v1` endpoint, with the tools `names` allowing
/// `allowed`: what happened, the requests sent (checked against the SDK's types), and how
/// many times the tools ran.
async fn play<M: tool_core::model::Model>(
    route: &str,
    fixtures: &str,
    names: &[&'static str],
    allowed: AllowedCallers,
    connect: impl FnOnce(String) -> M,
) -> (Story, Vec<Request>, usize) {
    let server = server(
        route,
        (1..=3)
            .map(|i| sse(fixture(&format!("{fixtures}_turn{i}.sse"))))
            .collect(),
    )
    .await;
    let (registry, runs) = registry(names, allowed);
    let model = connect(format!("{}/v1", server.uri()));
    let story = converse(&model, &registry).await;
    let sent = requests(&server).await;
    http_support::assert_sdk_accepts(route, &sent);
    let runs = runs.load(Ordering::SeqCst);
    (story, sent, runs)
}

const ANTHROPIC_PROGRAM: &str = "srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK";

#[tokio::test]
async fn anthropic_program_calls_run_when_the_tool_allows_them() {
    let (story, sent, runs) = anthropic(AllowedCallers::Any).await;
    assert_eq!(story.calls.len(), 3);
    let program = Caller::program("code_execution_20250825", ANTHROPIC_PROGRAM);
    // Turn one streams the call in a content block; turn two's comes whole in
    // `message_start`; both carry the program as caller, early and in the finished turn.
    for turn in 0..2 {
        assert_eq!(story.calls[turn].len(), 1, "turn {turn}");
        assert_eq!(story.calls[turn][0].caller.as_ref(), Some(&program));
        assert_eq!(story.early[turn], story.calls[turn]);
    }
    assert_eq!(runs, 2);
    assert!(story.responses.iter().flatten().all(|r| !r.is_error()));
    // The setting on the wire, on every request.
    for request in &sent {
        assert_eq!(
            body(request)["tools"][0]["allowed_callers"],
            json!(["direct", "code_execution_20250825"])
        );
    }
    // The history keeps each `caller` as sent.
    let last = body(&sent[2]);
    let turn_two = &last["messages"][3]["content"][0];
    assert_eq!(
        turn_two["caller"],
        json!({"type": "code_execution_20250825", "tool_id": ANTHROPIC_PROGRAM})
    );
    assert_eq!(
        last["messages"][1]["content"][1]["caller"],
        json!({"type": "direct"})
    );
}

#[tokio::test]
async fn anthropic_program_calls_never_run_a_direct_only_tool() {
    let (story, sent, runs) = anthropic(AllowedCallers::Direct).await;
    assert_eq!(runs, 0, "a direct-only tool never runs on a program's call");
    let refusals: Vec<&ToolResponse> = story.responses.iter().flatten().collect();
    assert_eq!(refusals.len(), 2);
    for refusal in refusals {
        assert_eq!(refusal.error_code(), Some(ToolErrorCode::PermissionDenied));
        assert!(refusal
            .error_message()
            .unwrap()
            .contains("only be called by you directly"));
    }
    // The default is the API's own, so nothing is sent for it.
    assert!(body(&sent[0])["tools"][0].get("allowed_callers").is_none());
    // The refusal reaches the model as an error result.
    let answer = &body(&sent[1])["messages"][2]["content"][0];
    assert_eq!(answer["is_error"], true);
}

async fn openai(allowed: AllowedCallers) -> (Story, Vec<Request>, usize) {
    let names = &["getInventory", "getDemand"];
    play(
        "/v1/responses",
        "callers_openai_responses",
        names,
        allowed,
        |endpoint| {
            OpenAiResponses::new("gpt-5.6-sol")
                .with_api_key("sk-test")
                .with_endpoint(|e| http_support::test_endpoint(e, endpoint))
        },
    )
    .await
}

const OPENAI_PROGRAM: &str = "call_voPdoCqf8APY4DMpam3bdmxq";

#[tokio::test]
async fn openai_program_calls_run_when_the_tool_allows_them() {
    let (story, sent, runs) = openai(AllowedCallers::Program).await;
    let names: Vec<Vec<&str>> = story
        .calls
        .iter()
        .map(|t| t.iter().map(|c| c.name.as_str()).collect())
        .collect();
    assert_eq!(names, [vec!["getInventory"], vec!["getDemand"], vec![]]);
    let program = Caller::program("program", OPENAI_PROGRAM);
    for turn in 0..2 {
        // A program's call is `in_progress` until answered; it is still a call.
        assert_eq!(story.calls[turn][0].caller.as_ref(), Some(&program));
        assert_eq!(story.early[turn], story.calls[turn]);
    }
    assert_eq!(runs, 2);
    for request in &sent {
        let tools = body(request)["tools"].clone();
        assert_eq!(tools[0]["allowed_callers"], json!(["programmatic"]));
        assert_eq!(tools[1]["allowed_callers"], json!(["programmatic"]));
    }
    // The program item and the call with its caller go back as they came.
    let second = body(&sent[1]);
    let input = second["input"].as_array().unwrap();
    let types: Vec<&str> = input
        .iter()
        .map(|i| i["type"].as_str().unwrap_or("message"))
        .collect();
    assert_eq!(
        types,
        [
            "message",
            "reasoning",
            "program",
            "function_call",
            "function_call_output"
        ]
    );
    assert_eq!(
        input[3]["caller"],
        json!({"type": "program", "caller_id": OPENAI_PROGRAM})
    );
    assert_eq!(input[3]["status"], "in_progress");
}

#[tokio::test]
async fn openai_program_calls_never_run_a_direct_only_tool() {
    let (story, _sent, runs) = openai(AllowedCallers::Direct).await;
    assert_eq!(runs, 0);
    let refusals: Vec<&ToolResponse> = story.responses.iter().flatten().collect();
    assert_eq!(refusals.len(), 2);
    assert!(refusals
        .iter()
        .all(|r| r.error_code() == Some(ToolErrorCode::PermissionDenied)));
}
