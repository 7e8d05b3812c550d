//! With the provider's own tool search (Anthropic, OpenAI Responses), a deferred tool is
//! callable once the provider's search has returned it, in that turn or an earlier one (also
//! after the run was stored and restored). A call of a deferred tool no search returned is
//! answered with the same `NOT_FOUND` error the run's own `search_tools` path gives, and the
//! tool never runs. Driven through the runner over loopback HTTP, streamed and whole, every
//! request checked against the official SDK's request types.
//!
//! The recorded traffic is `http_tool_search.rs`'s: vercel/ai's claude-sonnet-4-5 session
//! (`tool_search_anthropic_turn{1,2,3}.sse`, and the whole response copied there) and its
//! gpt-5.4 stream (`tool_search_openai_responses_turn1.sse`). The refusals rename the call of
//! the tool found to another deferred tool, which the search did not return.

use std::sync::atomic::Ordering;

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Message, Model, ModelTurn, OpenAiResponses, ScriptedModel};
use tool_core::runner::{ApprovalPolicy, Run, RunEvent, RunOptions, RunOutcome, Runner};
use tool_core::{ToolCall, ToolErrorCode, ToolResponse};
use wiremock::{Request, ResponseTemplate};

use crate::http_support::{self, fixture, requests, server, sse};
use crate::http_tool_search::{note_tools, registry, whole_search_response};

const ANTHROPIC: &str = "/v1/messages";
const RESPONSES: &str = "/v1/responses";

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

