//! Whether a model gets the provider's own tool search: the explicit setting wins; else the
//! model's name is read by its family and version, provider prefixes, dates and suffixes
//! aside; a name the table cannot place is taken as without, and the first run with deferred
//! tools says so with a `tracing` warning. Over loopback HTTP, the first request shows which
//! search the run used (the provider's, or its own `search_tools`).

use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Model, OpenAiResponses};
use tool_core::runner::Runner;
use wiremock::ResponseTemplate;

use crate::http_support::{self, requests, server};
use crate::http_tool_search::registry;
use crate::spans::{Recorder, Seen};

fn responses_final() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "resp_final", "object": "response",
        "status": "completed", "model": "gpt-5.4",
        "output": [{"type": "message", "id": "msg_final", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}],
        "usage": {"input_tokens": 90, "output_tokens": 5, "total_tokens": 95}}))
}

fn anthropic_final() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "msg_final", "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 90, "output_tokens": 5}}))
}

/// A model for one API against a loopback base URL, not streamed.
type MakeModel = Box<dyn Fn(String) -> Box<dyn Model>>;

fn responses(name: &'static str, setting: Option<bool>) -> (&'static str, MakeModel) {
    let make = move |base: String| -> Box<dyn Model> {
        let mut model = OpenAiResponses::new(name)
            .with_api_key("sk-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(false));
        if let Some(on) = setting {
            model = model.with_tool_search(on);
        }
        Box::new(model)
    };
    ("/v1/responses", Box::new(make))
}

fn anthropic(name: &'static str, setting: Option<bool>) -> (&'static str, MakeModel) {
    let make = move |base: String| -> Box<dyn Model> {
        let mut model = Anthropic::new(name)
            .with_api_key("sk-ant-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base).with_stream(false));
        if let Some(on) = setting {
            let search = on.then_some(tool_core::provider::anthropic::SearchTool::Bm25);
            model = model.with_tool_search(search);
        }
        Box::new(model)
    };
    ("/v1/messages", Box::new(make))
}

/// Two runs with one runner (one tool deferred when `deferred`): the names of the first
/// request's tools, and the warnings logged about the model's tool search.
async fn two_runs(
    (route, make): (&'static str, MakeModel),
    deferred: bool,
) -> (Vec<String>, Vec<String>) {
    let reply = if route.ends_with("responses") {
        responses_final
    } else {
        anthropic_final
    };
    let server = server(route, vec![reply(), reply()]).await;
    let schema = json!({"type": "object", "properties": {}});
    let (registry, _) = registry(&[
        ("get_time", "Current time.", schema.clone(), false),
        ("send_email", "Sends an email.", schema, deferred),
    ]);
    let seen: Seen = Arc::default();
    let runner = Runner::new(make(format!("{}/v1", server.uri())), registry);
    {
        let _guard = tracing::subscriber::set_default(Recorder::spans_and_events(seen.clone()));
        for _ in 0..2 {
            runner.run("Mail Bob.").await.expect("the run ends");
        }
    }
    let sent = requests(&server).await;
    http_support::assert_sdk_accepts(route, &sent);
    let first: Value = serde_json::from_slice(&sent[0].body).unwrap();
    let tools = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = t["name"].as_str().or(t["type"].as_str()).unwrap_or("");
            match t.get("defer_loading") {
                Some(Value::Bool(true)) => format!("{name} (deferred)"),
                _ => name.to_string(),
            }
        })
        .collect();
    let warnings = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(name, fields)| {
            name.starts_with("event ")
                && fields
                    .get("message")
                    .is_some_and(|m| m.contains("tool search"))
        })
        .map(|(_, fields)| format!("{} {}", fields["model"], fields["message"]))
        .collect();
    (tools, warnings)
}

#[tokio::test]
async fn an_unknown_name_falls_back_to_the_runs_search_and_says_so_once() {
    for (model, setter) in [
        (
            responses("my-gateway-model", None),
            "OpenAiResponses::with_tool_search",
        ),
        (
            anthropic("my-claude-proxy", None),
            "Anthropic::with_tool_search",
        ),
    ] {
        let (tools, warnings) = two_runs(model, true).await;
        assert_eq!(tools, ["get_time", "search_tools"]);
        assert_eq!(warnings.len(), 1, "once per model: {warnings:?}");
        assert!(
            warnings[0].contains("deferred tools go through the run's search_tools")
                && warnings[0].contains(setter),
            "{warnings:?}"
        );
    }
}

#[tokio::test]
async fn the_setting_wins_over_the_name_and_known_names_say_nothing() {
    // Set explicitly: no guess, no warning.
    let (tools, warnings) = two_runs(responses("my-gateway-model", Some(true)), true).await;
    assert_eq!(tools, ["get_time", "send_email (deferred)", "tool_search"]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let (tools, warnings) = two_runs(anthropic("claude-sonnet-4-5", Some(false)), true).await;
    assert_eq!(tools, ["get_time", "search_tools"]);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Known names, with prefixes, dates and suffixes.
    for (model, search) in [
        (responses("openai/gpt-5.4", None), "tool_search"),
        (responses("gpt-5.4-mini-2026-03-17", None), "tool_search"),
        (
            anthropic("anthropic.claude-sonnet-4-5-20250929-v1:0", None),
            "tool_search_tool_bm25",
        ),
        (
            anthropic("claude-opus-4-5@20251101", None),
            "tool_search_tool_bm25",
        ),
    ] {
        let (tools, warnings) = two_runs(model, true).await;
        assert_eq!(tools, ["get_time", "send_email (deferred)", search]);
        assert!(warnings.is_empty(), "{warnings:?}");
    }
    for model in [
        responses("gpt-5.1-2025-11-13", None),
        anthropic("claude-sonnet-4-20250514", None),
    ] {
        let (tools, warnings) = two_runs(model, true).await;
        assert_eq!(tools, ["get_time", "search_tools"]);
        assert!(warnings.is_empty(), "{warnings:?}");
    }
    // No deferred tool: nothing to search, nothing to say.
    let (tools, warnings) = two_runs(responses("my-gateway-model", None), false).await;
    assert_eq!(tools, ["get_time", "send_email"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}
