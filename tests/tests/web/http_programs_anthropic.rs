//! Anthropic's programmatic tool calling through the runner, over loopback HTTP, streamed and
//! whole: the code execution tool (`code_execution_20260120`) is offered beside the tools its
//! programs may call, which name it in `allowed_callers` (a direct-only tool names nothing);
//! the response's container is named on every later request, also after the run was stored
//! and resumed; a `pause_turn` response goes back unchanged as the last message and the run
//! continues; each assistant turn goes back as it came (`server_tool_use`, `tool_use` with
//! its `caller`, `code_execution_tool_result`); the program's calls are answered by a user
//! message of `tool_result` blocks only; the direct-only tool called by the program is
//! refused and never runs; a request refused because the container expired fails with an
//! error that names the container and says what to do.
//!
//! The responses are written here in the shapes of anthropic-sdk-python 2.10's `Message`,
//! `RawMessageStreamEvent`s, `ServerToolUseBlock`, `ToolUseBlock` with a
//! `ServerToolCaller20260120`, `CodeExecutionToolResultBlock` and `Container`, and streamed as
//! vercel/ai's recorded programmatic session streams them
//! (`tests/fixtures/http/callers_anthropic_turn*.sse`): a program's call whole in its
//! `content_block_start`, the container in `message_delta`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::Anthropic;
use tool_core::runner::{ApprovalPolicy, Run, RunOptions, RunOutcome, Runner};
use tool_core::{AllowedCallers, ToolRegistry};
use wiremock::{Request, ResponseTemplate};

use crate::http_support::counted::Counted;
use crate::http_support::{self, requests, server};

const ROUTE: &str = "/v1/messages";
const MODEL: &str = "claude-opus-4-6";
const CONTAINER: &str = "container_011CWnfTY8n2Q5vBrVQpGo1a";
const FIRST_PROGRAM: &str = "srvtoolu_01Ff2wVvGm7fD4VeH3nJ6tDa";
const PROGRAM: &str = "srvtoolu_01QmV3kq8yLC5Tts7TDnoYb1";
const CALLER: &str = "code_execution_20260120";
const ANSWER: &str = "The three orders total 42 units.";

/// A counted tool of this session (see `http_support::counted`).
fn counted(name: &'static str, allowed: AllowedCallers, runs: &Arc<AtomicUsize>) -> Counted {
    Counted {
        name,
        description: "A tool of the order desk.",
        schema: json!({"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]}),
        allowed,
        result: "14".to_owned(),
        runs: Arc::clone(runs),
    }
}

/// `count_units` (programs only) and `refund_order` (direct calls only, the default), and
/// how many times each ran.
fn registry() -> (ToolRegistry, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let (program, direct) = (Arc::default(), Arc::default());
    let registry = ToolRegistry::new()
        .with(counted("count_units", AllowedCallers::Program, &program))
        .with(counted("refund_order", AllowedCallers::Direct, &direct));
    (registry, program, direct)
}

fn message(id: &str, content: Value, stop_reason: &str) -> Value {
    json!({"id": id, "type": "message", "role": "assistant", "model": MODEL, "content": content,
        "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": 1200, "output_tokens": 80},
        "container": {"id": CONTAINER, "expires_at": "2026-12-07T21:35:12.345678Z"}})
}

fn program_call(id: &str, name: &str, order: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": {"order": order},
        "caller": {"type": CALLER, "tool_id": PROGRAM}})
}

/// The pause: a first program ran to its end, a second one started, and Claude paused the
/// turn while it runs.
fn paused() -> Value {
    message(
        "msg_01Pause",
        json!([
            {"type": "server_tool_use", "id": FIRST_PROGRAM, "name": "code_execution",
                "input": {"code": "print(len(['A-1', 'A-2', 'A-3']))"}, "caller": {"type": "direct"}},
            {"type": "code_execution_tool_result", "tool_use_id": FIRST_PROGRAM,
                "content": {"type": "code_execution_result", "stdout": "3\n", "stderr": "",
                    "return_code": 0, "content": []}},
            {"type": "text", "text": "Three orders; counting their units in code."},
            {"type": "server_tool_use", "id": PROGRAM, "name": "code_execution",
                "input": {"code": "total = 0\nfor o in ['A-1', 'A-2', 'A-3']:\n    total += int(await count_units({'order': o}))\nawait refund_order({'order': 'A-1'})\nprint(total)"},
                "caller": {"type": "direct"}}
        ]),
        "pause_turn",
    )
}

