//! Usage totals and `UsageLimits`: the run's totals are the sum of its recorded turns (HTTP
//! adapters and text mode alike), and each limit ends the run with a typed error before the
//! step that would cross it, leaving the run resumable once the limit is raised.

use tool_core::model::{ModelError, ModelTurn, ScriptedModel, TextMode, Usage};
use tool_core::parse::ToolFormat;
use tool_core::runner::{
    RunError, RunEvent, RunOptions, RunOutcome, Runner, UsageLimit, UsageLimits,
};
use tool_core::{tool, tools, CancelFlag, ToolCall};

/// Says hi.
#[tool]
fn hi() -> &'static str {
    "hi"
}

fn usage(input: u64, output: u64, cached: u64, reasoning: u64) -> Usage {
    Usage {
        cached_input_tokens: cached,
        reasoning_tokens: reasoning,
        ..Usage::new(input, output)
    }
}

fn calls(n: usize) -> Vec<ToolCall> {
    (0..n)
        .map(|i| ToolCall::new(format!("c{i}"), "hi", "{}"))
        .collect()
}

/// Three turns: two with calls, then the answer; each with its own usage.
fn script() -> Vec<ModelTurn> {
    vec![
        ModelTurn {
            usage: Some(usage(100, 20, 0, 5)),
            ..ModelTurn::with_calls("", calls(2))
        },
        ModelTurn {
            usage: Some(usage(150, 30, 100, 7)),
            ..ModelTurn::with_calls("", calls(1))
        },
        ModelTurn {
            usage: Some(usage(200, 40, 150, 0)),
            ..ModelTurn::text("Done.")
        },
    ]
}

#[tokio::test]
async fn totals_are_the_sum_of_the_turns_in_the_result_and_the_last_event() {
    let runner = Runner::new(ScriptedModel::new(script()), tools![hi]);
    let result = runner.run("Say hi").await.unwrap();
    let expected = usage(450, 90, 250, 12);
    assert_eq!(result.usage(), expected);
    assert_eq!(result.usage().total(), 540);

    let events = runner.run_streamed("Say hi").collect_events().await;
    let per_turn: Usage = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::TurnFinished { usage, .. } => *usage,
            _ => None,
        })
        .fold(Usage::default(), |a, b| a + b);
    assert_eq!(per_turn, expected);
    assert!(
        matches!(events.last(), Some(RunEvent::RunFinished { usage, .. }) if *usage == expected)
    );
}

#[tokio::test]
async fn text_mode_totals_are_the_inner_models_turns() {
    let inner = ScriptedModel::new([
        ModelTurn {
            usage: Some(usage(300, 25, 0, 0)),
            ..ModelTurn::text("<tool_call>\n{\"name\": \"hi\", \"arguments\": {}}\n</tool_call>")
        },
        ModelTurn {
            usage: Some(usage(340, 5, 300, 0)),
            ..ModelTurn::text("Hi!")
        },
    ]);
    let runner = Runner::new(TextMode::new(inner, ToolFormat::Hermes), tools![hi]);
    let result = runner.run("Say hi").await.unwrap();
    assert_eq!(result.final_text().unwrap(), "Hi!");
    assert_eq!(result.usage(), usage(640, 30, 300, 0));
}

#[tokio::test]
async fn the_request_limit_stops_before_the_request_that_would_cross_it() {
    let model = ScriptedModel::new(script());
    let runner = Runner::new(model.clone(), tools![hi])
        .with_options(RunOptions::new().usage_limits(UsageLimits::new().requests(2)));
    let mut run = runner.start("Say hi");
    let error = runner
        .drive(&mut run, &CancelFlag::new())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        RunError::UsageLimit {
            limit: UsageLimit::Requests(2),
            used: 2,
            usage: usage(250, 50, 100, 12),
        }
    );
    assert_eq!(
        model.requests().len(),
        2,
        "the third request was never sent"
    );
    assert!(
        error.to_string().contains("UsageLimits::requests"),
        "{error}"
    );
    assert!(!error.is_retryable());
    let json = serde_json::to_value(&error).unwrap();
    assert_eq!(json["kind"], "usage_limit");

    // Raised, the same run goes on from where it stopped.
    run.options_mut().usage_limits = UsageLimits::new().requests(3);
    let outcome = runner.drive(&mut run, &CancelFlag::new()).await.unwrap();
    assert_eq!(
        outcome,
        RunOutcome::Finished {
            text: "Done.".into()
        }
    );
}

#[tokio::test]
async fn the_token_limit_stops_the_calls_of_the_turn_that_crossed_it() {
    let model = ScriptedModel::new(script());
    let runner = Runner::new(model.clone(), tools![hi])
        .with_options(RunOptions::new().usage_limits(UsageLimits::new().total_tokens(250)));
    let mut run = runner.start("Say hi");
    let error = runner
        .drive(&mut run, &CancelFlag::new())
        .await
        .unwrap_err();
    // 120 after turn one, 300 after turn two: its call does not run.
    assert_eq!(
        error,
        RunError::UsageLimit {
            limit: UsageLimit::TotalTokens(250),
            used: 300,
            usage: usage(250, 50, 100, 12),
        }
    );
    assert_eq!(model.requests().len(), 2);
    assert_eq!(
        run.messages().len(),
        4,
        "user, turn, results, turn: no second results"
    );
}

