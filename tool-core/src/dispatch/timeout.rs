//! Time limits for async tools (`tokio` feature): a tool's own `#[tool(timeout_ms = N)]`, else
//! the registry's default, enforced on tokio's timer when the call runs inside a tokio runtime.
//! Without the feature, or outside a runtime, limits are not enforced and the core stays
//! executor-agnostic. Synchronous tools are never timed out: they have already finished by the
//! time a timer could fire.

use std::future::Future;
use std::time::Duration;

use crate::response::{ToolErrorCode, ToolResponse};

/// The `TIMEOUT` response for a call cut off after `limit`.
pub(crate) fn timed_out(tool: &str, limit: Duration) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::Timeout,
        format!(
            "The tool '{tool}' did not finish within {} ms and was cancelled. Try again later, \
             or ask for less work in one call.",
            limit.as_millis()
        ),
    )
}

/// Awaits `future`, cutting it off after `limit`. Call only inside a tokio runtime.
pub(crate) async fn with_limit<F>(future: F, limit: Duration, tool: &str) -> ToolResponse
where
    F: Future<Output = ToolResponse>,
{
    match tokio::time::timeout(limit, future).await {
        Ok(response) => response,
        Err(_) => timed_out(tool, limit),
    }
}
