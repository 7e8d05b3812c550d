//! What every `mcp_*` test file needs around its peers: a time bound on each test, rmcp's
//! client handler that records progress, and the small conversions between JSON and rmcp's
//! call types.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ErrorCode, JsonObject, ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{json, Value};

/// Every test ends within this, whatever the peer does.
pub const LIMIT: Duration = Duration::from_secs(20);

/// Runs `test`, failing it if it takes longer than [`LIMIT`].
pub async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(LIMIT, test)
        .await
        .expect("the test did not finish in time")
}

/// rmcp's client, keeping the progress notifications it receives.
#[derive(Clone, Default)]
pub struct Recorder {
    /// Every progress notification, in the order received.
    pub progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

/// A JSON object as rmcp's argument map.
pub fn args(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("test arguments are objects"),
    }
}

/// A `tools/call` request for `name` with `arguments` (a JSON object).
pub fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.arguments = Some(args(arguments));
    params
}

/// The text content of a call result, its parts joined by newlines.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits (at most a second) until `seen` holds at least `n` entries: notifications may
/// arrive just after the reply they belong to.
pub async fn until_len<T>(seen: &Mutex<Vec<T>>, n: usize) {
    for _ in 0..100 {
        if seen.lock().unwrap().len() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The progress the fixtures' `slow` tool reports for `steps` steps, as
/// `(progress, total, message)`.
pub fn working_steps(steps: u32) -> Vec<(f64, Option<f64>, Option<String>)> {
    let total = f64::from(steps);
    (1..=steps)
        .map(|i| (f64::from(i), Some(total), Some("working".to_owned())))
        .collect()
}

/// `tools/call` against the fixtures' tools (`ours` or `theirs`): text, structured content, an
/// error result, bad arguments as a readable result, and an unknown tool as a JSON-RPC error.
pub async fn calls_answer_text_structured_content_and_errors<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
) {
    let peer = client.peer();
    let sum = peer
        .call_tool(call("add", json!({"a": 2, "b": 40})))
        .await
        .unwrap();
    assert_eq!((text(&sum).as_str(), sum.is_error), ("42", Some(false)));
    assert!(sum.structured_content.is_none());

    let forecast = peer
        .call_tool(call("forecast", json!({"city": "Paris"})))
        .await
        .unwrap();
    assert_eq!(
        forecast.structured_content,
        Some(json!({"city": "Paris", "temp_c": 21.5}))
    );
    // The text block carries the same JSON for clients that ignore structured content.
    assert_eq!(
        serde_json::from_str::<Value>(&text(&forecast)).unwrap(),
        json!({"city": "Paris", "temp_c": 21.5})
    );

    let failed = peer
        .call_tool(call("fail", json!({"reason": "no such city"})))
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(text(&failed), "Error [NOT_FOUND]: no such city");

    // Bad arguments are a result the model can read and correct (SEP-1303), not a protocol
    // error.
    let bad = peer
        .call_tool(call("add", json!({"a": "two", "b": 1})))
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("INVALID_PARAM"), "{}", text(&bad));
    assert!(text(&bad).contains('a'), "{}", text(&bad));

    // An unknown tool is a JSON-RPC error, with the registry's did-you-mean text.
    match peer.call_tool(call("ad", json!({}))).await {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
            assert!(e.message.contains("Did you mean 'add'?"), "{}", e.message);
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// The fixtures' `slow` tool, called with a progress token, reports three steps in order.
pub async fn progress_reaches_the_client_in_order(client: &RunningService<RoleClient, Recorder>) {
    let result = client
        .peer()
        .call_tool(call("slow", json!({"steps": 3})))
        .await
        .unwrap();
    assert_eq!(text(&result), "3 steps done");
    // The server sends every report before the result; give the client's notification
    // handler the moment it needs to record them.
    let recorded = client.service().progress.clone();
    until_len(&recorded, 3).await;
    let seen: Vec<_> = recorded
        .lock()
        .unwrap()
        .iter()
        .map(|p| (p.progress, p.total, p.message.clone()))
        .collect();
    assert_eq!(seen, working_steps(3));
}
