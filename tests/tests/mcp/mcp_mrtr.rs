//! The same tools asking their client (sampling, elicitation, roots) on both protocol eras,
//! with rmcp's own client on the other end: a server-to-client request on a handshake-era
//! session (`initialize`, 2025-11-25), an `InputRequiredResult` and a retry on a 2026-07-28
//! session (`server/discover`). The tool's code is the same; on retry its earlier questions
//! get their answers replayed (`mcp_mrtr_state.rs`: the request state's checks).

#![cfg(feature = "mcp")]
#![allow(deprecated)] // sampling and roots: deprecated capabilities, still what we test.

use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::CallToolResponse;
use serde_json::json;
use tool_core::mcp::McpServer;
use tool_core::{tool, tools, Elicited, PeerError, SamplingRequest, ToolContext};
use tool_tests::mcp::asker::{ask, connect, retry, run, Client, Era};
use tool_tests::mcp::catalog::{self, UnitChoice};
use tool_tests::mcp::harness::{bounded, call, text};

#[tokio::test]
async fn the_same_tools_ask_on_both_eras_and_get_their_answers() {
    bounded(async {
        for era in [Era::Handshake, Era::Modern] {
            let client = Client::default();
            let counts = client.clone();
            let running = connect(catalog::server(), client, era).await;
            let version = running.peer().peer_info().unwrap().protocol_version.clone();
            assert_eq!(
                version.as_str() >= "2026-07-28",
                era == Era::Modern,
                "{era:?}: {version}"
            );

            let haiku = run(&running, "haiku", json!({"topic": "rain"})).await;
            assert_eq!(haiku, "echo: A haiku about rain (by test-model)", "{era:?}");
            let roots = run(&running, "where_am_i", json!({})).await;
            assert_eq!(roots, "file:///tmp/project (project)", "{era:?}");
            for (answer, expected) in [
                ("accept", "Fahrenheit"),
                ("decline", "declined"),
                ("cancel", "cancelled"),
            ] {
                *counts.answer.lock().unwrap() = answer;
                let unit = run(&running, "ask_unit", json!({})).await;
                assert_eq!(unit, expected, "{era:?} {answer}");
            }
            // Each question reached the client once.
            assert_eq!(counts.sampled.load(Ordering::SeqCst), 1, "{era:?}");
            assert_eq!(counts.rooted.load(Ordering::SeqCst), 1, "{era:?}");
            assert_eq!(counts.elicited.load(Ordering::SeqCst), 3, "{era:?}");
            running.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test]
async fn a_2026_session_gets_input_requests_and_no_logging() {
    bounded(async {
        let running = connect(catalog::server(), Client::default(), Era::Modern).await;
        let info = running.peer().peer_info().unwrap();
        assert!(
            info.capabilities.logging.is_none(),
            "{:?}",
            info.capabilities
        );
        assert!(info.capabilities.tools.is_some());

        let first = ask(&running, call("haiku", json!({"topic": "rain"}))).await;
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(
            requests["q0"]["method"], "sampling/createMessage",
            "{requests}"
        );
        assert_eq!(
            requests["q0"]["params"]["messages"][0]["content"]["text"],
            "A haiku about rain"
        );
        assert_eq!(requests["q0"]["params"]["maxTokens"], 50);
        assert_eq!(
            requests["q0"]["params"]["modelPreferences"]["hints"][0]["name"],
            "claude"
        );
        assert!(first.request_state.is_some());

        // A tool that logs completes in one round; its messages stay on the server.
        let counted = run(&running, "count_to", json!({"n": 2})).await;
        assert_eq!(counted, "counted to 2");
        running.cancel().await.unwrap();

        // Handshake era: logging is offered.
        let running = connect(catalog::server(), Client::default(), Era::Handshake).await;
        let info = running.peer().peer_info().unwrap();
        assert!(info.capabilities.logging.is_some());
        running.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_client_without_the_capability_is_told_on_2026_too() {
    bounded(async {
        let client = Client {
            capable: false,
            ..Client::default()
        };
        let running = connect(catalog::server(), client, Era::Modern).await;
        let result = running
            .call_tool(call("haiku", json!({"topic": "rain"})))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(true));
        assert!(
            text(&result).contains("did not declare the `sampling` capability"),
            "{}",
            text(&result)
        );
        running.cancel().await.unwrap();
    })
    .await;
}

/// How many times `plan_day`'s body started.
static PLAN_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Asks for a unit, then for a haiku: two questions, one round each.
#[tool]
async fn plan_day(
    /// Where.
    city: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    PLAN_RUNS.fetch_add(1, Ordering::SeqCst);
    let unit = match ctx.elicit::<UnitChoice>("Which unit?").await? {
        Elicited::Accepted(choice) => format!("{:?}", choice.unit),
        other => format!("{other:?}"),
    };
    let reply = ctx
        .sample(SamplingRequest::new(format!("A haiku about {city}")))
        .await?;
    Ok(format!("{city} in {unit}: {}", reply.text))
}

#[tokio::test]
async fn two_questions_take_two_retries_and_each_is_asked_once() {
    bounded(async {
        let client = Client::default();
        let counts = client.clone();
        let running = connect(McpServer::new(tools![plan_day]), client, Era::Modern).await;
        let params = call("plan_day", json!({"city": "Oslo"}));

        let first = ask(&running, params.clone()).await;
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(requests.as_object().unwrap().len(), 1, "{requests}");
        assert_eq!(requests["q0"]["method"], "elicitation/create");
        assert_eq!(requests["q0"]["params"]["message"], "Which unit?");

        let second = ask(
            &running,
            retry(
                params.clone(),
                first.request_state.as_deref(),
                json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}}),
            ),
        )
        .await;
        let requests = serde_json::to_value(second.input_requests.as_ref().unwrap()).unwrap();
        // Only the new question: the first one was answered.
        assert_eq!(requests.as_object().unwrap().len(), 1, "{requests}");
        assert_eq!(requests["q1"]["method"], "sampling/createMessage");

        let done = running
            .call_tool_once(retry(
                params.clone(),
                second.request_state.as_deref(),
                json!({"q1": {
                    "role": "assistant",
                    "content": {"type": "text", "text": "fjords"},
                    "model": "m"
                }}),
            ))
            .await
            .unwrap();
        let CallToolResponse::Complete(result) = done else {
            panic!("expected the result, got {done:?}");
        };
        assert_eq!(text(&result), "Oslo in Celsius: fjords");
        assert_eq!(PLAN_RUNS.load(Ordering::SeqCst), 3);

        // rmcp's own driver: each question reaches the client's handler once.
        let driven = run(&running, "plan_day", json!({"city": "Bergen"})).await;
        assert_eq!(driven, "Bergen in Fahrenheit: echo: A haiku about Bergen");
        assert_eq!(counts.elicited.load(Ordering::SeqCst), 1);
        assert_eq!(counts.sampled.load(Ordering::SeqCst), 1);
        running.cancel().await.unwrap();
    })
    .await;
}

/// Asks its model and reads the roots at once.
#[tool]
async fn both_at_once(ctx: ToolContext<'_>) -> Result<String, PeerError> {
    let (reply, roots) = tokio::join!(ctx.sample(SamplingRequest::new("Hi")), ctx.roots());
    Ok(format!("{} / {}", reply?.text, roots?.len()))
}

#[tokio::test]
async fn questions_asked_together_go_out_in_one_round() {
    bounded(async {
        let client = Client::default();
        let counts = client.clone();
        let running = connect(McpServer::new(tools![both_at_once]), client, Era::Modern).await;
        let first = ask(&running, call("both_at_once", json!({}))).await;
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(
            requests["q0"]["method"], "sampling/createMessage",
            "{requests}"
        );
        assert_eq!(requests["q1"]["method"], "roots/list", "{requests}");
        assert_eq!(requests.as_object().unwrap().len(), 2, "{requests}");

        assert_eq!(
            run(&running, "both_at_once", json!({})).await,
            "echo: Hi / 1"
        );
        assert_eq!(counts.sampled.load(Ordering::SeqCst), 1);
        assert_eq!(counts.rooted.load(Ordering::SeqCst), 1);
        running.cancel().await.unwrap();
    })
    .await;
}
