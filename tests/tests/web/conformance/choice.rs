//! `allowed_tools` and a forced tool. With `allowed_tools(["get_weather"])` every tool is
//! still sent, the request restricts the model in the API's own field (Chat and Responses
//! `allowed_tools`, Gemini `allowedFunctionNames`), and a call of another tool is refused
//! with `PERMISSION_DENIED` and never runs; Anthropic and text mode have no such field (the
//! documented fallback: `auto`, or a sentence in the instructions; the refusal is the same).
//! `ToolChoice::Tool` forces the tool in the first request only.

use serde_json::{json, Value};
use tool_core::provider::{AllowedMode, ToolChoice};
use tool_core::runner::RunOptions;
use tool_core::{tool, tools, ToolErrorCode, ToolRegistry};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::Weather;

/// The local time in a city.
#[tool(read_only)]
fn get_time(city: String) -> String {
    format!("{city}: 10:00")
}

fn registry() -> (ToolRegistry, Weather) {
    let weather = Weather::default();
    (tools![get_time].with(weather.clone()), weather)
}

/// The request's restriction: its `tool_choice` (Gemini's `toolConfig`, the Interactions
/// API's `generation_config.tool_choice`).
fn choice(api: Api, body: &Value) -> Value {
    match api {
        Api::Gemini => body["toolConfig"]["function_calling_config"].clone(),
        Api::Interactions => body["generation_config"]["tool_choice"].clone(),
        _ => body["tool_choice"].clone(),
    }
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let fallback = "a sentence in the instructions; a call outside the set is refused";

    // allowed_tools: the model calls a tool outside the set, then one inside it.
    let turns = [
        Turn::call("t1", "get_time", json!({"city": "Paris"})).and_call(
            "w1",
            "get_weather",
            json!({"city": "Paris"}),
        ),
        Turn::text(FINAL),
    ];
    let fake = Fake::start(api, false, &turns).await;
    let (tools, weather) = registry();
    let options = RunOptions::new().allowed_tools(["get_weather"], AllowedMode::Auto);
    let result = runner(&fake, tools, options)
        .run(QUESTION)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(result.final_text().ok(), Some(FINAL), "{api:?}");
    assert_eq!(weather.runs(), 1, "{api:?}");
    let results = results(result.messages());
    assert_eq!(
        results[0].2.error_code(),
        Some(ToolErrorCode::PermissionDenied),
        "{api:?}: {results:?}"
    );
    assert_eq!(results[1].2.error_code(), None, "{api:?}");
    let bodies = seen.add(&fake).await;
    let first = &bodies[0];
    let restricted = choice(api, first);
    let verdict = match api {
        Api::Anthropic => {
            assert_eq!(
                api.tool_names(first),
                ["get_time", "get_weather"],
                "{api:?}"
            );
            assert_eq!(restricted, json!({"type": "auto"}), "{api:?}");
            Verdict::Fallback("`auto` or `any`; a call outside the set is refused")
        }
        Api::TextHermes | Api::TextUseTool => {
            let instructions = api.instructions(first);
            assert!(
                instructions.contains("you may use only these tools: 'get_weather'"),
                "{api:?}: {instructions}"
            );
            assert!(
                instructions.contains("get_time"),
                "{api:?}: every tool is listed"
            );
            Verdict::Fallback(fallback)
        }
        Api::Gemini => {
            assert_eq!(
                api.tool_names(first),
                ["get_time", "get_weather"],
                "{api:?}"
            );
            assert_eq!(
                restricted,
                json!({"mode": "VALIDATED", "allowed_function_names": ["get_weather"]}),
                "{api:?}"
            );
            Verdict::Yes
        }
        Api::Interactions => {
            assert_eq!(
                api.tool_names(first),
                ["get_time", "get_weather"],
                "{api:?}"
            );
            assert_eq!(
                restricted,
                json!({"allowed_tools": {"mode": "validated", "tools": ["get_weather"]}}),
                "{api:?}"
            );
            Verdict::Yes
        }
        _ => {
            assert_eq!(
                api.tool_names(first),
                ["get_time", "get_weather"],
                "{api:?}"
            );
            assert_eq!(restricted["type"], "allowed_tools", "{api:?}: {restricted}");
            let named = text(&restricted);
            assert!(
                named.contains("get_weather") && !named.contains("get_time"),
                "{api:?}: {restricted}"
            );
            Verdict::Yes
        }
    };
    // The restriction lasts the whole run; the tools part never changes.
    assert_eq!(choice(api, &bodies[1]), restricted, "{api:?}");
    assert_eq!(api.tool_names(&bodies[1]), api.tool_names(first), "{api:?}");

    // A forced tool: in the first request only.
    let turns = [
        Turn::call("w1", "get_weather", json!({"city": "Paris"})),
        Turn::text(FINAL),
    ];
    let fake = Fake::start(api, true, &turns).await;
    let (tools, weather) = registry();
    let options = RunOptions::new().tool_choice(ToolChoice::Tool("get_weather".into()));
    let result = runner(&fake, tools, options)
        .run(QUESTION)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(result.final_text().ok(), Some(FINAL), "{api:?}");
    assert_eq!(weather.runs(), 1, "{api:?}");
    let bodies = seen.add(&fake).await;
    let forced = choice(api, &bodies[0]);
    match api {
        Api::Chat | Api::ChatVllm | Api::ChatDeepSeek => assert_eq!(
            forced,
            json!({"type": "function", "function": {"name": "get_weather"}}),
            "{api:?}"
        ),
        Api::Responses => assert_eq!(
            forced,
            json!({"type": "function", "name": "get_weather"}),
            "{api:?}"
        ),
        Api::Anthropic => assert_eq!(
            forced,
            json!({"type": "tool", "name": "get_weather"}),
            "{api:?}"
        ),
        Api::Gemini => assert_eq!(
            forced,
            json!({"mode": "ANY", "allowed_function_names": ["get_weather"]}),
            "{api:?}"
        ),
        Api::Interactions => assert_eq!(
            forced,
            json!({"allowed_tools": {"mode": "any", "tools": ["get_weather"]}}),
            "{api:?}"
        ),
        Api::TextHermes | Api::TextUseTool => {
            let instructions = api.instructions(&bodies[0]);
            assert!(
                instructions.contains("you must use the tool 'get_weather'"),
                "{api:?}: {instructions}"
            );
            assert!(
                !api.instructions(&bodies[1])
                    .contains("you must use the tool"),
                "{api:?}: forced again"
            );
        }
    }
    if !api.is_text_mode() {
        assert_ne!(choice(api, &bodies[1]), forced, "{api:?}: forced again");
    }
    seen.saw(verdict)
}
