//! Observability (`tracing` feature): every call runs inside an `INFO` span named `tool_call`
//! with the fields `tool`, `call_id`, and, once the call ends, `status`, `code` (empty on
//! success) and `duration_ms`. Without the feature nothing of this is compiled in.

use std::future::Future;

use tracing::field::Empty;
use tracing::Instrument;

use crate::call::ToolCallRef;
use crate::response::ToolResponse;

/// Runs `future` inside the call's span and records the outcome on it.
pub(crate) async fn in_span<F>(call: ToolCallRef<'_>, future: F) -> ToolResponse
where
    F: Future<Output = ToolResponse>,
{
    let span = tracing::info_span!(
        "tool_call",
        tool = %call.name,
        call_id = %call.id,
        status = Empty,
        code = Empty,
        duration_ms = Empty,
    );
    let response = future.instrument(span.clone()).await;
    span.record("status", response.status.as_str());
    if let Some(code) = response.error_code() {
        span.record("code", code.as_str());
    }
    if let Some(ms) = response.time_ms() {
        span.record("duration_ms", ms);
    }
    response
}
