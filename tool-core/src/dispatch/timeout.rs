//! Time limits for async tools: a tool's own `#[tool(timeout_ms = N)]`, else the registry's
//! default. Enforced on tokio's timer with the `tokio` feature, and only when the call runs
//! inside a tokio runtime; otherwise the limit is not enforced (the core stays
//! executor-agnostic). Synchronous tools are never timed out: they have already finished by the
//! time a timer could fire.

use std::future::Future;
use std::time::Duration;

#[cfg(feature = "tokio")]
use crate::response::ToolErrorCode;
use crate::response::ToolResponse;

/// The `TIMEOUT` response for a call cut off after `limit`.
#[cfg(feature = "tokio")]
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

/// Awaits `future`, cutting it off after `limit` where a timer is available.
#[cfg(feature = "tokio")]
pub(crate) async fn with_limit<F>(future: F, limit: Option<Duration>, tool: &str) -> ToolResponse
where
    F: Future<Output = ToolResponse>,
{
    match limit {
        // tokio's timer panics outside a runtime (e.g. under `call_blocking`), so check first.
        Some(limit) if tokio::runtime::Handle::try_current().is_ok() => {
            match tokio::time::timeout(limit, future).await {
                Ok(response) => response,
                Err(_) => timed_out(tool, limit),
            }
        }
        _ => future.await,
    }
}

/// Awaits `future`; without the `tokio` feature there is no timer to enforce `limit` with.
#[cfg(not(feature = "tokio"))]
pub(crate) async fn with_limit<F>(future: F, _limit: Option<Duration>, _tool: &str) -> ToolResponse
where
    F: Future<Output = ToolResponse>,
{
    future.await
}
