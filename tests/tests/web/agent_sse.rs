//! The agent_sse example over loopback HTTP: its own axum app serves a real socket, a real
//! HTTP client reads the response, and an SSE parser splits it into events. Checks the order
//! and content of the event stream end to end.

#[path = "../../../examples/examples/agent_sse/app.rs"]
#[allow(dead_code)]
mod app;

use std::sync::Arc;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tool_core::runner::Runner;

async fn serve() -> String {
    let model = app::Paced {
        inner: app::scripted_model(),
        delay: Duration::from_millis(1),
    };
    let runner = Arc::new(Runner::new(model, app::registry()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app::router(runner)).await });
    format!("http://{addr}")
}

/// A plain HTTP client. The workspace builds reqwest without a default crypto provider
/// (tool-core's `http` feature installs its own on first use), so every client built here,
/// in whichever test runs first, needs one installed even for plain HTTP.
fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// Reads the whole event stream of one message: (event name, data JSON) pairs.
async fn chat(base: &str, message: &str) -> Vec<(String, Value)> {
    let response = client()
        .get(format!("{base}/chat"))
        .query(&[("q", message)])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut events = Vec::new();
    let mut stream = response.bytes_stream().eventsource();
    while let Some(event) = stream.next().await {
        let event = event.unwrap();
        let data: Value = serde_json::from_str(&event.data).unwrap();
        let last = matches!(event.event.as_str(), "run_finished" | "run_failed");
        events.push((event.event, data));
        if last {
            break;
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_carries_text_calls_cards_and_the_end_in_order() {
    let base = serve().await;
    let events = tokio::time::timeout(
        Duration::from_secs(20),
        chat(&base, "Recommend templates for a birthday party"),
    )
    .await
    .expect("the stream ends by itself");

    // Each event's name is its JSON's type.
    for (name, data) in &events {
        assert_eq!(data["type"], name.as_str());
    }
    // The order, with runs of the same event collapsed.
    let mut names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    names.dedup();
    assert_eq!(
        names,
        [
            "turn_started",
            "text_delta",
            "call_started",
            "arguments_delta",
            "call_ready",
            // The call starts as soon as it is complete, before the turn's end arrives.
            "tool_event",
            "tool_result",
            "turn_finished",
            "turn_started",
            "text_delta",
            "call_started",
            "arguments_delta",
            "call_ready",
            // The call starts as soon as it is complete, before the turn's end arrives.
            "tool_event",
            "tool_result",
            "turn_finished",
            "turn_started",
            "text_delta",
            "turn_finished",
            "run_finished",
        ]
    );

    // The text of each turn, streamed in pieces.
    let mut texts = vec![String::new()];
    for (name, data) in &events {
        match name.as_str() {
            "text_delta" => texts
                .last_mut()
                .unwrap()
                .push_str(data["text"].as_str().unwrap()),
            "turn_finished" => texts.push(String::new()),
            _ => {}
        }
    }
    assert_eq!(
        texts,
        [
            "Let me look through the templates.",
            "I found four; these three fit a birthday best.",
            "Pick a card to start editing it.",
            "",
        ]
    );
    assert!(
        events.iter().filter(|(n, _)| n == "text_delta").count() > 3,
        "text arrives in several deltas"
    );

    // The side channel: the search hits, then the three recommendations, as cards.
    let side: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "tool_event")
        .map(|(_, d)| d)
        .collect();
    assert_eq!(side[0]["call_id"], "call_1");
    assert_eq!(side[0]["event"]["kind"], "template_cards");
    assert_eq!(
        side[0]["event"]["data"]["cards"].as_array().unwrap().len(),
        4
    );
    assert_eq!(
        side[1]["event"],
        json!({"kind": "recommendation_cards", "data": {"cards": [
            {"title": "Balloon Bash", "reason": "Bright and playful."},
            {"title": "Neon Night", "reason": "For an evening party."},
            {"title": "Garden Brunch", "reason": "Calm and outdoors."}
        ]}})
    );

    // What the model read back, and the end of the run.
    let results: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "tool_result")
        .map(|(_, d)| &d["response"]["text"])
        .collect();
    assert_eq!(
        results,
        [
            "4 templates match 'birthday party': Balloon Bash, Garden Brunch, Neon Night, Retro Arcade",
            "Showed 3 recommendation cards to the user."
        ]
    );
    let (_, last) = events.last().unwrap();
    assert_eq!(
        last["outcome"],
        json!({"type": "finished", "text": "Pick a card to start editing it."})
    );
    assert_eq!(last["turns"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_listens_to_the_event_stream() {
    let base = serve().await;
    let page = tokio::time::timeout(Duration::from_secs(10), async {
        client()
            .get(&base)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    })
    .await
    .unwrap();
    assert!(page.contains("new EventSource(\"/chat?q=\""));
    for event in ["text_delta", "tool_event", "run_finished", "run_failed"] {
        assert!(page.contains(&format!("\"{event}\"")), "{event}");
    }
}
