//! Namespaces: `get_weather` merged into the registry under the `weather` namespace. OpenAI
//! Responses offers it as a `namespace` tool and the model calls it by its own name with the
//! namespace apart; every other API gets the qualified name `weather__get_weather` (the
//! documented fallback). Streamed: the namespaced call runs once, under its qualified name,
//! with one result for its call id.

use serde_json::json;
use tool_core::runner::RunOptions;
use tool_core::{Shape, ToolNamespace, ToolRegistry};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::Weather;

pub const QUALIFIED: &str = "qualified names (`weather__get_weather`)";

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let weather = Weather::default();
    let registry = ToolRegistry::new()
        .merge(
            &ToolRegistry::new().with(weather.clone()),
            Shape::new().namespace(ToolNamespace::new("weather", "Weather reports by city.")),
        )
        .expect("the namespace merges");
    let args = json!({"city": "Paris"});
    let call = if api == Api::Responses {
        Turn::call("w1", "get_weather", args).in_namespace("weather")
    } else {
        Turn::call("w1", "weather__get_weather", args)
    };
    let turns = [call, Turn::text(FINAL)];
    let fake = Fake::start(api, true, &turns).await;
    let (events, run) = streamed(&runner(&fake, registry, RunOptions::new()), QUESTION).await;
    let bodies = seen.add(&fake).await;
    assert_eq!(run.messages().len(), 4, "{api:?}: {events:?}");
    assert_eq!(
        weather.runs(),
        1,
        "{api:?}: the namespaced tool runs once: {events:?}"
    );
    let results = results(run.messages());
    let summary: Vec<(String, String, String)> = results
        .iter()
        .map(|(id, name, r)| (id.clone(), name.clone(), r.model_text().to_string()))
        .collect();
    assert_eq!(
        summary.len(),
        1,
        "{api:?}: one result per call: {summary:?}"
    );
    assert_eq!(summary[0].1, "weather__get_weather", "{api:?}");
    assert_eq!(summary[0].2, "15 C, light rain", "{api:?}");
    let first = &bodies[0];
    match api {
        Api::Responses => {
            assert_eq!(first["tools"][0]["type"], "namespace", "{api:?}: {first}");
            assert_eq!(first["tools"][0]["name"], "weather", "{api:?}");
            assert_eq!(
                first["tools"][0]["tools"][0]["name"], "get_weather",
                "{api:?}"
            );
            // The call goes back as the server sent it.
            let second = text(&bodies[1]);
            assert!(
                second.contains("\"namespace\":\"weather\""),
                "{api:?}: {second}"
            );
            seen.saw(Verdict::Yes)
        }
        _ if api.is_text_mode() => {
            assert!(
                api.instructions(first).contains("weather__get_weather"),
                "{api:?}"
            );
            seen.saw(Verdict::Fallback(QUALIFIED))
        }
        _ => {
            assert_eq!(api.tool_names(first), ["weather__get_weather"], "{api:?}");
            seen.saw(Verdict::Fallback(QUALIFIED))
        }
    }
}