fn anthropic(base: String) -> Box<dyn Model> {
    Box::new(
        Anthropic::new("claude-sonnet-4-5-20250929")
            .with_api_key("sk-ant-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn anthropic_whole(base: String) -> Box<dyn Model> {
    Box::new(
        Anthropic::new("claude-sonnet-4-5-20250929")
            .with_api_key("sk-ant-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(false)),
    )
}

fn responses(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiResponses::new("gpt-5.4")
            .with_api_key("sk-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn responses_whole(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiResponses::new("gpt-5.4")
            .with_api_key("sk-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(false)),
    )
}

/// What one run did: each tool's runs, every tool result event, the run, the requests.
struct Outcome {
    runs: Vec<usize>,
    results: Vec<(String, String, ToolResponse)>,
    run: Run,
    sent: Vec<Request>,
}

impl Outcome {
    /// The result events of one call.
    fn results_of(&self, id: &str) -> Vec<&ToolResponse> {
        self.results
            .iter()
            .filter(|(call, _, _)| call == id)
            .map(|(_, _, response)| response)
            .collect()
    }
}

/// Runs `user` through the runner against a server answering with `replies`, the tools of
/// `tools` registered, until the run ends or pauses.
async fn run(
    route: &str,
    model: fn(String) -> Box<dyn Model>,
    tools: &[(&str, &str, Value, bool)],
    replies: Vec<ResponseTemplate>,
    user: &str,
) -> Outcome {
    let server = server(route, replies).await;
    let (registry, counters) = registry(tools);
    let runner = Runner::new(model(format!("{}/v1", server.uri())), registry);
    let mut stream = runner.run_streamed(user);
    let events = collect(&mut stream).await;
    let run = stream.take_run().expect("the run is handed back");
    finish(route, &server, &counters, events, run).await
}

async fn collect(stream: &mut tool_core::runner::RunStream<'_>) -> Vec<RunEvent> {
    let mut events = Vec::new();
    while let Some(event) = stream.next_event().await {
        events.push(event);
    }
    assert!(
        matches!(events.last(), Some(RunEvent::RunFinished { .. })),
        "{:?}",
        events.last()
    );
    events
}

async fn finish(
    route: &str,
    server: &wiremock::MockServer,
    counters: &[std::sync::Arc<std::sync::atomic::AtomicUsize>],
    events: Vec<RunEvent>,
    run: Run,
) -> Outcome {
    let sent = requests(server).await;
    http_support::assert_sdk_accepts(route, &sent);
    Outcome {
        runs: counters.iter().map(|c| c.load(Ordering::SeqCst)).collect(),
        results: tool_results(events),
        run,
        sent,
    }
}

fn tool_results(events: Vec<RunEvent>) -> Vec<(String, String, ToolResponse)> {
    events
        .into_iter()
        .filter_map(|event| match event {
            RunEvent::ToolResult {
                call_id,
                name,
                response,
            } => Some((call_id, name, response)),
            _ => None,
        })
        .collect()
}

/// What the run's own `search_tools` path answers a model (without a search of its own)
/// that calls the deferred tool `name` before any search found it.
async fn local_refusal(tools: &[(&str, &str, Value, bool)], name: &str) -> ToolResponse {
    let (registry, counters) = registry(tools);
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![ToolCall::new("c1", name, "{}")]),
        ModelTurn::text("Done."),
    ]);
    let result = Runner::new(model, registry)
        .run("x")
        .await
        .expect("the run ends");
    assert!(counters.iter().all(|c| c.load(Ordering::SeqCst) == 0));
    match &result.messages()[2] {
        Message::Tool { results } => results[0].response.clone(),
        other => panic!("the results follow the call: {other:?}"),
    }
}

/// The call was answered once, with exactly the local path's refusal.
async fn assert_refused(outcome: &Outcome, tools: &[(&str, &str, Value, bool)], id: &str) {
    let name = outcome
        .results
        .iter()
        .find(|(call, _, _)| call == id)
        .map(|(_, name, _)| name.clone())
        .expect("the refused call has a result");
    let refusal = local_refusal(tools, &name).await;
    assert_eq!(refusal.error_code(), Some(ToolErrorCode::NotFound));
    assert!(refusal.model_text().contains("is not loaded yet"));
    assert_eq!(outcome.results_of(id), [&refusal], "one result, the same");
}

fn anthropic_turns() -> [String; 3] {
    [1, 2, 3].map(|i| fixture(&format!("tool_search_anthropic_turn{i}.sse")))
}

/// The call of turn two names `deleteNote`, deferred and not returned by the search.
fn anthropic_turn2_wrong_tool(turn2: &str) -> String {
    let found = r#""name":"executeEditorOperation","input":{}"#;
    assert!(turn2.contains(found));
    turn2.replace(found, r#""name":"deleteNote","input":{}"#)
}

#[tokio::test]
async fn anthropic_streamed_a_deferred_tool_the_search_did_not_return_never_runs() {
    let [turn1, turn2, turn3] = anthropic_turns();
    let replies = vec![
        sse(turn1),
        sse(anthropic_turn2_wrong_tool(&turn2)),
        sse(turn3),
    ];
    let tools = note_tools();
    let outcome = run(ANTHROPIC, anthropic, &tools, replies, "Add 'bye'.").await;
    // readNoteTree (not deferred) ran; nothing deferred did.
    assert_eq!(outcome.runs, [1, 0, 0, 0]);
    assert_refused(&outcome, &tools, "toolu_01QoRrvXNv6w4vZSyo9cnxP2").await;
    assert_eq!(outcome.run.loaded_tools(), ["executeEditorOperation"]);
    // The model read the refusal as an error result.
    let third = body(&outcome.sent[2]);
    let result = &third["messages"][4]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_01QoRrvXNv6w4vZSyo9cnxP2");
    assert_eq!(result["is_error"], true);
}

#[tokio::test]
async fn anthropic_streamed_the_tool_the_search_returned_runs() {
    let replies = anthropic_turns().map(sse).to_vec();
    let outcome = run(ANTHROPIC, anthropic, &note_tools(), replies, "Add 'bye'.").await;
    assert_eq!(outcome.runs, [1, 1, 0, 0]);
    let result = outcome.results_of("toolu_01QoRrvXNv6w4vZSyo9cnxP2");
    assert_eq!(result.len(), 1);
    assert!(!result[0].is_error());
}

/// Loaded in turn two; the run is stored while a person approves, restored, and the tool is
/// called again in turn three without a new search returning it: it runs.
#[tokio::test]
async fn anthropic_what_the_search_loaded_survives_storing_the_run() {
    let [turn1, turn2, turn4] = anthropic_turns();
    // Turn three: turn two again with new ids, its search returning another tool.
    let turn3 = turn2
        .replace(
            r#""tool_name":"executeEditorOperation""#,
            r#""tool_name":"shareNote""#,
        )
        .replace("toolu_01QoRrvXNv6w4vZSyo9cnxP2", "toolu_03Again")
        .replace("msg_014CbStN8SFzjGbDkZzTtD7i", "msg_03Again");
    assert_ne!(turn3, turn2);
    let server = server(
        ANTHROPIC,
        vec![sse(turn1), sse(turn2), sse(turn3), sse(turn4)],
    )
    .await;
    let (registry, counters) = registry(&note_tools());
    let options =
        RunOptions::new().approval(ApprovalPolicy::Tools(vec!["executeEditorOperation".into()]));
    let runner =
        Runner::new(anthropic(format!("{}/v1", server.uri())), registry).with_options(options);
    let mut stream = runner.run_streamed("Add 'bye'.");
    let mut events = collect(&mut stream).await;
    let mut run = stream.take_run().expect("the run is handed back");
    let mut pauses = 0;
    while let Some(RunEvent::RunFinished {
        outcome: RunOutcome::AwaitingApproval { calls },
        ..
    }) = events.last().cloned()
    {
        pauses += 1;
        assert_eq!(calls[0].name, "executeEditorOperation");
        // Stored and restored, as an application does while a person decides.
        let mut restored: Run =
            serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
        let loaded = ["executeEditorOperation", "shareNote"];
        assert_eq!(restored.loaded_tools(), &loaded[..pauses]);
        restored.approve(&calls[0].id).unwrap();
        let mut stream = runner.resume_streamed(restored, Default::default());
        events.extend(collect(&mut stream).await);
        run = stream.take_run().expect("the run is handed back");
    }
    assert_eq!(pauses, 2);
    let outcome = finish(ANTHROPIC, &server, &counters, events, run).await;
    assert_eq!(outcome.runs, [1, 2, 0, 0]);
    for id in ["toolu_01QoRrvXNv6w4vZSyo9cnxP2", "toolu_03Again"] {
        let result = outcome.results_of(id);
        assert_eq!(result.len(), 1, "{id}");
        assert!(!result[0].is_error(), "{id}: {:?}", result[0]);
    }
}

fn weather_tools() -> Vec<(&'static str, &'static str, Value, bool)> {
    let location = json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]});
    vec![
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
    ]
}

