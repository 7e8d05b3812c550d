//! The runner's spans in an OpenTelemetry pipeline: `tracing-opentelemetry` turns the spans the
//! runner opens (feature `tracing`) into OpenTelemetry spans, named and typed as the GenAI
//! semantic conventions say: `invoke_agent` for the run, `chat {model}` for each model request
//! (provider, model, response id, finish reasons, token usage), `execute_tool {name}` for each
//! call (`error.type` on a failed one). Here they go to OpenTelemetry's stdout exporter; swap
//! it for an OTLP exporter (`opentelemetry-otlp`) to send them to Jaeger, Tempo, Honeycomb or
//! any GenAI observability backend. The model is scripted, so nothing leaves the machine.
//!
//! `cargo run --example otel --features otel` (add `-- --content` to record the messages too)

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tool_core::model::{ModelTurn, ScriptedModel, StopReason, Usage};
use tool_core::runner::{RunOutcome, Runner};
use tool_core::{tool, tools, ToolCall, ToolError};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, e.g. "Paris, France".
    city: String,
) -> Result<String, ToolError> {
    match city.as_str() {
        "Paris, France" => Ok("15 C, light rain".into()),
        "Tokyo, Japan" => Ok("22 C, sunny".into()),
        other => Err(ToolError::not_found(format!(
            "no weather station for '{other}'"
        ))),
    }
}

/// Two turns as a provider would send them: three calls (one for a city without a station,
/// so its span carries `error.type`), then the answer. Usage and response ids as a real API
/// reports them.
fn model() -> ScriptedModel {
    let calls = vec![
        ToolCall::new("call_1", "get_weather", r#"{"city":"Paris, France"}"#),
        ToolCall::new("call_2", "get_weather", r#"{"city":"Tokyo, Japan"}"#),
        ToolCall::new("call_3", "get_weather", r#"{"city":"Atlantis"}"#),
    ];
    let first = ModelTurn {
        stop_reason: StopReason::ToolUse,
        usage: Some(Usage::new(412, 61)),
        ..ModelTurn::with_calls("Checking the three cities.", calls)
    }
    .with_response_id("chatcmpl-example-1");
    let second = ModelTurn {
        usage: Some(Usage::new(530, 38)),
        ..ModelTurn::text(
            "Paris: 15 C and light rain. Tokyo: 22 C and sunny. No data for Atlantis.",
        )
    }
    .with_response_id("chatcmpl-example-2");
    ScriptedModel::new([first, second])
}

fn main() {
    let content = std::env::args().any(|arg| arg == "--content");

    // The OpenTelemetry SDK with the stdout exporter; each span is printed as it ends.
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(opentelemetry_stdout::SpanExporter::default())
        .build();
    let tracer = provider.tracer("tool-core-example");
    // tracing -> OpenTelemetry: the runner's spans (and the dispatcher's) become OTel spans.
    let _guard = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(tracer))
        .set_default();

    // Message content is recorded only when asked for (it may hold personal data).
    let runner = Runner::new(model(), tools![get_weather]).with_trace_content(content);
    let result = tool_core::block_on(runner.run("Weather in Paris, Tokyo and Atlantis?"))
        .unwrap_or_else(|e| panic!("the scripted run failed: {e}"));
    if let RunOutcome::Finished { text } = &result.outcome {
        println!("Answer: {text}");
    }

    if let Err(error) = provider.shutdown() {
        eprintln!("OpenTelemetry shutdown: {error}");
    }
}