#[tokio::test]
async fn the_token_limit_reached_exactly_stops_before_the_next_request() {
    let model = ScriptedModel::new(script());
    let runner = Runner::new(model.clone(), tools![hi])
        .with_options(RunOptions::new().usage_limits(UsageLimits::new().total_tokens(120)));
    let error = runner.run("Say hi").await.unwrap_err();
    assert_eq!(
        error,
        RunError::UsageLimit {
            limit: UsageLimit::TotalTokens(120),
            used: 120,
            usage: usage(100, 20, 0, 5),
        }
    );
    assert_eq!(model.requests().len(), 1);
}

#[tokio::test]
async fn the_tool_call_limit_stops_before_a_batch_that_would_cross_it() {
    let model = ScriptedModel::new(script());
    let runner = Runner::new(model.clone(), tools![hi])
        .with_options(RunOptions::new().usage_limits(UsageLimits::new().tool_calls(2)));
    let events = runner.run_streamed("Say hi").collect_events().await;
    let results = events
        .iter()
        .filter(|e| matches!(e, RunEvent::ToolResult { .. }))
        .count();
    assert_eq!(results, 2, "turn one's two calls ran, turn two's did not");
    let Some(RunEvent::RunFailed {
        error,
        usage: spent,
    }) = events.last()
    else {
        panic!("{:?}", events.last())
    };
    assert_eq!(
        *error,
        RunError::UsageLimit {
            limit: UsageLimit::ToolCalls(2),
            used: 2,
            usage: usage(250, 50, 100, 12),
        }
    );
    assert_eq!(*spent, usage(250, 50, 100, 12));
}

#[tokio::test]
async fn a_failed_streamed_run_keeps_the_model_errors_status_and_retryability() {
    let limited = ModelError::from_status(429, "Rate limit reached")
        .with_retry_after(std::time::Duration::from_secs(2));
    let runner = Runner::new(
        ScriptedModel::from_results([Err(limited)]),
        tool_core::ToolRegistry::new(),
    );
    let mut stream = runner.run_streamed("Hello");
    let mut last = None;
    while let Some(event) = stream.next_event().await {
        last = Some(event);
    }
    assert_eq!(stream.text(), None);
    let error = stream.outcome().unwrap().unwrap_err();
    assert_eq!((error.status(), error.is_retryable()), (Some(429), true));
    let json = serde_json::to_value(last.unwrap()).unwrap();
    assert_eq!(json["type"], "run_failed");
    assert_eq!(json["error"]["status"], 429);
    assert_eq!(json["error"]["retryable"], true);
    assert_eq!(json["error"]["model_kind"], "rate_limited");
    assert_eq!(json["error"]["retry_after_ms"], 2000);
}

/// A model error on turn three after two completed turns: the run's error and the stream's
/// last event both carry the two turns' tokens.
#[tokio::test]
async fn a_run_failing_on_a_model_error_reports_the_tokens_of_its_completed_turns() {
    let mut turns: Vec<Result<ModelTurn, ModelError>> =
        script().into_iter().take(2).map(Ok).collect();
    turns.push(Err(ModelError::from_status(503, "overloaded")));
    let spent = usage(250, 50, 100, 12);

    let runner = Runner::new(ScriptedModel::from_results(turns.clone()), tools![hi]);
    let error = runner.run("Say hi").await.unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(error.usage(), spent);

    let runner = Runner::new(ScriptedModel::from_results(turns), tools![hi]);
    let events = runner.run_streamed("Say hi").collect_events().await;
    let Some(RunEvent::RunFailed { error, usage }) = events.last() else {
        panic!("{:?}", events.last())
    };
    assert_eq!(
        (error.status(), *usage, error.usage()),
        (Some(503), spent, spent)
    );
    let json = serde_json::to_value(events.last()).unwrap();
    assert_eq!(json["usage"]["input_tokens"], 250);
    assert_eq!(json["usage"]["output_tokens"], 50);
}

/// The limit errors carry the run's tokens too, read with `RunError::usage`.
#[tokio::test]
async fn a_run_stopped_by_a_limit_reports_its_tokens() {
    let runner = Runner::new(ScriptedModel::new(script()), tools![hi])
        .with_options(RunOptions::new().max_turns(2));
    let error = runner.run("Say hi").await.unwrap_err();
    assert!(
        matches!(error, RunError::MaxTurns { limit: 2, .. }),
        "{error:?}"
    );
    assert_eq!(error.usage(), usage(250, 50, 100, 12));
}
