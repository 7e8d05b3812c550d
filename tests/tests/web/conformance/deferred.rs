//! Deferred tools: every tool deferred, the model searches, calls the tool found and one no
//! search returned. The found tool runs once; the other is refused with the `NOT_FOUND` error
//! that tells the model to search first, and never runs. Anthropic and Responses search with
//! the provider's own tool search (the deferred tools are sent with `defer_loading: true`,
//! the search blocks or items go back unchanged); the other APIs get the run's local
//! `search_tools` tool in their place (the documented fallback), and only it is sent.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::model::Model;
use tool_core::runner::RunOptions;
use tool_core::{CallFuture, Tool, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::Weather;

/// `get_time`, counting its runs.
#[derive(Clone, Default)]
struct Time {
    runs: Arc<AtomicUsize>,
}

impl Tool for Time {
    fn name(&self) -> &str {
        "get_time"
    }
    fn description(&self) -> &str {
        "The local time in a city."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    }
    fn call<'a>(&'a self, _arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        CallFuture::ready(ToolResponse::success("10:00"))
    }
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let native = api.model("http://127.0.0.1:9", true).native_tool_search();
    let weather = Weather::default();
    let time = Time::default();
    let found = vec![(
        weather.name().to_string(),
        weather.description().to_string(),
        weather.input_schema(),
    )];
    let calls = |turn: Turn| {
        turn.and_call("w1", "get_weather", json!({"city": "Paris"}))
            .and_call("t1", "get_time", json!({"city": "Paris"}))
    };
    let turns = if native {
        vec![
            calls(Turn::default().with_native_search("weather", found.clone())),
            Turn::text(FINAL),
        ]
    } else {
        vec![
            Turn::call(
                "s1",
                "search_tools",
                json!({"query": "weather", "limit": 3}),
            ),
            calls(Turn::default()),
            Turn::text(FINAL),
        ]
    };
    let fake = Fake::start(api, true, &turns).await;
    let tools = ToolRegistry::new()
        .with(weather.clone())
        .with(time.clone())
        .defer_loading_all();
    let result = runner(&fake, tools, RunOptions::new())
        .run(QUESTION)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(result.final_text().ok(), Some(FINAL), "{api:?}");
    let bodies = seen.add(&fake).await;
    assert_eq!(weather.runs(), 1, "{api:?}: the tool found runs");
    assert_eq!(
        time.runs.load(Ordering::SeqCst),
        0,
        "{api:?}: a tool no search returned ran"
    );
    let results = results(result.messages());
    let (_, _, refused) = results
        .iter()
        .find(|(_, name, _)| name == "get_time")
        .unwrap_or_else(|| panic!("{api:?}: no result for get_time: {results:?}"));
    assert_eq!(
        refused.error_code(),
        Some(ToolErrorCode::NotFound),
        "{api:?}: {refused:?}"
    );
    assert!(
        refused
            .model_text()
            .contains("is not loaded yet; call search_tools first"),
        "{api:?}: {refused:?}"
    );

    let first = &bodies[0];
    if native {
        // Every tool is sent, deferred, with the provider's search tool.
        let tools = text(&first["tools"]);
        assert!(tools.contains("\"defer_loading\":true"), "{api:?}: {tools}");
        assert!(
            tools.contains("get_time") && tools.contains("get_weather"),
            "{api:?}"
        );
        assert!(
            !api.tool_names(first).iter().any(|n| n == "search_tools"),
            "{api:?}"
        );
        // The search goes back as it came.
        let second = text(&bodies[1]);
        let marker = if api == Api::Anthropic {
            "srvtoolu_conformance"
        } else {
            "tso_conformance"
        };
        assert!(second.contains(marker), "{api:?}: {second}");
        seen.saw(Verdict::Yes)
    } else {
        if api.is_text_mode() {
            let instructions = api.instructions(first);
            assert!(instructions.contains("search_tools"), "{api:?}");
            assert!(
                !instructions.contains("get_time"),
                "{api:?}: {instructions}"
            );
        } else {
            assert_eq!(api.tool_names(first), ["search_tools"], "{api:?}");
        }
        seen.saw(Verdict::Fallback("the run's `search_tools`"))
    }
}
