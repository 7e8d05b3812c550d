//! Time limits for async tools: a tool's own `#[tool(timeout_ms = N)]`, else the registry's
//! default. Enforced on tokio's timer inside a tokio runtime (`tokio` feature), and on the
//! process's timer thread everywhere else, so a limit holds under any executor. Synchronous
//! tools are never timed out: they have already finished by the time a timer could fire.

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use crate::timer::Sleep;

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

/// Awaits `future`, cutting it off after `limit`.
pub(crate) async fn with_limit<F>(future: F, limit: Duration, tool: &str) -> ToolResponse
where
    F: Future<Output = ToolResponse>,
{
    #[cfg(feature = "tokio")]
    if tokio::runtime::Handle::try_current().is_ok() {
        return match tokio::time::timeout(limit, future).await {
            Ok(response) => response,
            Err(_) => timed_out(tool, limit),
        };
    }
    let Some(mut deadline) = Sleep::new(limit) else {
        // No timer thread could be started: the call runs without a limit rather than fail.
        return future.await;
    };
    let mut future = pin!(future);
    poll_fn(|cx| {
        if let Poll::Ready(response) = future.as_mut().poll(cx) {
            return Poll::Ready(response);
        }
        match std::pin::Pin::new(&mut deadline).poll(cx) {
            Poll::Ready(()) => Poll::Ready(timed_out(tool, limit)),
            Poll::Pending => Poll::Pending,
        }
    })
    .await
}
