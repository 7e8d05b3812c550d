//! Calls start while the model still streams, on Chat Completions and Gemini, over loopback
//! HTTP: a Chat call is ready once its arguments are one whole JSON object (before the next
//! call begins, before `finish_reason`), a Gemini call once its `functionCall` part arrives.
//! The stalled streams come from a small loopback server that sends the first part of a
//! recorded stream, then holds the rest until the tool has run (or two seconds passed), so
//! "the tool ran while the model was still streaming" is observed, not inferred from timing.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::Notify;
use tool_core::model::{Gemini, ModelEvent, OpenAiChat};
use tool_core::runner::{RunEvent, RunOutcome, Runner};
use tool_core::ToolRegistry;

use crate::http_support::held::{stalling_server, Held, HeldSeen, SignallingWeather};
use crate::http_support::{
    self, cut_before, fixture, one_turn, registry, server, sse, test_endpoint, FINAL_TEXT,
};

/// Runs `USER` through the runner against the stalling server; the run's events.
async fn run_stalled<M: tool_core::model::Model>(
    responses: Vec<Held>,
    make: impl FnOnce(String) -> M,
) -> (Vec<RunEvent>, Arc<HeldSeen>, Vec<String>) {
    let ran = Arc::new(Notify::new());
    let seen = Arc::new(HeldSeen::default());
    let base = stalling_server(
        responses,
        Arc::clone(&ran),
        Arc::clone(&seen),
        Duration::from_secs(2),
    )
    .await;
    let tool = SignallingWeather {
        cities: Arc::default(),
        ran,
    };
    let runner = Runner::new(make(base), ToolRegistry::new().with(tool.clone()));
    let events = runner
        .run_streamed(http_support::USER)
        .collect_events()
        .await;
    let cities = tool.cities();
    (events, seen, cities)
}

/// The idle limit is raised so that a stream held for two seconds (the code before early
/// start) still ends, and the test says what went wrong instead of timing out.
fn patient(e: tool_core::http::Endpoint, base: String) -> tool_core::http::Endpoint {
    test_endpoint(e, base).with_idle_timeout(Duration::from_secs(5))
}

fn finished_text(events: &[RunEvent]) -> Option<&str> {
    match events.last() {
        Some(RunEvent::RunFinished {
            outcome: RunOutcome::Finished { text },
            ..
        }) => Some(text),
        _ => None,
    }
}

fn position(events: &[RunEvent], wanted: impl Fn(&RunEvent) -> bool) -> usize {
    events
        .iter()
        .position(wanted)
        .unwrap_or_else(|| panic!("event not found in {events:#?}"))
}

/// The recorded OpenAI stream with two calls: the first call is ready as soon as its
/// arguments close, before the second call's first delta (and so before `finish_reason`).
#[tokio::test]
async fn a_chat_call_is_ready_before_the_next_call_begins() {
    let route = "/v1/chat/completions";
    let server = server(route, vec![sse(fixture("openai_chat_turn1.sse"))]).await;
    let model = OpenAiChat::new("gpt-4o")
        .with_api_key("sk-test")
        .with_endpoint(|e| test_endpoint(e, format!("{}/v1", server.uri())));
    let (registry, _) = registry();
    let messages = [tool_core::model::Message::user(http_support::USER)];
    let (events, turn) = one_turn(&model, &messages, &registry).await;
    let turn = turn.expect("the turn finishes");

    let at = |wanted: &dyn Fn(&ModelEvent) -> bool| {
        events
            .iter()
            .position(wanted)
            .unwrap_or_else(|| panic!("event not found in {events:#?}"))
    };
    let first_ready = at(&|e| matches!(e, ModelEvent::CallReady { index: 0, .. }));
    let second_started = at(&|e| matches!(e, ModelEvent::CallStarted { index: 1, .. }));
    let second_delta = at(&|e| matches!(e, ModelEvent::ArgumentsDelta { index: 1, .. }));
    assert!(
        first_ready < second_started && first_ready < second_delta,
        "call 0 was ready only at {first_ready}, after call 1 began at {second_started}: {events:#?}"
    );
    // The last fragment of call 0 closes its object: ready right after it.
    assert!(matches!(
        &events[first_ready - 1],
        ModelEvent::ArgumentsDelta { index: 0, delta } if delta == "is\"}"
    ));
    // Each call is ready exactly once, with the arguments of the finished turn.
    let ready = http_support::ready_calls(&events);
    assert_eq!(ready.len(), 2, "{events:#?}");
    for (index, id, arguments) in ready {
        assert_eq!(
            (&turn.calls[index].id, &turn.calls[index].arguments),
            (&id, &arguments)
        );
    }
}

