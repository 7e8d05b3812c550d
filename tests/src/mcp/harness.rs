//! What every `mcp_*` test file needs around its peers: a time bound on each test, rmcp's
//! client handler that records progress, and the small conversions between JSON and rmcp's
//! call types.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, ProgressNotificationParam};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;

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
