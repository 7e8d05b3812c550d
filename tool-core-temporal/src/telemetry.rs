//! The model activity's `chat {model}` span, with the OpenTelemetry GenAI attributes of a
//! local run's (see the runner guide), so a durable run's model requests show up in a trace
//! backend as a local run's do. A tool call's `execute_tool` span comes from tool-core's
//! dispatch itself (its `tracing` feature).

use serde_json::json;
use tool_core::model::{Model, ModelError, ModelTurn, StopReason};
use tracing::field::Empty;

/// Opens the span of one model request.
pub(crate) fn chat_span(model: &dyn Model) -> tracing::Span {
    let model_name = model.model_name();
    let name = if model_name.is_empty() {
        "chat".to_string()
    } else {
        format!("chat {model_name}")
    };
    tracing::info_span!(
        "chat",
        otel.name = %name,
        otel.kind = "client",
        otel.status_code = Empty,
        gen_ai.operation.name = "chat",
        gen_ai.provider.name = non_empty(model.provider_name()),
        gen_ai.request.model = non_empty(model_name),
        gen_ai.response.id = Empty,
        gen_ai.response.finish_reasons = Empty,
        gen_ai.usage.input_tokens = Empty,
        gen_ai.usage.output_tokens = Empty,
        error.type = Empty,
    )
}

fn non_empty(name: &str) -> Option<&str> {
    (!name.is_empty()).then_some(name)
}

/// Records how the request ended.
pub(crate) fn finish(span: &tracing::Span, turn: &Result<ModelTurn, ModelError>) {
    match turn {
        Ok(turn) => {
            let reason = match &turn.stop_reason {
                StopReason::EndTurn => "stop",
                StopReason::ToolUse => "tool_calls",
                StopReason::MaxTokens => "length",
                StopReason::Refusal => "content_filter",
                StopReason::Other(other) => other.as_str(),
            };
            if let Some(id) = &turn.response_id {
                span.record("gen_ai.response.id", id.as_str());
            }
            span.record(
                "gen_ai.response.finish_reasons",
                json!([reason]).to_string().as_str(),
            );
            if let Some(usage) = turn.usage {
                span.record("gen_ai.usage.input_tokens", int(usage.input_tokens));
                span.record("gen_ai.usage.output_tokens", int(usage.output_tokens));
            }
        }
        Err(error) => {
            span.record("error.type", error.kind().as_str());
            span.record("otel.status_code", "error");
        }
    }
}

fn int(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}
