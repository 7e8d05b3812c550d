//! The runner's spans through the real OpenTelemetry pipeline: `tracing-opentelemetry` turns
//! them into OpenTelemetry spans, the SDK's in-memory exporter keeps what a backend would
//! receive. Checked against OpenTelemetry's GenAI semantic conventions: span names
//! (`invoke_agent`, `chat {model}`, `execute_tool {name}`), which span is whose parent, span
//! kinds, the attributes with their OpenTelemetry types (token counts as integers), `error.type`
//! and an error status on a failed call, and message content only when opted in.

use std::collections::HashMap;

use opentelemetry::trace::{SpanId, SpanKind, Status, TracerProvider as _};
use opentelemetry::Value;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tool_core::model::{ModelTurn, ScriptedModel, StopReason, Usage};
use tool_core::runner::Runner;
use tool_core::{block_on, tool, tools, ToolCall};
use tracing_subscriber::layer::SubscriberExt;

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(city: String) -> String {
    format!("15 C in {city}")
}

/// Turn one calls `get_weather` twice, the second time with a wrong argument name (the call
/// fails with `INVALID_PARAM`); turn two answers. Response ids in the providers' shapes.
fn script() -> ScriptedModel {
    let first = ModelTurn {
        stop_reason: StopReason::ToolUse,
        usage: Some(Usage::new(120, 30)),
        ..ModelTurn::with_calls(
            "",
            vec![
                ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#),
                ToolCall::new("c2", "get_weather", r#"{"town":"Paris"}"#),
            ],
        )
    }
    .with_response_id("chatcmpl-turn1");
    let second = ModelTurn {
        usage: Some(Usage::new(200, 12)),
        ..ModelTurn::text("15 C in Paris.")
    }
    .with_response_id("chatcmpl-turn2");
    ScriptedModel::new([first, second])
}

/// Runs one run with a tracing-opentelemetry layer over the SDK's in-memory exporter, and
/// returns the exported spans.
fn export(runner: &Runner<ScriptedModel>) -> Vec<SpanData> {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("runner_otel"));
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, || {
        block_on(runner.run("Weather in Paris?")).unwrap();
    });
    provider.force_flush().unwrap();
    exporter.get_finished_spans().unwrap()
}

fn named<'a>(spans: &'a [SpanData], name: &str) -> Vec<&'a SpanData> {
    spans.iter().filter(|s| s.name == name).collect()
}

fn attributes(span: &SpanData) -> HashMap<String, Value> {
    span.attributes
        .iter()
        .map(|kv| (kv.key.as_str().to_owned(), kv.value.clone()))
        .collect()
}

fn string(value: &str) -> Value {
    Value::String(value.to_owned().into())
}

