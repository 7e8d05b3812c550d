//! The async driver on the scripted model: limits, structured output, tool_choice reset,
//! approval across serialization, cancellation, failing tools and the concurrency cap.

use std::future::poll_fn;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;

use tool_core::model::{Message, ModelError, ModelErrorKind, ModelTurn, ScriptedModel};
use tool_core::provider::ToolChoice;
use tool_core::runner::{ApprovalPolicy, Run, RunError, RunOptions, RunOutcome, Runner};
use tool_core::{block_on, tool, tool_type, tools, CancelFlag, ToolCall, ToolErrorCode};

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

fn results_of(message: &Message) -> Vec<(String, String)> {
    match message {
        Message::Tool { results } => results
            .iter()
            .map(|r| (r.call_id.clone(), r.response.model_text().into_owned()))
            .collect(),
        other => panic!("expected tool results, got {other:?}"),
    }
}

/// Searches the catalogue.
#[tool(read_only)]
fn search(
    /// Query.
    q: String,
) -> String {
    format!("results for {q}")
}

#[test]
fn max_turns_is_a_typed_error_naming_the_limit() {
    // A model that never stops calling tools.
    let turns = (0..20).map(|i| {
        ModelTurn::with_calls(
            "",
            vec![call(&format!("c{i}"), "search", r#"{"q":"again"}"#)],
        )
    });
    let model = ScriptedModel::new(turns);
    let runner =
        Runner::new(model.clone(), tools![search]).with_options(RunOptions::new().max_turns(3));
    let error = block_on(runner.run("loop")).unwrap_err();
    assert!(
        matches!(error, RunError::MaxTurns { limit: 3, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("limit of 3 model turns"));
    // Exactly three requests reached the model, and the third turn's call still ran.
    assert_eq!(model.requests().len(), 3);

    // The default is ten.
    let model = ScriptedModel::new((0..20).map(|i| {
        ModelTurn::with_calls("", vec![call(&format!("c{i}"), "search", r#"{"q":"x"}"#)])
    }));
    let runner = Runner::new(model.clone(), tools![search]);
    let error = block_on(runner.run("loop")).unwrap_err();
    assert!(
        matches!(error, RunError::MaxTurns { limit: 10, .. }),
        "{error:?}"
    );
    assert_eq!(model.requests().len(), 10);
}

#[tool_type]
#[derive(Debug)]
struct Recommendation {
    title: String,
    score: f64,
}

static SHOWN: AtomicUsize = AtomicUsize::new(0);

/// Shows a recommendation card to the user.
#[tool]
fn show_recommendation(
    /// The card.
    card: Recommendation,
) -> String {
    SHOWN.fetch_add(1, Ordering::SeqCst);
    card.title
}

#[test]
fn stop_at_tool_returns_typed_arguments_without_running_the_tool() {
    let model = ScriptedModel::new([ModelTurn::with_calls(
        "Here is one.",
        vec![call(
            "c1",
            "show_recommendation",
            r#"{"card":{"title":"Dune","score":0.93}}"#,
        )],
    )]);
    let runner = Runner::new(model.clone(), tools![search, show_recommendation]).with_options(
        RunOptions::new()
            .tool_choice(ToolChoice::tool("show_recommendation"))
            .stop_at_tool("show_recommendation"),
    );
    let result = block_on(runner.run("Recommend a novel")).unwrap();

    #[tool_type]
    #[derive(Debug)]
    struct Args {
        card: Recommendation,
    }
    let args: Args = result.output().unwrap();
    assert_eq!(args.card.title, "Dune");
    assert_eq!(args.card.score, 0.93);
    assert_eq!(
        SHOWN.load(Ordering::SeqCst),
        0,
        "the stop tool must not run"
    );
    assert_eq!(
        model.requests()[0].tool_choice,
        ToolChoice::tool("show_recommendation")
    );

    // Arguments that do not fit the type are an instructive error, not a panic.
    let model = ScriptedModel::new([ModelTurn::with_calls(
        "",
        vec![call("c1", "show_recommendation", r#"{"card":{"title":7}}"#)],
    )]);
    let runner = Runner::new(model, tools![show_recommendation])
        .with_options(RunOptions::new().stop_at_tool("show_recommendation"));
    let result = block_on(runner.run("x")).unwrap();
    let error = result.output::<Args>().unwrap_err();
    assert_eq!(error.error_code(), Some(ToolErrorCode::InvalidParam));
    assert!(error.error_message().unwrap().contains("card.title"));
}

#[test]
fn a_forced_tool_choice_is_reset_to_auto_after_the_forced_turn() {
    let script = [
        ModelTurn::with_calls("", vec![call("c1", "search", r#"{"q":"rust"}"#)]),
        ModelTurn::text("Found it."),
    ];
    let model = ScriptedModel::new(script.clone());
    let runner = Runner::new(model.clone(), tools![search])
        .with_options(RunOptions::new().tool_choice(ToolChoice::tool("search")));
    let result = block_on(runner.run("find rust")).unwrap();
    assert_eq!(result.text(), Some("Found it."));
    let choices: Vec<ToolChoice> = model
        .requests()
        .into_iter()
        .map(|r| r.tool_choice)
        .collect();
    assert_eq!(choices, [ToolChoice::tool("search"), ToolChoice::Auto]);

    // `Required` resets too; `keep_tool_choice` keeps it.
    let model = ScriptedModel::new(script.clone());
    let runner = Runner::new(model.clone(), tools![search])
        .with_options(RunOptions::new().tool_choice(ToolChoice::Required));
    block_on(runner.run("x")).unwrap();
    let choices: Vec<ToolChoice> = model
        .requests()
        .into_iter()
        .map(|r| r.tool_choice)
        .collect();
    assert_eq!(choices, [ToolChoice::Required, ToolChoice::Auto]);

    let model = ScriptedModel::new(script);
    let runner = Runner::new(model.clone(), tools![search]).with_options(
        RunOptions::new()
            .tool_choice(ToolChoice::tool("search"))
            .keep_tool_choice(),
    );
    block_on(runner.run("x")).unwrap();
    let choices: Vec<ToolChoice> = model
        .requests()
        .into_iter()
        .map(|r| r.tool_choice)
        .collect();
    assert_eq!(
        choices,
        [ToolChoice::tool("search"), ToolChoice::tool("search")]
    );
}

static DELETED: AtomicUsize = AtomicUsize::new(0);

/// Deletes a file.
#[tool(destructive)]
fn delete_file(
    /// Path.
    path: String,
) -> String {
    DELETED.fetch_add(1, Ordering::SeqCst);
    format!("deleted {path}")
}

#[test]
fn approval_pauses_the_run_which_survives_serialization_and_resumes() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "Cleaning up.",
            vec![
                call("c1", "delete_file", r#"{"path":"/tmp/a"}"#),
                call("c2", "search", r#"{"q":"logs"}"#),
                call("c3", "delete_file", r#"{"path":"/etc/hosts"}"#),
            ],
        ),
        ModelTurn::text("Deleted /tmp/a; /etc/hosts was kept."),
    ]);
    // The registry's own hook would refuse everything: a person's approval overrides it.
    let registry = tools![delete_file, search].with_approval_hook(
        |_: &ToolCall, _: &tool_core::ToolDefinition| {
            tool_core::Approval::Denied("registry hook".into())
        },
    );
    let runner = Runner::new(model.clone(), registry);

    let paused = block_on(runner.run("Clean up")).unwrap();
    let pending: Vec<&str> = paused
        .pending_approvals()
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(pending, ["c1", "c3"]);
    assert_eq!(
        DELETED.load(Ordering::SeqCst),
        0,
        "nothing runs before the decisions"
    );
    assert_eq!(model.requests().len(), 1);

    // Stored while a person decides (as text, e.g. in a database) and restored later.
    let stored = serde_json::to_string(&paused.run).unwrap();
    drop(paused);
    let mut run: Run = serde_json::from_str(&stored).unwrap();
    assert_eq!(run.pending_approvals().len(), 2);
    run.approve("c1").unwrap();
    // Still paused with one decision missing.
    let still = block_on(runner.resume(run)).unwrap();
    assert_eq!(still.pending_approvals().len(), 1);
    let mut run = still.into_run();
    assert_eq!(
        run.approve("c2"),
        Err(RunError::NotPending {
            call_id: "c2".into()
        })
    );
    run.deny("c3", "system files stay").unwrap();

    let done = block_on(runner.resume(run)).unwrap();
    assert_eq!(done.text(), Some("Deleted /tmp/a; /etc/hosts was kept."));
    assert_eq!(
        DELETED.load(Ordering::SeqCst),
        1,
        "only the approved call ran, once"
    );
    let results = results_of(&done.messages()[2]);
    assert_eq!(results[0], ("c1".into(), "deleted /tmp/a".into()));
    assert_eq!(results[1], ("c2".into(), "results for logs".into()));
    assert_eq!(results[2].0, "c3");
    assert!(results[2].1.starts_with(
        "Error [PERMISSION_DENIED]: The call to 'delete_file' was not approved: system files stay."
    ));
    // The model's second request is the one that carried them.
    assert_eq!(model.requests().len(), 2);
    assert_eq!(model.requests()[1].messages[2], done.messages()[2]);
}

#[test]
fn approval_policy_never_leaves_destructive_calls_to_the_registry() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![call("c1", "delete_file", r#"{"path":"x"}"#)]),
        ModelTurn::text("ok"),
    ]);
    let registry =
        tools![delete_file].with_approval_hook(|_: &ToolCall, _: &tool_core::ToolDefinition| {
            tool_core::Approval::Denied("no".into())
        });
    let runner = Runner::new(model, registry)
        .with_options(RunOptions::new().approval(ApprovalPolicy::Never));
    let done = block_on(runner.run("x")).unwrap();
    let results = results_of(&done.messages()[2]);
    assert!(results[0].1.contains("PERMISSION_DENIED"), "{results:?}");
}

/// Reports whether the run was cancelled, after asking for it (the user pressing stop while
/// the tool runs).
#[tool]
fn long_task(cancel: CancelFlag) -> String {
    cancel.cancel();
    format!("saw cancellation: {}", cancel.is_cancelled())
}

#[test]
fn cancellation_stops_after_the_current_step_and_tools_see_the_flag() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![call("c1", "long_task", "{}")]),
        ModelTurn::text("never requested"),
    ]);
    let runner = Runner::new(model.clone(), tools![long_task]);
    let mut run = runner.start("go");
    let flag = CancelFlag::new();
    let outcome = block_on(runner.drive(&mut run, &flag)).unwrap();
    assert_eq!(outcome, RunOutcome::Cancelled);
    // The step in progress completed: its result is in the history, no further request.
    assert_eq!(
        results_of(&run.messages()[2]),
        [("c1".to_string(), "saw cancellation: true".to_string())]
    );
    assert_eq!(model.requests().len(), 1);

    // A flag set before the run starts stops it before the first request.
    let model = ScriptedModel::new([ModelTurn::text("hi")]);
    let runner = Runner::new(model.clone(), tools![long_task]);
    let flag = CancelFlag::new();
    flag.cancel();
    let mut run = runner.start("go");
    assert_eq!(
        block_on(runner.drive(&mut run, &flag)).unwrap(),
        RunOutcome::Cancelled
    );
    assert!(model.requests().is_empty());
}

/// Always panics.
#[tool]
fn broken() -> String {
    panic!("index out of range")
}

#[test]
fn unknown_and_panicking_tools_go_back_to_the_model_as_errors() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![
                call("c1", "serch", r#"{"q":"x"}"#),
                call("c2", "broken", "{}"),
                call("c3", "search", r#"{"q":"ok"}"#),
            ],
        ),
        ModelTurn::text("Sorry."),
    ]);
    let runner = Runner::new(model.clone(), tools![search, broken]);
    let done = block_on(runner.run("x")).unwrap();
    assert_eq!(done.text(), Some("Sorry."));
    let Message::Tool { results } = &model.requests()[1].messages[2] else {
        panic!()
    };
    assert_eq!(
        results[0].response.error_code(),
        Some(ToolErrorCode::NotFound)
    );
    assert!(results[0]
        .response
        .error_message()
        .unwrap()
        .contains("Did you mean 'search'?"));
    assert_eq!(
        results[1].response.error_code(),
        Some(ToolErrorCode::ExecutionError)
    );
    assert!(results[1]
        .response
        .error_message()
        .unwrap()
        .contains("index out of range"));
    assert_eq!(results[2].response.model_text(), "results for ok");
}

#[test]
fn a_model_error_leaves_the_run_resumable() {
    let model = ScriptedModel::from_results([Err(ModelError::from_status(503, "overloaded"))]);
    let runner = Runner::new(model, tools![search]);
    let mut run = runner.start("x");
    let error = block_on(runner.drive(&mut run, &CancelFlag::new())).unwrap_err();
    let RunError::Model(error) = error else {
        panic!("{error:?}")
    };
    assert_eq!(error.kind(), ModelErrorKind::Server);
    assert!(error.is_retryable());
    // Same state as before the failed request: a working model can take over.
    assert_eq!(run.turns(), 0);
    let fixed = Runner::new(
        ScriptedModel::new([ModelTurn::text("back")]),
        tools![search],
    );
    assert_eq!(
        block_on(fixed.drive(&mut run, &CancelFlag::new())).unwrap(),
        RunOutcome::Finished {
            text: "back".into()
        }
    );
}

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Pending once, then ready (lets concurrent calls interleave on one task).
async fn yield_now() {
    let mut yielded = false;
    poll_fn(|cx| {
        if yielded {
            Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .await
}

/// Works for `steps` scheduling rounds and reports its id.
#[tool]
async fn work(
    /// Id.
    id: u32,
    /// Rounds.
    steps: u32,
) -> String {
    let live = LIVE.fetch_add(1, Ordering::SeqCst) + 1;
    PEAK.fetch_max(live, Ordering::SeqCst);
    for _ in 0..steps {
        yield_now().await;
    }
    LIVE.fetch_sub(1, Ordering::SeqCst);
    format!("done {id}")
}

fn peak_with(options: RunOptions) -> (usize, Vec<String>) {
    // Later calls are shorter, so they finish first when they run together.
    let calls = (0..6)
        .map(|i| {
            call(
                &format!("c{i}"),
                "work",
                &format!(r#"{{"id":{i},"steps":{}}}"#, 12 - 2 * i),
            )
        })
        .collect();
    let model = ScriptedModel::new([ModelTurn::with_calls("", calls), ModelTurn::text("ok")]);
    let runner = Runner::new(model, tools![work]).with_options(options);
    PEAK.store(0, Ordering::SeqCst);
    let done = block_on(runner.run("x")).unwrap();
    let texts = results_of(&done.messages()[2])
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    (PEAK.load(Ordering::SeqCst), texts)
}

#[test]
fn the_concurrency_cap_bounds_the_observed_peak_and_results_stay_in_call_order() {
    let expected: Vec<String> = (0..6).map(|i| format!("done {i}")).collect();
    let (peak, texts) = peak_with(RunOptions::new().max_concurrency(2));
    assert_eq!(peak, 2);
    assert_eq!(texts, expected);
    // Without a cap all calls of the turn run together (calls started only once the whole
    // turn is in: started early, the first ones would be done before the last ones start).
    let (peak, texts) = peak_with(RunOptions::new().start_calls_early(false));
    assert_eq!(peak, 6);
    assert_eq!(texts, expected);
}

/// A model whose stream is cut after some text, before the turn is finished.
struct CutShort;

impl tool_core::model::Model for CutShort {
    fn stream<'a>(
        &'a self,
        _request: tool_core::model::ModelRequest<'a>,
    ) -> tool_core::model::ModelStream<'a> {
        tool_core::model::from_events([
            Ok(tool_core::model::ModelEvent::TextDelta("Let me".into())),
            Ok(tool_core::model::ModelEvent::CallStarted {
                index: 0,
                id: "c1".into(),
                name: "search".into(),
            }),
        ])
    }
}

#[test]
fn a_stream_cut_before_the_turn_finished_is_an_incomplete_error_and_nothing_runs() {
    let runner = Runner::new(CutShort, tools![search]);
    let mut run = runner.start("x");
    let error = block_on(runner.drive(&mut run, &CancelFlag::new())).unwrap_err();
    let RunError::Model(error) = error else {
        panic!("{error:?}")
    };
    assert_eq!(error.kind(), ModelErrorKind::Incomplete);
    assert_eq!(run.turns(), 0);
    assert_eq!(run.messages().len(), 1, "no partial turn is recorded");
}