fn anthropic_final() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "msg_01Final", "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 1800, "output_tokens": 12}}))
}

#[tokio::test]
async fn anthropic_whole_only_the_tool_the_search_returned_runs() {
    let tools = weather_tools();
    let found = whole_search_response();
    let replies = vec![
        ResponseTemplate::new(200).set_body_json(found.clone()),
        anthropic_final(),
    ];
    let outcome = run(ANTHROPIC, anthropic_whole, &tools, replies, "Weather?").await;
    assert_eq!(outcome.runs, [0, 1, 0]);

    let mut wrong = found;
    wrong["content"][4]["name"] = json!("get_forecast");
    let replies = vec![
        ResponseTemplate::new(200).set_body_json(wrong),
        anthropic_final(),
    ];
    let outcome = run(ANTHROPIC, anthropic_whole, &tools, replies, "Weather?").await;
    assert_eq!(outcome.runs, [0, 0, 0]);
    assert_refused(&outcome, &tools, "toolu_01PFQG18bVLaXcEaCxTZtX4G").await;
}

/// The recording's three deferred functions, as its echoed request lists them.
fn responses_tools() -> Vec<(&'static str, &'static str, Value, bool)> {
    let object = json!({"type": "object", "properties": {}});
    vec![
        (
            "get_weather",
            "Get the current weather at a specific location",
            object.clone(),
            true,
        ),
        (
            "search_files",
            "Search through files in the workspace",
            object.clone(),
            true,
        ),
        ("send_email", "Send an email to a recipient", object, true),
    ]
}