/// The program's calls: one of the program-only tool, one of the direct-only tool.
fn calls() -> Value {
    message(
        "msg_01Calls",
        json!([
            program_call("toolu_01Count", "count_units", "A-1"),
            program_call("toolu_01Refund", "refund_order", "A-1")
        ]),
        "tool_use",
    )
}

fn answer() -> Value {
    message(
        "msg_01Answer",
        json!([{"type": "text", "text": ANSWER}]),
        "end_turn",
    )
}

/// A whole message as Messages streams it.
fn as_sse(message: &Value) -> String {
    let mut start = message.clone();
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    if let Some(map) = start.as_object_mut() {
        map.remove("container");
    }
    let mut events = vec![json!({"type": "message_start", "message": start})];
    for (index, block) in message["content"].as_array().unwrap().iter().enumerate() {
        let delta =
            |delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
        match block["type"].as_str().unwrap() {
            "text" => {
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "text", "text": ""}}));
                events.push(delta(json!({"type": "text_delta", "text": block["text"]})));
            }
            "server_tool_use" => {
                let mut opened = block.clone();
                opened["input"] = json!({});
                events.push(
                    json!({"type": "content_block_start", "index": index, "content_block": opened}),
                );
                let input = block["input"].to_string();
                let (a, b) = input.split_at(input.len() / 2);
                for piece in ["", a, b] {
                    events.push(delta(
                        json!({"type": "input_json_delta", "partial_json": piece}),
                    ));
                }
            }
            _ => events.push(
                json!({"type": "content_block_start", "index": index, "content_block": block}),
            ),
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": null,
            "container": message["container"]},
        "usage": {"output_tokens": 80}}));
    events.push(json!({"type": "message_stop"}));
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

fn respond(message: &Value, stream: bool) -> ResponseTemplate {
    if stream {
        http_support::sse(as_sse(message))
    } else {
        ResponseTemplate::new(200).set_body_json(message)
    }
}

fn model(base: String, stream: bool) -> Anthropic {
    Anthropic::new(MODEL)
        .with_api_key("sk-ant-test")
        .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(stream))
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// What every request of the session shows: the code execution tool offered last, the
/// program-only tool naming it, the direct-only tool naming no caller.
fn assert_offered(body: &Value) {
    let tools = body["tools"].as_array().expect("tools");
    assert_eq!(
        tools.last(),
        Some(&json!({"type": CALLER, "name": "code_execution"}))
    );
    assert_eq!(tools[0]["name"], "count_units");
    assert_eq!(tools[0]["allowed_callers"], json!([CALLER]));
    assert_eq!(tools[1]["name"], "refund_order");
    assert!(tools[1].get("allowed_callers").is_none(), "{}", tools[1]);
}