#[test]
fn a_run_exports_the_gen_ai_spans_with_their_parents_kinds_and_typed_attributes() {
    let spans = export(&Runner::new(script(), tools![get_weather]));
    let mut names: Vec<&str> = spans.iter().map(|s| s.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "chat scripted",
            "chat scripted",
            "execute_tool get_weather",
            "execute_tool get_weather",
            "invoke_agent",
        ]
    );

    // The run is the root; both model requests and both calls are its children, in one trace.
    let agent = named(&spans, "invoke_agent")[0];
    assert_eq!(agent.parent_span_id, SpanId::INVALID);
    let trace = agent.span_context.trace_id();
    let agent_id = agent.span_context.span_id();
    for span in spans.iter().filter(|s| s.name != "invoke_agent") {
        assert_eq!(span.parent_span_id, agent_id, "{} under the run", span.name);
        assert_eq!(span.span_context.trace_id(), trace);
    }

    // Kinds: the run and the tools run in process (internal), a model request is a client call.
    assert_eq!(agent.span_kind, SpanKind::Internal);
    let a = attributes(agent);
    assert_eq!(a["gen_ai.operation.name"], string("invoke_agent"));
    assert_eq!(a["gen_ai.provider.name"], string("scripted"));
    assert_eq!(a["gen_ai.request.model"], string("scripted"));

    let mut chats = named(&spans, "chat scripted");
    chats.sort_by_key(|s| s.start_time);
    for chat in &chats {
        assert_eq!(chat.span_kind, SpanKind::Client);
        assert_eq!(chat.status, Status::Unset);
    }
    let first = attributes(chats[0]);
    assert_eq!(first["gen_ai.operation.name"], string("chat"));
    assert_eq!(first["gen_ai.provider.name"], string("scripted"));
    assert_eq!(first["gen_ai.request.model"], string("scripted"));
    assert_eq!(first["gen_ai.response.id"], string("chatcmpl-turn1"));
    // Token counts are integers, as the conventions type them.
    assert_eq!(first["gen_ai.usage.input_tokens"], Value::I64(120));
    assert_eq!(first["gen_ai.usage.output_tokens"], Value::I64(30));
    // The conventions type finish reasons as string[]; a tracing field is a scalar, so the
    // array arrives as its JSON text.
    assert_eq!(
        first["gen_ai.response.finish_reasons"],
        string(r#"["tool_calls"]"#)
    );
    assert!(!first.contains_key("error.type"));
    let second = attributes(chats[1]);
    assert_eq!(second["gen_ai.response.id"], string("chatcmpl-turn2"));
    assert_eq!(
        second["gen_ai.response.finish_reasons"],
        string(r#"["stop"]"#)
    );
    assert_eq!(second["gen_ai.usage.input_tokens"], Value::I64(200));
    assert_eq!(second["gen_ai.usage.output_tokens"], Value::I64(12));
    // Content is not recorded unless asked for.
    for chat in [&first, &second] {
        assert!(!chat.contains_key("gen_ai.input.messages"));
        assert!(!chat.contains_key("gen_ai.output.messages"));
    }

    let tools = named(&spans, "execute_tool get_weather");
    let by_call: HashMap<String, HashMap<String, Value>> = tools
        .iter()
        .map(|s| {
            let a = attributes(s);
            (a["gen_ai.tool.call.id"].as_str().into_owned(), a)
        })
        .collect();
    let ok = &by_call["c1"];
    assert_eq!(ok["gen_ai.operation.name"], string("execute_tool"));
    assert_eq!(ok["gen_ai.tool.name"], string("get_weather"));
    assert_eq!(ok["gen_ai.tool.type"], string("function"));
    assert!(!ok.contains_key("error.type"));
    let failed = &by_call["c2"];
    assert_eq!(failed["gen_ai.tool.name"], string("get_weather"));
    assert_eq!(failed["error.type"], string("INVALID_PARAM"));
    for span in tools {
        assert_eq!(span.span_kind, SpanKind::Internal);
        let call_id = attributes(span)["gen_ai.tool.call.id"]
            .as_str()
            .into_owned();
        if call_id == "c2" {
            assert!(matches!(span.status, Status::Error { .. }), "{span:?}");
        } else {
            assert_eq!(span.status, Status::Unset);
        }
    }
}

#[test]
fn message_content_is_exported_only_when_opted_in() {
    let spans = export(&Runner::new(script(), tools![get_weather]).with_trace_content(true));
    let mut chats = named(&spans, "chat scripted");
    chats.sort_by_key(|s| s.start_time);
    let second = attributes(chats[1]);
    let input: serde_json::Value =
        serde_json::from_str(&second["gen_ai.input.messages"].as_str()).unwrap();
    assert_eq!(
        input[0],
        serde_json::json!({"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]})
    );
    assert_eq!(input[1]["role"], "assistant");
    assert_eq!(input[1]["parts"][0]["type"], "tool_call");
    assert_eq!(input[1]["parts"][0]["id"], "c1");
    assert_eq!(input[1]["parts"][0]["arguments"]["city"], "Paris");
    assert_eq!(input[2]["role"], "tool");
    assert_eq!(input[2]["parts"][0]["type"], "tool_call_response");
    assert_eq!(input[2]["parts"][0]["response"], "15 C in Paris");
    let output: serde_json::Value =
        serde_json::from_str(&second["gen_ai.output.messages"].as_str()).unwrap();
    assert_eq!(
        output,
        serde_json::json!([{"role": "assistant", "parts": [{"type": "text", "content": "15 C in Paris."}]}])
    );
}
