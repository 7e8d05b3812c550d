//! Optional tool parameters: `forecast(city, days?)`, and the model passes `days: null`. The
//! tool sees `days` absent, on every API. Where the request's schema is
//! strict (Chat Completions and Responses send `strict: true` when the schema fits), an
//! optional property must be required and nullable, so the model can leave it out by
//! writing null rather than having to invent a value.

use serde_json::{json, Value};
use tool_core::runner::RunOptions;
use tool_core::{CallFuture, Tool, ToolContext, ToolRegistry, ToolResponse};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};

/// `forecast(city, days?)`, with `days` optional and not nullable (as a hand-written schema
/// or `#[serde(default)]` gives it); it says what it received.
struct Forecast;

impl Tool for Forecast {
    fn name(&self) -> &str {
        "forecast"
    }
    fn description(&self) -> &str {
        "The forecast for a city."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "days": {"type": "integer", "description": "Days ahead; the default forecast when absent."}},
            "required": ["city"]})
    }
    fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
        let args: Value = serde_json::from_str(arguments).unwrap_or_default();
        let reply = match args.get("days") {
            None => "Paris: the default forecast".to_string(),
            Some(days) => format!("Paris: days = {days}"),
        };
        CallFuture::ready(ToolResponse::success(reply))
    }
}

/// The schema the request gives `forecast`, and whether it is strict.
fn offered(api: Api, body: &Value) -> (Value, bool) {
    match api {
        Api::Chat | Api::ChatVllm | Api::ChatDeepSeek => {
            let f = &body["tools"][0]["function"];
            (f["parameters"].clone(), f["strict"] == true)
        }
        Api::Responses => {
            let t = &body["tools"][0];
            (t["parameters"].clone(), t["strict"] == true)
        }
        _ => (Value::Null, false),
    }
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    // Whether the API's request makes the schema strict: a first run that answers at once.
    let probe = Fake::start(api, false, &[Turn::text(FINAL)]).await;
    runner(
        &probe,
        ToolRegistry::new().with(Forecast),
        RunOptions::new(),
    )
    .run(QUESTION)
    .await
    .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    let (schema, strict) = offered(api, &seen.add(&probe).await[0]);

    // Under a strict schema the model must write every property, so it writes null for the
    // one it leaves out; elsewhere it leaves it out.
    let args = if strict {
        json!({"city": "Paris", "days": null})
    } else {
        json!({"city": "Paris"})
    };
    let turns = [Turn::call("f1", "forecast", args), Turn::text(FINAL)];
    let fake = Fake::start(api, false, &turns).await;
    let result = runner(&fake, ToolRegistry::new().with(Forecast), RunOptions::new())
        .run(QUESTION)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    seen.add(&fake).await;
    if strict {
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert!(
            required.contains(&"days"),
            "{api:?}: strict needs every property: {schema}"
        );
        let days = text(&schema["properties"]["days"]);
        assert!(
            days.contains("null"),
            "{api:?}: an optional property must be nullable under strict: {schema}"
        );
    }
    let results = results(result.messages());
    assert_eq!(
        results[0].2.model_text(),
        "Paris: the default forecast",
        "{api:?} (strict: {strict}): the tool must see `days` absent: {results:?}"
    );
    seen.saw(Verdict::Yes)
}
