//! Google's Interactions API through the public runner API, against a loopback fake that
//! answers in the official google-genai SDK's interactions response types and whose every
//! request is checked with that SDK's request types (`CreateModelInteractionParams`): a
//! basic run, parallel calls, stateless and stateful history, text streamed before the tools
//! run, usage over the interactions, and a failed tool's result.

use serde_json::{json, Value};
use tool_core::model::{GeminiInteractions, Message, Model, ModelTurn, Reasoning, Usage};
use tool_core::runner::{RunEvent, RunOptions, Runner};
use tool_core::{CallFuture, Tool, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse};
use wiremock::ResponseTemplate;

use crate::conformance::interactions::{events, interaction_id, sse, steps, whole, MODEL};
use crate::conformance::Turn;
use crate::http_support::{
    assert_sdk_accepts, assert_sdk_types, registry, requests, server, test_endpoint, INSTRUCTIONS,
    USER,
};

const ROUTE: &str = "/v1/interactions";
const THOUGHT: &str = "Two cities: I will call get_weather for each.";

fn model(uri: &str, stream: bool, store: bool) -> Box<dyn Model> {
    Box::new(
        GeminiInteractions::new(MODEL)
            .with_api_key("test-key")
            .with_store(store)
            .with_endpoint(|e| test_endpoint(e, format!("{uri}/v1")).with_stream(stream)),
    )
}

fn respond(turn: &Turn, stream: bool) -> ResponseTemplate {
    if stream {
        ResponseTemplate::new(200)
            .set_body_raw(sse(turn).concat().into_bytes(), "text/event-stream")
    } else {
        ResponseTemplate::new(200).set_body_json(whole(turn))
    }
}

fn two_calls() -> Turn {
    Turn::call("call_paris", "get_weather", json!({"city": "Paris"}))
        .and_call("call_tokyo", "get_weather", json!({"city": "Tokyo"}))
        .with_text("Checking both cities.")
        .with_reasoning(THOUGHT)
}

const FINAL: &str = "Paris: 15 C and light rain. Tokyo: 22 C and sunny.";

/// Runs `turns` on a fake, streamed or not, stateful or not: the run's events, its result's
/// messages and usage, and the request bodies (each checked with the SDK's request types).
async fn run(
    turns: &[Turn],
    stream: bool,
    store: bool,
    registry: ToolRegistry,
) -> (Vec<RunEvent>, tool_core::runner::Run, Vec<Value>) {
    let server = server(ROUTE, turns.iter().map(|t| respond(t, stream)).collect()).await;
    let runner = Runner::new(model(&server.uri(), stream, store), registry)
        .with_options(RunOptions::new().instructions(INSTRUCTIONS));
    let mut run = runner.run_streamed(USER);
    let mut seen = Vec::new();
    while let Some(event) = run.next_event().await {
        seen.push(event);
    }
    let run = run.take_run().expect("the run is handed back");
    let received = requests(&server).await;
    for request in &received {
        assert_eq!(
            request
                .headers
                .get("x-goog-api-key")
                .and_then(|v| v.to_str().ok()),
            Some("test-key")
        );
    }
    assert_sdk_accepts(ROUTE, &received);
    let bodies = received
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("JSON"))
        .collect();
    (seen, run, bodies)
}