const RESPONSES_CALL: &str = "call_pddfxhfOx4gY56zn4vIIEbFp";

/// The call of the recording names `send_email`, deferred and not returned by the search.
fn responses_wrong_tool(turn: &str) -> String {
    let found = r#""name":"get_weather","namespace":"get_weather""#;
    assert!(turn.contains(found));
    turn.replace(found, r#""name":"send_email","namespace":"send_email""#)
}

#[tokio::test]
async fn responses_streamed_only_the_tool_the_search_returned_runs() {
    let tools = responses_tools();
    let turn1 = fixture("tool_search_openai_responses_turn1.sse");
    let final_turn = || sse(fixture("openai_responses_turn2.sse"));
    let replies = vec![sse(turn1.clone()), final_turn()];
    let outcome = run(RESPONSES, responses, &tools, replies, "Weather in SF?").await;
    assert_eq!(outcome.runs, [1, 0, 0]);
    assert_eq!(outcome.results_of(RESPONSES_CALL).len(), 1);
    assert_eq!(outcome.run.loaded_tools(), ["get_weather"]);

    let replies = vec![sse(responses_wrong_tool(&turn1)), final_turn()];
    let outcome = run(RESPONSES, responses, &tools, replies, "Weather in SF?").await;
    assert_eq!(outcome.runs, [0, 0, 0]);
    assert_refused(&outcome, &tools, RESPONSES_CALL).await;
    let second = body(&outcome.sent[1]);
    let output = second["input"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["type"] == "function_call_output")
        .unwrap();
    assert_eq!(output["call_id"], RESPONSES_CALL);
}

/// The recording's `response.completed` response, as a whole (non-streamed) response.
fn responses_whole_body(turn: &str) -> Value {
    turn.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["type"] == "response.completed")
        .map(|e| e["response"].clone())
        .expect("the recording completes")
}

fn responses_final() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "resp_final", "object": "response",
        "status": "completed", "model": "gpt-5.4",
        "output": [{"type": "message", "id": "msg_final", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}],
        "usage": {"input_tokens": 900, "output_tokens": 5, "total_tokens": 905}}))
}

#[tokio::test]
async fn responses_whole_only_the_tool_the_search_returned_runs() {
    let tools = responses_tools();
    let turn1 = fixture("tool_search_openai_responses_turn1.sse");
    let found = responses_whole_body(&turn1);
    assert_eq!(found["output"][1]["type"], "tool_search_output");
    let replies = vec![
        ResponseTemplate::new(200).set_body_json(found),
        responses_final(),
    ];
    let outcome = run(RESPONSES, responses_whole, &tools, replies, "Weather?").await;
    assert_eq!(outcome.runs, [1, 0, 0]);

    let wrong = responses_whole_body(&responses_wrong_tool(&turn1));
    let replies = vec![
        ResponseTemplate::new(200).set_body_json(wrong),
        responses_final(),
    ];
    let outcome = run(RESPONSES, responses_whole, &tools, replies, "Weather?").await;
    assert_eq!(outcome.runs, [0, 0, 0]);
    assert_refused(&outcome, &tools, RESPONSES_CALL).await;
}

/// A tool that is not deferred is always callable, with no search at all.
#[tokio::test]
async fn a_tool_that_is_not_deferred_needs_no_search() {
    let replies = anthropic_turns().map(sse).to_vec();
    let mut tools = note_tools();
    // No tool is deferred: readNoteTree and executeEditorOperation run as called.
    for tool in &mut tools {
        tool.3 = false;
    }
    let outcome = run(ANTHROPIC, anthropic, &tools, replies, "Add 'bye'.").await;
    assert_eq!(outcome.runs, [1, 1, 0, 0]);
}
