//! Usage: each turn's tokens as the API reported them (`TurnFinished`), and the run's total
//! (`RunFinished`, `result.usage()`) their sum, streamed and whole. A run that fails reports
//! the tokens of the turns it completed (`RunFailed`'s `usage`, `RunError::usage`): when the
//! next request fails (the fake has no answer left and says 404), and when a limit stops it.

use serde_json::json;
use tool_core::model::Usage;
use tool_core::runner::{RunEvent, RunOptions};

use super::harness::runner as runner_for;
use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};
use crate::http_support::registry;

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    for stream in [true, false] {
        let case = format!("{api:?} stream={stream}");
        let turns = [
            Turn::call("w1", "get_weather", json!({"city": "Paris"})).with_usage(120, 25),
            Turn::text(FINAL).with_usage(180, 40),
        ];
        let fake = Fake::start(api, stream, &turns).await;
        let (tools, _) = registry();
        let runner = runner(&fake, tools, RunOptions::new());
        let (events, run) = streamed(&runner, QUESTION).await;
        seen.add(&fake).await;

        let per_turn: Vec<(u64, u64)> = events
            .iter()
            .filter_map(|e| match e {
                RunEvent::TurnFinished { usage, .. } => Some(
                    usage
                        .map(|u| (u.input_tokens, u.output_tokens))
                        .unwrap_or_default(),
                ),
                _ => None,
            })
            .collect();
        assert_eq!(per_turn, [(120, 25), (180, 40)], "{case}");
        let RunEvent::RunFinished {
            usage,
            turns: taken,
            ..
        } = last(&events)
        else {
            panic!("{case}: {:?}", last(&events))
        };
        assert_eq!(*taken, 2, "{case}");
        assert_eq!(
            (usage.input_tokens, usage.output_tokens, usage.total()),
            (300, 65, 365),
            "{case}"
        );
        assert_eq!(run.usage(), *usage, "{case}");

        // The same through `run`.
        let fake = Fake::start(api, stream, &turns).await;
        let (tools, _) = registry();
        let result = super::harness::runner(&fake, tools, RunOptions::new())
            .run(QUESTION)
            .await
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        seen.add(&fake).await;
        assert_eq!(
            result.usage(),
            Usage::new(300, 65),
            "{case}: the total through run()"
        );

        // A failed run: the second request fails, streamed and through `run`.
        let first = [Turn::call("w1", "get_weather", json!({"city": "Paris"})).with_usage(120, 25)];
        let fake = Fake::start(api, stream, &first).await;
        let (tools, _) = registry();
        let (events, _) = streamed(&runner_for(&fake, tools, RunOptions::new()), QUESTION).await;
        let RunEvent::RunFailed { error, usage } = last(&events) else {
            panic!("{case}: the run should fail: {:?}", last(&events))
        };
        assert!(error.status().is_some(), "{case}: a model error: {error}");
        assert_eq!(*usage, Usage::new(120, 25), "{case}: RunFailed's usage");
        assert_eq!(
            error.usage(),
            Usage::new(120, 25),
            "{case}: the error's usage"
        );
        let fake = Fake::start(api, stream, &first).await;
        let (tools, _) = registry();
        let error = runner_for(&fake, tools, RunOptions::new())
            .run(QUESTION)
            .await
            .expect_err("the second request fails");
        assert_eq!(error.usage(), Usage::new(120, 25), "{case}: run()'s error");

        // A run stopped by its turn limit.
        let fake = Fake::start(api, stream, &first).await;
        let (tools, _) = registry();
        let error = runner_for(&fake, tools, RunOptions::new().max_turns(1))
            .run(QUESTION)
            .await
            .expect_err("the turn limit stops the run");
        assert!(
            matches!(
                error,
                tool_core::runner::RunError::MaxTurns { limit: 1, .. }
            ),
            "{case}: {error}"
        );
        assert_eq!(
            error.usage(),
            Usage::new(120, 25),
            "{case}: MaxTurns' usage"
        );
        seen.add(&fake).await;
    }
    seen.saw(Verdict::Yes)
}