fn kinds(body: &Value) -> Vec<String> {
    body["input"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .filter_map(|s| s["type"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn finished(events: &[RunEvent]) -> bool {
    matches!(events.last(), Some(RunEvent::RunFinished { .. }))
}

#[tokio::test]
async fn the_fakes_answers_are_the_sdks_response_types() {
    let turns = [two_calls(), Turn::text(FINAL)];
    let wholes: Vec<Value> = turns.iter().map(whole).collect();
    assert_sdk_types("interactions_response", &wholes);
    let streamed: Vec<Value> = turns.iter().flat_map(events).collect();
    assert_sdk_types("interactions_event", &streamed);
}

#[tokio::test]
async fn basic_run_sends_the_documented_request_and_reads_the_answer() {
    for stream in [true, false] {
        let (registry, weather) = registry();
        let turns = [
            Turn::call("call_paris", "get_weather", json!({"city": "Paris"})),
            Turn::text(FINAL),
        ];
        let (events, run, bodies) = run(&turns, stream, true, registry).await;
        assert!(finished(&events), "stream={stream}: {events:?}");
        assert_eq!(weather.runs(), 1);
        assert_eq!(run.messages().len(), 4, "user, calls, results, answer");
        let first = &bodies[0];
        assert_eq!(first["model"], MODEL);
        assert_eq!(first["system_instruction"], INSTRUCTIONS);
        assert_eq!(
            first["input"],
            json!([{"type": "user_input", "content": [{"type": "text", "text": USER}]}])
        );
        assert_eq!(first["tools"][0]["type"], "function");
        assert_eq!(first["tools"][0]["name"], "get_weather");
        assert_eq!(first["tools"][0]["parameters"]["required"], json!(["city"]));
        assert_eq!(first["generation_config"]["tool_choice"], "auto");
        assert_eq!(first.get("stream").is_some(), stream);
        // Tools on every request.
        assert_eq!(bodies[1]["tools"], first["tools"]);
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                RunEvent::TextDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, FINAL, "stream={stream}");
    }
}

#[tokio::test]
async fn parallel_calls_are_answered_by_call_id_in_call_order() {
    for stream in [true, false] {
        let (registry, weather) = registry();
        let (_, _, bodies) = run(&[two_calls(), Turn::text(FINAL)], stream, true, registry).await;
        assert_eq!(weather.runs(), 2);
        assert_eq!(
            bodies[1]["input"],
            json!([
                {"type": "function_result", "call_id": "call_paris", "name": "get_weather",
                    "result": "15 C, light rain"},
                {"type": "function_result", "call_id": "call_tokyo", "name": "get_weather",
                    "result": "22 C, sunny"}
            ]),
            "stream={stream}"
        );
    }
}

#[tokio::test]
async fn stateful_history_names_the_latest_interaction_and_sends_only_what_is_new() {
    for stream in [true, false] {
        let turns = [
            Turn::call("call_paris", "get_weather", json!({"city": "Paris"})),
            Turn::call("call_tokyo", "get_weather", json!({"city": "Tokyo"})),
            Turn::text(FINAL),
        ];
        let (registry, _) = registry();
        let (_, _, bodies) = run(&turns, stream, true, registry).await;
        assert_eq!(bodies.len(), 3);
        assert!(bodies[0].get("previous_interaction_id").is_none());
        assert!(bodies.iter().all(|b| b.get("store").is_none()));
        assert_eq!(
            bodies[1]["previous_interaction_id"],
            interaction_id(&turns[0])
        );
        assert_eq!(
            bodies[2]["previous_interaction_id"],
            interaction_id(&turns[1])
        );
        assert_eq!(kinds(&bodies[1]), ["function_result"], "stream={stream}");
        assert_eq!(bodies[2]["input"][0]["call_id"], "call_tokyo");
    }
}

#[tokio::test]
async fn stateless_history_sends_everything_with_the_thought_signature_unchanged() {
    for stream in [true, false] {
        let (registry, _) = registry();
        let turns = [two_calls(), Turn::text(FINAL)];
        let server = server(ROUTE, turns.iter().map(|t| respond(t, stream)).collect()).await;
        let runner = Runner::new(model(&server.uri(), stream, false), registry).with_options(
            RunOptions::new()
                .instructions(INSTRUCTIONS)
                .reasoning(Reasoning::budget(2048)),
        );
        let result = runner.run(USER).await.expect("the run ends");
        assert_eq!(result.final_text().ok(), Some(FINAL));
        let received = requests(&server).await;
        assert_sdk_accepts(ROUTE, &received);
        let second: Value = serde_json::from_slice(&received[1].body).expect("JSON");
        assert_eq!(second["store"], false);
        assert!(second.get("previous_interaction_id").is_none());
        let mut expected = vec![json!({"type": "user_input",
            "content": [{"type": "text", "text": USER}]})];
        expected.extend(steps(&turns[0]));
        expected.push(json!({"type": "function_result", "call_id": "call_paris",
            "name": "get_weather", "result": "15 C, light rain"}));
        expected.push(json!({"type": "function_result", "call_id": "call_tokyo",
            "name": "get_weather", "result": "22 C, sunny"}));
        assert_eq!(second["input"], Value::Array(expected), "stream={stream}");
        assert_eq!(second["generation_config"]["thinking_summaries"], "auto");
        // Thought summaries are reasoning, never text.
        let turn: Vec<&ModelTurn> = result
            .messages()
            .iter()
            .filter_map(|m| match m {
                Message::Assistant(turn) => Some(turn),
                _ => None,
            })
            .collect();
        assert_eq!(turn[0].reasoning, THOUGHT);
        assert_eq!(turn[0].text, "Checking both cities.");
    }
}

#[tokio::test]
async fn streamed_text_arrives_before_the_tools_run() {
    let (registry, weather) = registry();
    let (events, _, _) = run(&[two_calls(), Turn::text(FINAL)], true, true, registry).await;
    assert_eq!(weather.runs(), 2);
    let first_tool = events
        .iter()
        .position(|e| {
            matches!(
                e,
                RunEvent::ToolResult { .. } | RunEvent::CallStarted { .. }
            )
        })
        .expect("the calls");
    let texts: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, RunEvent::TextDelta { text } if FINAL.find(text.as_str()).is_none()))
        .map(|(i, _)| i)
        .collect();
    assert!(texts.len() > 1, "the text streams in pieces: {events:?}");
    assert!(texts.iter().all(|&i| i < first_tool), "{events:?}");
    let reasoning: String = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::ReasoningDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, THOUGHT);
    // The first call came whole in its `step.start`, the second in `arguments_delta` pieces.
    let ready: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::CallReady { call, .. } => Some(call.arguments.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(ready, [r#"{"city":"Paris"}"#, r#"{"city":"Tokyo"}"#]);
}

#[tokio::test]
async fn usage_is_summed_over_the_interactions_from_the_apis_fields() {
    for stream in [true, false] {
        let turns = [two_calls(), Turn::text(FINAL)];
        let counts = [(120, 30, 10, 40), (200, 25, 100, 0)];
        let responses = turns
            .iter()
            .zip(counts)
            .map(|(turn, (input, output, cached, thought))| {
                let usage = json!({"total_input_tokens": input, "total_output_tokens": output,
                    "total_cached_tokens": cached, "total_thought_tokens": thought,
                    "total_tokens": input + output + thought});
                if stream {
                    let mut events = events(turn);
                    if let Some(last) = events.last_mut() {
                        last["interaction"]["usage"] = usage;
                    }
                    let body: String = events
                        .iter()
                        .map(|e| {
                            format!(
                                "event: {}\ndata: {e}\n\n",
                                e["event_type"].as_str().unwrap()
                            )
                        })
                        .collect();
                    // A `[DONE]` line after the last event is tolerated.
                    ResponseTemplate::new(200).set_body_raw(
                        format!("{body}data: [DONE]\n\n").into_bytes(),
                        "text/event-stream",
                    )
                } else {
                    let mut body = whole(turn);
                    body["usage"] = usage;
                    ResponseTemplate::new(200).set_body_json(body)
                }
            })
            .collect();
        let server = server(ROUTE, responses).await;
        let (registry, _) = registry();
        let runner = Runner::new(model(&server.uri(), stream, true), registry);
        let result = runner.run(USER).await.expect("the run ends");
        let usage = result.usage();
        assert_eq!(
            usage,
            Usage {
                input_tokens: 320,
                output_tokens: 30 + 40 + 25,
                cached_input_tokens: 110,
                reasoning_tokens: 40,
            },
            "stream={stream}"
        );
        assert_sdk_accepts(ROUTE, &requests(&server).await);
    }
}

/// `get_weather` that fails for Tokyo.
struct Flaky;

impl Tool for Flaky {
    fn name(&self) -> &str {
        "get_weather"
    }
    fn description(&self) -> &str {
        "Current weather for a city."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        CallFuture::ready(if arguments.contains("Tokyo") {
            ToolResponse::error(ToolErrorCode::Unknown, "the Tokyo station is offline")
        } else {
            ToolResponse::success("15 C, light rain")
        })
    }
}

#[tokio::test]
async fn a_failed_tool_is_a_result_with_is_error_and_only_it() {
    let registry = ToolRegistry::new().with(Flaky);
    let (_, _, bodies) = run(&[two_calls(), Turn::text(FINAL)], true, true, registry).await;
    let results = bodies[1]["input"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), 2, "{}", bodies[1]);
    assert!(results[0].get("is_error").is_none(), "{}", results[0]);
    assert_eq!(results[1]["is_error"], true);
    assert_eq!(results[1]["call_id"], "call_tokyo");
    assert!(
        results[1]["result"]
            .as_str()
            .is_some_and(|r| r.contains("offline")),
        "{}",
        results[1]
    );
}
