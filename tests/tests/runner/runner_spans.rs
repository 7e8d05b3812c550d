//! The runner's spans in OpenTelemetry's GenAI conventions (feature `tracing`): one
//! `invoke_agent` per run, one `chat {model}` per model request with the request and usage
//! attributes, one `execute_tool {name}` per call with `error.type` on failure; message
//! content only when the runner is told to record it. A minimal subscriber records the spans.

use std::collections::BTreeMap;
use std::sync::Arc;

use tool_core::model::{ModelTurn, ScriptedModel, StopReason, Usage};
use tool_core::runner::Runner;
use tool_core::{block_on, tool, tools, ToolCall};

use crate::spans::{Recorder, Seen};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(city: String) -> String {
    format!("15 C in {city}")
}

fn script() -> ScriptedModel {
    let mut first = ModelTurn::with_calls(
        "",
        vec![
            ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#),
            ToolCall::new("c2", "get_weather", r#"{"town":"Paris"}"#),
        ],
    );
    first.stop_reason = StopReason::ToolUse;
    first.usage = Some(Usage::new(120, 30));
    let first = first.with_response_id("chatcmpl-1");
    let second = ModelTurn {
        usage: Some(Usage::new(200, 12)),
        ..ModelTurn::text("15 C in Paris.")
    };
    ScriptedModel::new([first, second])
}

fn record(runner: &Runner<ScriptedModel>) -> Vec<(String, BTreeMap<String, String>)> {
    let seen: Seen = Arc::default();
    tracing::subscriber::with_default(Recorder::spans(Arc::clone(&seen)), || {
        block_on(runner.run("Weather in Paris?")).unwrap();
    });
    let spans = seen.lock().unwrap().clone();
    spans
}

fn named<'a>(
    spans: &'a [(String, BTreeMap<String, String>)],
    otel_name: &str,
) -> Vec<&'a BTreeMap<String, String>> {
    spans
        .iter()
        .filter(|(_, fields)| fields.get("otel.name").map(String::as_str) == Some(otel_name))
        .map(|(_, fields)| fields)
        .collect()
}

#[test]
fn a_run_has_agent_chat_and_tool_spans_with_the_gen_ai_attributes() {
    let runner = Runner::new(script(), tools![get_weather]);
    let spans = record(&runner);

    let agent = named(&spans, "invoke_agent");
    assert_eq!(agent.len(), 1);
    assert_eq!(agent[0]["gen_ai.operation.name"], "invoke_agent");
    assert_eq!(agent[0]["gen_ai.provider.name"], "scripted");

    let chats = named(&spans, "chat scripted");
    assert_eq!(chats.len(), 2, "one per model request");
    assert_eq!(chats[0]["gen_ai.operation.name"], "chat");
    assert_eq!(chats[0]["gen_ai.provider.name"], "scripted");
    assert_eq!(chats[0]["gen_ai.request.model"], "scripted");
    assert_eq!(
        chats[0]["gen_ai.response.finish_reasons"],
        r#"["tool_calls"]"#
    );
    assert_eq!(chats[0]["gen_ai.usage.input_tokens"], "120");
    assert_eq!(chats[0]["gen_ai.usage.output_tokens"], "30");
    assert_eq!(chats[0]["gen_ai.response.id"], "chatcmpl-1");
    assert!(
        !chats[1].contains_key("gen_ai.response.id"),
        "no id given, none recorded"
    );
    assert_eq!(chats[1]["gen_ai.response.finish_reasons"], r#"["stop"]"#);
    assert_eq!(chats[1]["gen_ai.usage.input_tokens"], "200");
    // Content is not recorded unless asked for.
    assert!(!chats[0].contains_key("gen_ai.input.messages"));
    assert!(!chats[1].contains_key("gen_ai.output.messages"));

    let tools = named(&spans, "execute_tool get_weather");
    assert_eq!(tools.len(), 2, "one per call");
    let ok = tools
        .iter()
        .find(|t| t["gen_ai.tool.call.id"] == "c1")
        .unwrap();
    assert_eq!(ok["gen_ai.operation.name"], "execute_tool");
    assert_eq!(ok["gen_ai.tool.name"], "get_weather");
    assert_eq!(ok["gen_ai.tool.type"], "function");
    assert!(!ok.contains_key("error.type"));
    let failed = tools
        .iter()
        .find(|t| t["gen_ai.tool.call.id"] == "c2")
        .unwrap();
    assert_eq!(failed["error.type"], "INVALID_PARAM");
}

#[test]
fn message_content_is_recorded_only_when_opted_in() {
    let runner = Runner::new(script(), tools![get_weather]).with_trace_content(true);
    let spans = record(&runner);
    let chats = named(&spans, "chat scripted");
    let input: serde_json::Value =
        serde_json::from_str(&chats[1]["gen_ai.input.messages"]).unwrap();
    assert_eq!(
        input[0],
        serde_json::json!({"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]})
    );
    assert_eq!(input[1]["parts"][0]["type"], "tool_call");
    assert_eq!(input[1]["parts"][0]["arguments"]["city"], "Paris");
    assert_eq!(input[2]["role"], "tool");
    assert_eq!(input[2]["parts"][0]["response"], "15 C in Paris");
    let output: serde_json::Value =
        serde_json::from_str(&chats[1]["gen_ai.output.messages"]).unwrap();
    assert_eq!(output[0]["parts"][0]["content"], "15 C in Paris.");
}
