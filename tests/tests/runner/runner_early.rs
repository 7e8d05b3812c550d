//! Calls start when their arguments are complete: with a model that streams two calls 500 ms
//! apart, the first call has run and its result is out before the model's turn ends; results
//! still go back in the model's order; a call that needs approval does not start early, and
//! one that ran early is not run again after the approval; the option turns it off.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tool_core::model::{
    Message, Model, ModelEvent, ModelRequest, ModelStream, ModelTurn, StopReason,
};
use tool_core::runner::{RunEvent, RunOptions, RunOutcome, Runner};
use tool_core::{tool, tools, CancelFlag, ToolCall, ToolRegistry};

/// Streams turn one as: call 1 complete, 500 ms of silence, call 2 complete, end of turn;
/// then answers "Done." Like a provider that streams a second call slowly.
struct TwoCallsApart {
    calls: [ToolCall; 2],
    requests: AtomicUsize,
}

impl TwoCallsApart {
    fn new(second: &str) -> Self {
        TwoCallsApart {
            calls: [
                ToolCall::new("c1", "lookup", r#"{"key":"a"}"#),
                ToolCall::new("c2", second, r#"{"key":"b"}"#),
            ],
            requests: AtomicUsize::new(0),
        }
    }
}

impl Model for TwoCallsApart {
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
        let answered = request
            .messages
            .iter()
            .any(|m| matches!(m, Message::Tool { .. }));
        self.requests.fetch_add(1, Ordering::SeqCst);
        let steps: Vec<(u64, ModelEvent)> = if answered {
            vec![(0, ModelEvent::Finished(ModelTurn::text("Done.")))]
        } else {
            let [first, second] = self.calls.clone();
            let mut turn = ModelTurn::with_calls("", vec![first.clone(), second.clone()]);
            turn.stop_reason = StopReason::ToolUse;
            vec![
                (
                    0,
                    ModelEvent::CallStarted {
                        index: 0,
                        id: "c1".into(),
                        name: first.name.clone(),
                    },
                ),
                (
                    0,
                    ModelEvent::CallReady {
                        index: 0,
                        call: first,
                    },
                ),
                (
                    500,
                    ModelEvent::CallStarted {
                        index: 1,
                        id: "c2".into(),
                        name: second.name.clone(),
                    },
                ),
                (
                    0,
                    ModelEvent::CallReady {
                        index: 1,
                        call: second,
                    },
                ),
                (0, ModelEvent::Finished(turn)),
            ]
        };
        Box::pin(
            futures_util::stream::iter(steps).then(|(ms, event)| async move {
                if ms > 0 {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                Ok(event)
            }),
        )
    }
}

fn registry() -> ToolRegistry {
    /// Looks a key up.
    #[tool(read_only)]
    fn lookup(key: String, runs: tool_core::Extension<Arc<Mutex<Vec<String>>>>) -> String {
        runs.0.lock().unwrap().push(key.clone());
        format!("value of {key}")
    }
    /// Deletes a key.
    #[tool(destructive)]
    fn delete(key: String, runs: tool_core::Extension<Arc<Mutex<Vec<String>>>>) -> String {
        runs.0.lock().unwrap().push(format!("delete {key}"));
        format!("deleted {key}")
    }
    tools![lookup, delete]
}

fn position(events: &[RunEvent], wanted: impl Fn(&RunEvent) -> bool) -> usize {
    events
        .iter()
        .position(wanted)
        .unwrap_or_else(|| panic!("event not found in {events:#?}"))
}

fn is_result(id: &'static str) -> impl Fn(&RunEvent) -> bool {
    move |e| matches!(e, RunEvent::ToolResult { call_id, .. } if call_id == id)
}

fn is_ready(id: &'static str) -> impl Fn(&RunEvent) -> bool {
    move |e| matches!(e, RunEvent::CallReady { call, .. } if call.id == id)
}

fn turn_finished(e: &RunEvent) -> bool {
    matches!(e, RunEvent::TurnFinished { turn: 1, .. })
}

fn runner(
    model: TwoCallsApart,
    options: RunOptions,
) -> (Runner<TwoCallsApart>, Arc<Mutex<Vec<String>>>) {
    let runs: Arc<Mutex<Vec<String>>> = Arc::default();
    let context = tool_core::CallContext::new().with_extension(Arc::clone(&runs));
    let runner = Runner::new(model, registry())
        .with_options(options)
        .with_context(context);
    (runner, runs)
}

#[tokio::test]
async fn the_first_call_finishes_before_the_turn_ends() {
    let (runner, runs) = runner(TwoCallsApart::new("lookup"), RunOptions::new());
    let events = runner
        .run_streamed("Look up a and b")
        .collect_events()
        .await;

    // Call 1 ran and its result went out while the model was still streaming call 2.
    let first_result = position(&events, is_result("c1"));
    assert!(first_result < position(&events, is_ready("c2")));
    assert!(first_result < position(&events, turn_finished));
    // Call 2 started when it was complete, after call 1's result.
    assert!(position(&events, is_result("c2")) > position(&events, is_ready("c2")));
    assert_eq!(*runs.lock().unwrap(), ["a", "b"], "each call ran once");

    // The results went back in the model's order.
    let Some(RunEvent::RunFinished { outcome, .. }) = events.last() else {
        panic!()
    };
    assert_eq!(
        *outcome,
        RunOutcome::Finished {
            text: "Done.".into()
        }
    );
    assert_eq!(runner.model().requests.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn results_keep_the_models_order_in_the_history() {
    let (runner, _) = runner(TwoCallsApart::new("lookup"), RunOptions::new());
    let result = runner.run("Look up a and b").await.unwrap();
    let Message::Tool { results } = &result.messages()[2] else {
        panic!()
    };
    let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2"]);
    assert_eq!(results[0].response.model_text(), "value of a");
}

#[tokio::test]
async fn turned_off_calls_wait_for_the_whole_turn() {
    let (runner, runs) = runner(
        TwoCallsApart::new("lookup"),
        RunOptions::new().start_calls_early(false),
    );
    let events = runner
        .run_streamed("Look up a and b")
        .collect_events()
        .await;
    assert!(position(&events, is_result("c1")) > position(&events, turn_finished));
    assert_eq!(runs.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn a_call_that_needs_approval_waits_and_the_early_one_is_not_run_again() {
    let (runner, runs) = runner(TwoCallsApart::new("delete"), RunOptions::new());
    let mut stream = runner.resume_streamed(runner.start("Look up a, delete b"), CancelFlag::new());
    let mut events = Vec::new();
    while let Some(event) = stream.next_event().await {
        events.push(event);
    }
    // The read-only call ran early; the destructive one waits.
    assert!(position(&events, is_result("c1")) < position(&events, turn_finished));
    assert!(!events.iter().any(is_result("c2")));
    assert!(matches!(
        events.last(),
        Some(RunEvent::RunFinished {
            outcome: RunOutcome::AwaitingApproval { .. },
            ..
        })
    ));
    assert_eq!(*runs.lock().unwrap(), ["a"]);

    // Stored and restored while a person decides; approved; resumed.
    let run = stream.take_run().unwrap();
    let mut run: tool_core::runner::Run =
        serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
    run.approve("c2").unwrap();
    let result = runner.resume(run).await.unwrap();
    assert_eq!(result.text(), Some("Done."));
    assert_eq!(
        *runs.lock().unwrap(),
        ["a", "delete b"],
        "call 1 did not run twice"
    );
    let Message::Tool { results } = &result.messages()[2] else {
        panic!()
    };
    assert_eq!(results[0].response.model_text(), "value of a");
    assert_eq!(results[1].response.model_text(), "deleted b");
}
