//! Limits: `max_turns`, and `UsageLimits` on tool calls and model requests, each ending the
//! run with its error before the step that would cross it, with nothing run past it.

use serde_json::json;
use tool_core::runner::{RunError, RunOptions, UsageLimit, UsageLimits};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::registry;

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let calling = |id: &str, city: &str| Turn::call(id, "get_weather", json!({"city": city}));

    // max_turns: the model keeps calling; the run stops after two turns.
    let turns = [
        calling("w1", "Paris"),
        calling("w2", "Tokyo"),
        Turn::text(FINAL),
    ];
    let fake = Fake::start(api, true, &turns).await;
    let (tools, weather) = registry();
    let error = runner(&fake, tools, RunOptions::new().max_turns(2))
        .run(QUESTION)
        .await
        .expect_err("the turn limit ends the run");
    assert!(
        matches!(error, RunError::MaxTurns { .. }),
        "{api:?}: {error:?}"
    );
    assert_eq!(seen.add(&fake).await.len(), 2, "{api:?}: no third request");
    assert_eq!(weather.runs(), 2, "{api:?}");

    // Tool calls: a turn of two calls when one is allowed runs neither.
    let turns = [calling("w1", "Paris").and_call("w2", "get_weather", json!({"city": "Tokyo"}))];
    let fake = Fake::start(api, false, &turns).await;
    let (tools, weather) = registry();
    let options = RunOptions::new().usage_limits(UsageLimits::new().tool_calls(1));
    let error = runner(&fake, tools, options)
        .run(QUESTION)
        .await
        .expect_err("the call limit ends the run");
    assert!(
        matches!(
            error,
            RunError::UsageLimit {
                limit: UsageLimit::ToolCalls(1),
                ..
            }
        ),
        "{api:?}: {error:?}"
    );
    assert_eq!(weather.runs(), 0, "{api:?}");
    seen.add(&fake).await;

    // Requests: one request allowed; the second is never sent.
    let turns = [calling("w1", "Paris"), Turn::text(FINAL)];
    let fake = Fake::start(api, true, &turns).await;
    let (tools, weather) = registry();
    let options = RunOptions::new().usage_limits(UsageLimits::new().requests(1));
    let error = runner(&fake, tools, options)
        .run(QUESTION)
        .await
        .expect_err("the request limit ends the run");
    assert!(
        matches!(
            error,
            RunError::UsageLimit {
                limit: UsageLimit::Requests(1),
                ..
            }
        ),
        "{api:?}: {error:?}"
    );
    assert_eq!(weather.runs(), 1, "{api:?}");
    assert_eq!(seen.add(&fake).await.len(), 1, "{api:?}");
    seen.saw(Verdict::Yes)
}
