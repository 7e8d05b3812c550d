//! A call starts mid-stream: the server streams a turn of two calls up to the end of the
//! first, then holds the rest of the stream until the first call's tool has run (at most a
//! second). The tool runs while the model is still streaming (after `RunEvent::CallReady`),
//! each call runs once, and the results go back in the model's order.
//!
//! wiremock sends a body at once, so this row's server is the tests' stalling server, which
//! writes the stream in two parts.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tool_core::runner::{RunEvent, RunOptions, Runner};
use tool_core::ToolRegistry;

use super::apis::TEXT_PIECE;
use super::harness::*;
use super::sse::render_sse;
use super::whole::text_mode_reply;
use super::{Api, Seen, Turn, Verdict};
use crate::http_support::held::{stalling_server, Held, HeldSeen, SignallingWeather};

/// The number of events of turn one's stream that complete its first call.
fn first_call_end(api: Api, turn: &Turn, events: &[String]) -> usize {
    if api.is_text_mode() {
        let reply = text_mode_reply(api, turn);
        let close = if api == Api::TextUseTool {
            "</use_tool>"
        } else {
            "</tool_call>"
        };
        let end = reply.find(close).expect("a call") + close.len();
        // The role chunk, then one chunk per piece of the reply.
        return 1 + (end - 1) / TEXT_PIECE + 1;
    }
    let marker = if api == Api::Gemini {
        "Tokyo"
    } else {
        "\"w2\""
    };
    events
        .iter()
        .position(|e| e.contains(marker))
        .expect("the second call is in the stream")
}

/// Turn one's stream up to the end of its first call, and the rest; the other turns whole.
fn held_responses(api: Api, turns: &[Turn]) -> Vec<Held> {
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| {
            let events = render_sse(api, turn);
            let cut = if i == 0 {
                first_call_end(api, turn, &events)
            } else {
                0
            };
            Held {
                first: events[..cut].concat(),
                rest: events[cut..].concat(),
            }
        })
        .collect()
}

pub async fn scenario(api: Api) -> Seen {
    let turns = vec![
        Turn::call("w1", "get_weather", json!({"city": "Paris"}))
            .and_call("w2", "get_weather", json!({"city": "Tokyo"}))
            .with_text("Checking both."),
        Turn::text(FINAL),
    ];
    let tool = SignallingWeather::default();
    let held = Arc::new(HeldSeen::default());
    let root = stalling_server(
        held_responses(api, &turns),
        Arc::clone(&tool.ran),
        Arc::clone(&held),
        Duration::from_secs(1),
    )
    .await;

    let runner = Runner::new(
        api.model(&root, true),
        ToolRegistry::new().with(tool.clone()),
    )
    .with_options(RunOptions::new());
    let (events, run) = streamed(&runner, QUESTION).await;
    assert!(
        held.released_by_tool(),
        "{api:?}: the first call's tool did not run before the model's stream ended: {events:?}"
    );
    assert!(
        matches!(last(&events), RunEvent::RunFinished { .. }),
        "{api:?}: {:?}",
        last(&events)
    );
    assert_eq!(tool.cities().len(), 2, "{api:?}: each call runs once");
    let first = turn_events(&events, 1);
    let ready = first
        .iter()
        .position(|e| matches!(e, RunEvent::CallReady { index: 0, .. }));
    let finished = first.len() - 1;
    assert!(ready.is_some_and(|r| r < finished), "{api:?}: {first:?}");
    let results: Vec<String> = results(run.messages())
        .into_iter()
        .map(|(_, _, r)| r.model_text().to_string())
        .collect();
    assert_eq!(results, ["15 C, light rain", "22 C, sunny"], "{api:?}");

    let mut seen = Seen::new();
    let route = api.route(true);
    let bodies = held.bodies();
    assert_eq!(bodies.len(), 2, "{api:?}");
    seen.sent.extend(bodies.into_iter().map(|b| (route, b)));
    seen.saw(Verdict::Yes)
}