/// The three requests of the session: what went back and how the program's calls were
/// answered.
fn assert_session(sent: &[Request]) {
    assert_eq!(sent.len(), 3);
    http_support::assert_sdk_accepts(ROUTE, sent);
    let bodies: Vec<Value> = sent.iter().map(body).collect();
    for body in &bodies {
        assert_offered(body);
    }
    // The first request names no container; every later one names the response's.
    assert!(bodies[0].get("container").is_none());
    assert_eq!(bodies[1]["container"], CONTAINER);
    assert_eq!(bodies[2]["container"], CONTAINER);
    // The paused turn goes back unchanged as the last message, nothing after it.
    let resumed = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(resumed.len(), 2);
    assert_eq!(
        resumed[1],
        json!({"role": "assistant", "content": paused()["content"]})
    );
    // Every assistant turn goes back as it came; the program's calls are answered by one
    // user message of tool_result blocks only, the direct-only tool's refused.
    let last = bodies[2]["messages"].as_array().unwrap();
    assert_eq!(last.len(), 4);
    assert_eq!(last[1], resumed[1]);
    assert_eq!(
        last[2],
        json!({"role": "assistant", "content": calls()["content"]})
    );
    assert_eq!(last[3]["role"], "user");
    let results = last[3]["content"].as_array().unwrap();
    assert!(results.iter().all(|b| b["type"] == "tool_result"));
    let ids: Vec<&str> = results
        .iter()
        .map(|b| b["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["toolu_01Count", "toolu_01Refund"]);
    assert_eq!(results[0]["content"], "14");
    assert!(results[0].get("is_error").is_none());
    assert_eq!(results[1]["is_error"], true);
    assert!(results[1]["content"]
        .as_str()
        .unwrap()
        .contains("only be called by you directly"));
}

async fn session(stream: bool) {
    let server = server(
        ROUTE,
        vec![
            respond(&paused(), stream),
            respond(&calls(), stream),
            respond(&answer(), stream),
        ],
    )
    .await;
    let (registry, program, direct) = registry();
    let runner = Runner::new(model(format!("{}/v1", server.uri()), stream), registry);
    let result = runner.run("How many units do my orders hold?").await;
    let result = result.unwrap_or_else(|e| panic!("stream={stream}: {e}"));
    assert_eq!(result.final_text().ok(), Some(ANSWER));
    assert_eq!(program.load(Ordering::SeqCst), 1);
    assert_eq!(
        direct.load(Ordering::SeqCst),
        0,
        "a direct-only tool ran for a program"
    );
    assert_session(&requests(&server).await);
}

#[tokio::test]
async fn a_streamed_program_session_keeps_its_container_and_continues_after_a_pause() {
    session(true).await;
}

#[tokio::test]
async fn a_whole_program_session_keeps_its_container_and_continues_after_a_pause() {
    session(false).await;
}

#[tokio::test]
async fn a_stored_and_resumed_run_still_names_the_container() {
    let server = server(
        ROUTE,
        vec![
            respond(&paused(), true),
            respond(&calls(), true),
            respond(&answer(), true),
        ],
    )
    .await;
    let base = format!("{}/v1", server.uri());
    let (registry, program, direct) = registry();
    let registry = Arc::new(registry);
    let options = RunOptions::new().approval(ApprovalPolicy::Tools(vec!["count_units".into()]));
    let first =
        Runner::new(model(base.clone(), true), Arc::clone(&registry)).with_options(options.clone());
    let paused_run = first.run("How many units do my orders hold?").await;
    let paused_run = paused_run.expect("the run pauses for approval");
    assert!(matches!(
        paused_run.outcome,
        RunOutcome::AwaitingApproval { .. }
    ));
    // Stored as JSON, read back by another runner with a model that has seen nothing.
    let stored = serde_json::to_string(&paused_run.into_run()).expect("the run serializes");
    let mut run: Run = serde_json::from_str(&stored).expect("the run deserializes");
    run.approve("toolu_01Count").expect("the call is pending");
    let second = Runner::new(model(base, true), registry).with_options(options);
    let result = second.resume(run).await.expect("the resumed run ends");
    assert_eq!(result.final_text().ok(), Some(ANSWER));
    assert_eq!(
        (
            program.load(Ordering::SeqCst),
            direct.load(Ordering::SeqCst)
        ),
        (1, 0)
    );
    assert_session(&requests(&server).await);
}

#[tokio::test]
async fn an_expired_container_is_reported_with_what_to_do() {
    // The error envelope of the Messages API (anthropic-sdk-python's `ErrorResponse` with an
    // `InvalidRequestError`); the wording of the message is the test's.
    let expired = ResponseTemplate::new(400).set_body_json(json!({"type": "error",
        "error": {"type": "invalid_request_error",
            "message": format!("Container {CONTAINER} has expired and cannot be reused.")},
        "request_id": "req_011CWnfTY8n2Q5vBrVQpGo1b"}));
    let server = server(ROUTE, vec![respond(&calls(), true), expired]).await;
    let (registry, program, _) = registry();
    let runner = Runner::new(model(format!("{}/v1", server.uri()), true), registry);
    let started = std::time::Instant::now();
    let error = runner
        .run("How many units do my orders hold?")
        .await
        .expect_err("the run fails");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let model_error = error.model_error().expect("a model error");
    assert!(model_error.is_invalid_request() && !model_error.is_retryable());
    assert_eq!(model_error.status(), Some(400));
    let message = model_error.message();
    for says in [
        CONTAINER,
        "has expired",
        "send the conversation from before the assistant turn",
        "new container",
    ] {
        assert!(message.contains(says), "{says:?} not in {message:?}");
    }
    // The call before ran; the refused request named the container.
    assert_eq!(program.load(Ordering::SeqCst), 1);
    let sent = requests(&server).await;
    assert_eq!(body(&sent[1])["container"], CONTAINER);
    http_support::assert_sdk_accepts(ROUTE, &sent);
    let results = &body(&sent[1])["messages"][2]["content"];
    assert_eq!(results[0]["type"], "tool_result");
    let refusal = results[1]["content"].as_str().unwrap_or_default();
    assert!(
        refusal.contains("only be called by you directly"),
        "{refusal}"
    );
}
