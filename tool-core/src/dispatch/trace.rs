//! Observability (`tracing` feature): every call runs inside an `INFO` span named `tool_call`
//! with the fields `tool`, `call_id`, and, once the call ends, `status`, `code` (empty on
//! success) and `duration_ms`. The same span carries OpenTelemetry's GenAI attributes of an
//! `execute_tool` span (`otel.name` `execute_tool {tool}`, `gen_ai.operation.name`,
//! `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type`, and `error.type` (the
//! error code) and an error status (`otel.status_code`) on failure), so an OpenTelemetry
//! backend shows it as the conventions name it. `duration_ms` is an `i64`, which
//! tracing-opentelemetry exports as an integer.
//! Without the feature nothing of this is compiled in.

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
        otel.name = %format_args!("execute_tool {}", call.name),
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %call.name,
        gen_ai.tool.call.id = %call.id,
        gen_ai.tool.type = "function",
        error.type = Empty,
        otel.status_code = Empty,
    );
    let response = future.instrument(span.clone()).await;
    span.record("status", response.status.as_str());
    if let Some(code) = response.error_code() {
        span.record("code", code.as_str());
        span.record("error.type", code.as_str());
        span.record("otel.status_code", "error");
    }
    if let Some(ms) = response.time_ms() {
        span.record("duration_ms", i64::try_from(ms).unwrap_or(i64::MAX));
    }
    response
}