/// DeepSeek's recorded stream with one call, held after the call's last argument fragment:
/// the tool runs while the model's stream is still open, once, and the run completes.
#[tokio::test]
async fn a_chat_call_runs_while_the_stream_is_still_open() {
    let recorded = fixture("reasoning_openai_chat_turn1.sse");
    let first = cut_before(&recorded, "\"finish_reason\":\"tool_calls\"");
    let rest = recorded[first.len()..].to_string();
    let responses = vec![
        Held { first, rest },
        Held {
            first: fixture("openai_chat_turn2.sse"),
            rest: String::new(),
        },
    ];
    let (events, seen, cities) = run_stalled(responses, |base| {
        OpenAiChat::compatible(format!("{base}/v1"), "deepseek-v4-flash", Some("sk-test"))
            .with_endpoint(|e| patient(e.clone(), e.base_url))
    })
    .await;

    assert_eq!(finished_text(&events), Some(FINAL_TEXT), "{events:#?}");
    assert!(
        seen.released_by_tool.load(Ordering::SeqCst),
        "the tool did not run while the stream was held open: {events:#?}"
    );
    assert_eq!(cities, ["San Francisco"], "the call ran once");
    let result = position(&events, |e| matches!(e, RunEvent::ToolResult { .. }));
    let turn_one = position(&events, |e| {
        matches!(e, RunEvent::TurnFinished { turn: 1, .. })
    });
    assert!(result < turn_one, "{events:#?}");
    let bodies = seen.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 2);
    assert_eq!(
        bodies[1]["messages"][2],
        json!({"role": "tool", "tool_call_id": "call_00_IhCAliIHtM9gKpgfqbBV9873", "content": "15 C"})
    );
    http_support::assert_sdk_accepts_bodies("/v1/chat/completions", &bodies);
}

/// The recorded Gemini stream with its two `functionCall` parts in two chunks, held after the
/// first: the first call runs before the second arrives; results go back in the model's order.
#[tokio::test]
async fn a_gemini_call_runs_when_its_part_arrives() {
    let recorded = fixture("gemini_turn1.sse");
    let mut first = String::new();
    let mut rest = String::new();
    for line in recorded.lines() {
        let Some(data) = line.trim_end().strip_prefix("data: ") else {
            continue;
        };
        let chunk: Value = serde_json::from_str(data).unwrap();
        let parts = chunk["candidates"][0]["content"]["parts"]
            .as_array()
            .unwrap();
        if parts.iter().any(|p| p.get("functionCall").is_some()) {
            // The recorded chunk holds both calls: one chunk each, the same envelope.
            let (mut paris, mut tokyo) = (chunk.clone(), chunk.clone());
            paris["candidates"][0]["content"]["parts"] = json!([parts[0]]);
            tokyo["candidates"][0]["content"]["parts"] = json!([parts[1]]);
            first.push_str(&format!("data: {paris}\r\n\r\n"));
            rest.push_str(&format!("data: {tokyo}\r\n\r\n"));
        } else if rest.is_empty() {
            first.push_str(&format!("data: {chunk}\r\n\r\n"));
        } else {
            rest.push_str(&format!("data: {chunk}\r\n\r\n"));
        }
    }
    let responses = vec![
        Held { first, rest },
        Held {
            first: fixture("gemini_turn2.sse"),
            rest: String::new(),
        },
    ];
    let (events, seen, cities) = run_stalled(responses, |base| {
        Gemini::new("gemini-2.5-flash")
            .with_api_key("test-key")
            .with_endpoint(|e| patient(e, format!("{base}/v1beta")))
    })
    .await;

    assert_eq!(finished_text(&events), Some(FINAL_TEXT), "{events:#?}");
    assert!(
        seen.released_by_tool.load(Ordering::SeqCst),
        "the first call did not run before the second part arrived: {events:#?}"
    );
    assert_eq!(
        cities,
        ["Paris", "Tokyo"],
        "each call ran once, Paris first"
    );
    let paris_result = position(
        &events,
        |e| matches!(e, RunEvent::ToolResult { call_id, .. } if call_id == "gemini_call_0_get_weather"),
    );
    let tokyo_ready = position(
        &events,
        |e| matches!(e, RunEvent::CallReady { index: 1, call } if call.id == "gemini_call_1_get_weather"),
    );
    assert!(paris_result < tokyo_ready, "{events:#?}");
    let bodies = seen.bodies.lock().unwrap().clone();
    let answers: Vec<&Value> = bodies[1]["contents"][2]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["functionResponse"]["name"])
        .collect();
    assert_eq!(answers, ["get_weather", "get_weather"]);
    // The model's turn goes back as it came: both calls, Paris with its signature, in order.
    let parts = &bodies[1]["contents"][1]["parts"];
    assert_eq!(parts[1]["functionCall"]["args"]["city"], "Paris");
    assert!(parts[1]["thoughtSignature"].is_string());
    assert_eq!(parts[2]["functionCall"]["args"]["city"], "Tokyo");
    http_support::assert_sdk_accepts_bodies(
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        &bodies,
    );
}
