//! The request state of a 2026-07-28 call that asks its client: forged, altered, moved to
//! another call, answered wrongly, expired or from another server, it is a JSON-RPC
//! invalid-params error before the tool runs; replicas sharing a key accept each other's.

#![cfg(feature = "mcp")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{CallToolResponse, ErrorCode};
use serde_json::json;
use tool_core::mcp::McpServer;
use tool_core::{tool, tools, PeerError, ToolContext};
use tool_tests::mcp::asker::{ask, connect, refused, retry, Client, Era};
use tool_tests::mcp::catalog::UnitChoice;
use tool_tests::mcp::harness::{bounded, call, text};

/// How many times `ask_twice`'s body started for the bad-state test's tags ("a", "b"); the
/// stale-state test runs the same tool at the same time with its own tag.
static CHECKED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Asks for a unit (for the request-state checks).
#[tool]
async fn ask_twice(
    /// Anything.
    tag: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    if tag == "a" || tag == "b" {
        CHECKED_RUNS.fetch_add(1, Ordering::SeqCst);
    }
    let unit = ctx.elicit::<UnitChoice>(format!("Unit for {tag}?")).await?;
    Ok(format!("{unit:?}"))
}

#[tokio::test]
async fn a_bad_request_state_is_an_error_and_the_tool_does_not_run() {
    bounded(async {
        let server = McpServer::new(tools![ask_twice]);
        let running = connect(server, Client::default(), Era::Modern).await;
        let params = call("ask_twice", json!({"tag": "a"}));
        let first = ask(&running, params.clone()).await;
        let state = first.request_state.clone().unwrap();
        let accept = json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}});
        let runs = CHECKED_RUNS.load(Ordering::SeqCst);

        let mut altered = state.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(altered).unwrap();
        let other_call = call("ask_twice", json!({"tag": "b"}));
        let cases = [
            (
                "altered",
                retry(params.clone(), Some(&altered), accept.clone()),
            ),
            (
                "forged",
                retry(params.clone(), Some("rs1.e30.AAAA"), accept.clone()),
            ),
            (
                "other arguments",
                retry(other_call, Some(&state), accept.clone()),
            ),
            (
                "answers without state",
                retry(params.clone(), None, accept.clone()),
            ),
            (
                "missing answer",
                retry(params.clone(), Some(&state), json!({})),
            ),
            (
                "unasked key",
                retry(
                    params.clone(),
                    Some(&state),
                    json!({"q0": {"action": "decline"}, "q9": {"action": "decline"}}),
                ),
            ),
            (
                "wrong kind of answer",
                retry(params.clone(), Some(&state), json!({"q0": {"roots": []}})),
            ),
        ];
        for (case, params) in cases {
            let error = refused(&running, params).await;
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{case}: {error:?}");
            assert!(!error.message.is_empty(), "{case}");
        }
        assert_eq!(
            CHECKED_RUNS.load(Ordering::SeqCst),
            runs,
            "no bad retry ran the tool"
        );

        // The genuine retry still works after all that.
        let done = running
            .call_tool_once(retry(params.clone(), Some(&state), accept))
            .await
            .unwrap();
        let CallToolResponse::Complete(result) = done else {
            panic!("expected the result, got {done:?}");
        };
        assert_eq!(text(&result), "Accepted(UnitChoice { unit: Celsius })");
        running.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_stale_request_state_is_refused() {
    bounded(async {
        let params = call("ask_twice", json!({"tag": "stale"}));
        let accept = json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}});

        // Expired.
        let server =
            McpServer::new(tools![ask_twice]).with_request_state_ttl(Duration::from_millis(1));
        let running = connect(server, Client::default(), Era::Modern).await;
        let first = ask(&running, params.clone()).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let error = refused(
            &running,
            retry(
                params.clone(),
                first.request_state.as_deref(),
                accept.clone(),
            ),
        )
        .await;
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("expired"), "{}", error.message);
        running.cancel().await.unwrap();

        // From another server (another key); the same key on a replica accepts it.
        let key = [9u8; 32];
        let issuing = connect(
            McpServer::new(tools![ask_twice]).with_request_state_key(key),
            Client::default(),
            Era::Modern,
        )
        .await;
        let first = ask(&issuing, params.clone()).await;
        let state = first.request_state.as_deref();
        let stranger = connect(
            McpServer::new(tools![ask_twice]),
            Client::default(),
            Era::Modern,
        )
        .await;
        let error = refused(&stranger, retry(params.clone(), state, accept.clone())).await;
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        let replica = connect(
            McpServer::new(tools![ask_twice]).with_request_state_key(key),
            Client::default(),
            Era::Modern,
        )
        .await;
        let done = replica
            .call_tool_once(retry(params.clone(), state, accept))
            .await
            .unwrap();
        assert!(matches!(done, CallToolResponse::Complete(_)), "{done:?}");
        for running in [issuing, stranger, replica] {
            running.cancel().await.unwrap();
        }
    })
    .await;
}
