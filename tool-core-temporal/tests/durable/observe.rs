//! A durable run reports what a local run of the same scripted agent reports: its usage and
//! turns (the result, the status while it waits and once it ended), its `RunEvent`s (the
//! `events` query: the same sequence once consecutive deltas are joined; the live deltas in
//! the worker's sink), and its spans (`invoke_agent`, `chat`, `execute_tool`, with the same
//! attributes and parents). The workers run in this process, so a capturing `tracing`
//! subscriber sees their spans.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use temporalio_client::{Client, ClientOptions, Connection, ConnectionOptions, Url};
use temporalio_sdk::{Runtime, Worker};
use tool_core::model::{ModelError, ModelTurn, ScriptedModel, StopReason, Usage};
use tool_core::runner::{RunEvent, RunOptions, Runner};
use tool_core::{tool, tools, Approval, CancelFlag, ToolCall, ToolEvent, ToolResponse};
use tool_core_temporal::{
    worker_options, Decision, DurableAgent, DurableClient, LiveEvent, RunState,
};

use crate::spans::{self, Captured};
use crate::World;

/// Looks up the value stored under a key (and tells the UI).
#[tool(read_only)]
fn lookup(key: String) -> ToolResponse {
    ToolResponse::success(format!("value-of-{key}"))
        .with_event(ToolEvent::new("looked_up", json!({ "key": key })))
}

/// Transfers an amount between two accounts.
#[tool(destructive)]
fn transfer(from: String, to: String, amount: i64) -> String {
    format!("transferred {amount} from {from} to {to}")
}

/// A turn with usage and a response id, as a provider reports them.
fn turn(turn: ModelTurn, usage: (u64, u64), id: &str) -> ModelTurn {
    ModelTurn {
        usage: Some(Usage::new(usage.0, usage.1)),
        ..turn
    }
    .with_response_id(id)
}

/// Reasoning, text and two parallel lookups (one with a bad argument name: its call fails);
/// then two transfers that wait for approval (one allowed, one denied); then the answer.
fn approval_script() -> ScriptedModel {
    let first = ModelTurn {
        reasoning: "Both keys first, then the transfers.".into(),
        ..ModelTurn::with_calls(
            "Let me look both keys up.",
            vec![
                ToolCall::new("c1", "lookup", r#"{"key":"clé-1"}"#),
                ToolCall::new("c2", "lookup", r#"{"name":"k2"}"#),
            ],
        )
    };
    let second = ModelTurn::with_calls(
        "",
        vec![
            ToolCall::new("t1", "transfer", r#"{"from":"A","to":"B","amount":25}"#),
            ToolCall::new("t2", "transfer", r#"{"from":"B","to":"C","amount":"9"}"#),
        ],
    );
    ScriptedModel::new([
        turn(first, (100, 20), "resp-1"),
        turn(second, (150, 10), "resp-2"),
        turn(
            ModelTurn::text("Transferred 25 from A to B."),
            (200, 8),
            "resp-3",
        ),
    ])
}

/// Early start off: a durable run starts a call only once its turn is recorded.
fn options() -> RunOptions {
    RunOptions::new().start_calls_early(false)
}

/// A worker of `agent` on `queue`, in this process (its own thread and runtime); dropping it
/// shuts it down.
pub(crate) struct InProcessWorker {
    shutdown: Box<dyn Fn() + Send>,
    runtime: tokio::runtime::Handle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl InProcessWorker {
    pub(crate) fn start(address: &str, queue: &str, agent: DurableAgent) -> InProcessWorker {
        let (address, queue) = (address.to_string(), queue.to_string());
        let (ready, wait) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().expect("a runtime for the worker");
            runtime.block_on(async move {
                let sdk = Runtime::from_current_tokio(Default::default()).expect("the SDK runtime");
                let url = Url::parse(&format!("http://{address}")).expect("a URL");
                let connection = Connection::connect(ConnectionOptions::new(url).build())
                    .await
                    .expect("connect the worker");
                let client =
                    Client::new(connection, ClientOptions::new("default").build()).expect("client");
                let options = worker_options(&queue, Arc::new(agent))
                    .expect("register the workflow")
                    .build();
                let mut worker = Worker::new(&sdk, client, options).expect("a worker");
                let shutdown = Box::new(worker.shutdown_handle()) as Box<dyn Fn() + Send>;
                let _ = ready.send((shutdown, tokio::runtime::Handle::current()));
                worker.run().await.expect("the worker ran");
            });
        });
        let (shutdown, runtime) = wait
            .recv_timeout(Duration::from_secs(60))
            .expect("the in-process worker started");
        InProcessWorker {
            shutdown,
            runtime,
            thread: Some(thread),
        }
    }
}

impl Drop for InProcessWorker {
    fn drop(&mut self) {
        // The SDK's shutdown spawns on the worker's runtime.
        let _inside = self.runtime.enter();
        (self.shutdown)();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The local run's events: paused for approval, both calls decided, resumed. A local run that
/// pauses ends its stream with `RunFinished { AwaitingApproval }` and the resumed run streams
/// anew; a durable run is one sequence, so that event is left out.
fn local_events() -> (Vec<RunEvent>, Usage, u32, (Usage, u32)) {
    let runner = Runner::new(approval_script(), tools![lookup, transfer]).with_options(options());
    let mut first = runner.run_streamed("Move the money");
    let mut events = Vec::new();
    tool_core::block_on(async {
        while let Some(event) = first.next_event().await {
            events.push(event);
        }
    });
    let Some(RunEvent::RunFinished { usage, turns, .. }) = events.pop() else {
        panic!("the local run paused: {events:?}");
    };
    let paused = (usage, turns);
    let mut run = first.take_run().expect("the paused run");
    run.decide("t1", Approval::Approved).expect("t1 waits");
    run.decide("t2", Approval::Denied("not today".into()))
        .expect("t2 waits");
    let resumed = tool_core::block_on(
        runner
            .resume_streamed(run, CancelFlag::new())
            .collect_events(),
    );
    events.extend(resumed);
    let Some(RunEvent::RunFinished { usage, turns, .. }) = events.last().cloned() else {
        panic!("the local run finished: {events:?}");
    };
    (events, usage, turns, paused)
}

/// The events as JSON, consecutive text, reasoning and argument deltas (of one call) joined,
/// tool durations (which differ from run to run) left out.
fn joined(events: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for event in events {
        let mut event = event.clone();
        if let Some(response) = event.get_mut("response").and_then(Value::as_object_mut) {
            response.remove("stats");
        }
        if let Some(last) = out.last_mut() {
            let kind = event["type"].as_str().unwrap_or("");
            let same = last["type"] == event["type"];
            let field = match kind {
                "text_delta" | "reasoning_delta" if same => Some("text"),
                "arguments_delta" if same && last["index"] == event["index"] => Some("delta"),
                _ => None,
            };
            if let Some(field) = field {
                let joined = format!(
                    "{}{}",
                    last[field].as_str().unwrap_or(""),
                    event[field].as_str().unwrap_or("")
                );
                last[field] = Value::String(joined);
                continue;
            }
        }
        out.push(event);
    }
    out
}

fn json_events(events: &[RunEvent]) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::to_value(e).expect("an event serializes"))
        .collect()
}

/// The model's streamed events of turn `turn` in a local run (between `TurnStarted` and
/// `TurnFinished`).
fn streamed_in_turn(events: &[RunEvent], turn: u32) -> Vec<RunEvent> {
    let start = events
        .iter()
        .position(|e| *e == RunEvent::TurnStarted { turn })
        .expect("the turn started");
    events[start + 1..]
        .iter()
        .take_while(|e| !matches!(e, RunEvent::TurnFinished { .. }))
        .cloned()
        .collect()
}

/// Polls `status` until `check` holds.
async fn status_until(
    client: &DurableClient,
    id: &str,
    check: impl Fn(&tool_core_temporal::RunStatus) -> bool,
) -> tool_core_temporal::RunStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = client.status(id).await.expect("status");
        if check(&status) {
            return status;
        }
        assert!(Instant::now() < deadline, "run {id} stuck: {status:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[test]
fn a_durable_run_reports_the_usage_and_events_of_a_local_run() {
    let world = World::new("observe");
    let (local, local_usage, local_turns, (paused_usage, paused_turns)) = local_events();

    let live: Arc<Mutex<Vec<LiveEvent>>> = Arc::default();
    let sink = Arc::clone(&live);
    let agent = DurableAgent::new(approval_script(), tools![lookup, transfer])
        .with_run_options(options())
        .with_event_sink(move |event| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(event);
        });
    let _worker = InProcessWorker::start(world.address(), &world.queue, agent);

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let client = world.start_run("observe-run", "Move the money").await;
        // Paused: the status query reports what the paused local run had spent.
        let waiting = status_until(&client, "observe-run", |s| {
            s.state == RunState::WaitingApproval
        })
        .await;
        assert_eq!(waiting.pending_approvals, ["t1", "t2"]);
        // A follower from the first event on: it polls until the run has ended, then ends.
        let follower = {
            let client = client.clone();
            tokio::spawn(async move {
                let events = client.follow("observe-run", 0, Duration::from_millis(100));
                futures::StreamExt::collect::<Vec<_>>(events).await
            })
        };
        assert_eq!((waiting.usage, waiting.turns), (paused_usage, paused_turns));
        // The events so far: the local run's up to its pause, in one page; then none new.
        let page = client.events("observe-run", 0).await.expect("events");
        assert!(!page.ended);
        let upto = local
            .iter()
            .position(|e| matches!(e, RunEvent::ApprovalRequired { .. }))
            .expect("the local run paused");
        assert_eq!(joined(&page.events), joined(&json_events(&local[..=upto])));
        let again = client
            .events("observe-run", page.next)
            .await
            .expect("events");
        assert!(again.events.is_empty() && again.next == page.next);

        client
            .decide("observe-run", Decision::allow("t1"))
            .await
            .expect("allow t1");
        client
            .decide("observe-run", Decision::deny("t2", "not today"))
            .await
            .expect("deny t2");
        let output = client.output("observe-run").await.expect("the result");
        assert_eq!((output.usage, output.turns), (local_usage, local_turns));
        assert_eq!(output.usage, Usage::new(450, 38));
        let status = client.status("observe-run").await.expect("status");
        assert_eq!(status.state, RunState::Finished);
        assert_eq!((status.usage, status.turns), (local_usage, local_turns));

        // The whole sequence, read from where the first page ended: the local run's.
        let rest = client
            .events("observe-run", page.next)
            .await
            .expect("events");
        assert!(rest.ended);
        let mut all = page.events.clone();
        all.extend(rest.events);
        assert_eq!(
            joined(&all),
            joined(&json_events(&local)),
            "the durable run's events are the local run's"
        );
        assert_eq!(
            all.last().map(|e| e["type"].clone()),
            Some(json!("run_finished"))
        );
        // Each turn's text is whole in the query.
        assert!(all.contains(&json!({"type": "text_delta", "text": "Let me look both keys up."})));
        let followed: Vec<Value> = follower
            .await
            .expect("the follower")
            .into_iter()
            .map(|event| event.expect("an event"))
            .collect();
        assert_eq!(followed, all, "the follower saw every event once, in order");
    });

    // The sink saw each turn's deltas live, exactly as the local run streamed them.
    let live = live.lock().unwrap_or_else(PoisonError::into_inner).clone();
    for turn in 1..=3 {
        let seen: Vec<RunEvent> = live
            .iter()
            .filter(|e| e.run_id == "observe-run" && e.turn == turn && e.attempt == 1)
            .map(|e| e.event.clone())
            .collect();
        assert_eq!(seen, streamed_in_turn(&local, turn), "turn {turn}");
    }
    assert!(
        live.iter()
            .filter(|e| matches!(e.event, RunEvent::TextDelta { .. }))
            .count()
            > 1,
        "the text came in several deltas"
    );
}

/// Two lookups (one fails on its arguments), then the answer; a failing model for the
/// failed run.
fn span_script() -> ScriptedModel {
    let first = ModelTurn {
        stop_reason: StopReason::ToolUse,
        ..ModelTurn::with_calls(
            "",
            vec![
                ToolCall::new("c1", "lookup", r#"{"key":"k1"}"#),
                ToolCall::new("c2", "lookup", r#"{"town":"k2"}"#),
            ],
        )
    };
    ScriptedModel::new([
        turn(first, (120, 30), "chatcmpl-1"),
        turn(ModelTurn::text("value-of-k1"), (200, 12), "chatcmpl-2"),
    ])
}

#[test]
fn a_durable_run_emits_the_spans_of_a_local_run_once() {
    let capture = spans::capture();
    let world = World::new("spans");

    capture.clear();
    let runner = Runner::new(span_script(), tools![lookup]);
    tool_core::block_on(runner.run("Look k1 up")).expect("the local run");
    let local = capture.take();

    let agent = DurableAgent::new(span_script(), tools![lookup]);
    let _worker = InProcessWorker::start(world.address(), &world.queue, agent);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let durable = runtime.block_on(async {
        let client = world.start_run("spans-run", "Look k1 up").await;
        let output = client.output("spans-run").await.expect("the result");
        assert_eq!(output.answer(), Some("value-of-k1"));
        let durable = capture.take();
        // A worker that replays the ended run (to answer a query) opens no span again.
        client.status("spans-run").await.expect("status");
        let replayed = client.events("spans-run", 0).await.expect("events");
        assert!(replayed.ended);
        let after = capture.take();
        assert!(
            after.iter().all(|span| span.name != "invoke_agent"),
            "a replay opened the run's span again: {after:?}"
        );
        durable
    });

    let mut names: Vec<&str> = durable.iter().map(|s| s.name).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["chat", "chat", "invoke_agent", "tool_call", "tool_call"]
    );
    assert_eq!(spans::shape(&local), spans::shape(&durable));
    let agents: Vec<&Captured> = durable
        .iter()
        .filter(|s| s.name == "invoke_agent")
        .collect();
    assert_eq!(
        agents.len(),
        1,
        "one invoke_agent span for the run: {durable:?}"
    );
    for span in durable.iter().filter(|s| s.name != "invoke_agent") {
        assert_eq!(
            span.parent,
            Some(agents[0].id),
            "{} under the run",
            span.name
        );
    }
}

#[test]
fn a_failed_durable_run_ends_its_events_as_a_local_one() {
    let world = World::new("failed");
    let script = || {
        ScriptedModel::from_results([
            Ok(turn(
                ModelTurn::with_calls("", vec![ToolCall::new("c1", "lookup", r#"{"key":"k"}"#)]),
                (10, 2),
                "r1",
            )),
            Err(ModelError::from_status(400, "the request is invalid")),
        ])
    };
    let local = tool_core::block_on(
        Runner::new(script(), tools![lookup])
            .with_options(options())
            .run_streamed("Fail")
            .collect_events(),
    );
    let Some(RunEvent::RunFailed { usage: spent, .. }) = local.last().cloned() else {
        panic!("the local run failed: {local:?}");
    };
    let agent = DurableAgent::new(script(), tools![lookup]).with_run_options(options());
    let _worker = InProcessWorker::start(world.address(), &world.queue, agent);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let client = world.start_run("failed-run", "Fail").await;
        let status = client.wait("failed-run").await.expect("wait");
        assert_eq!(status.state, RunState::Failed);
        // What the local run had spent when it failed: the first turn's tokens.
        assert_eq!((status.usage, status.turns), (spent, 1));
        assert_eq!(spent, Usage::new(10, 2));
        let page = client.events("failed-run", 0).await.expect("events");
        assert!(page.ended);
        assert_eq!(joined(&page.events), joined(&json_events(&local)));
        assert_eq!(
            page.events.last().map(|e| e["type"].clone()),
            Some(json!("run_failed"))
        );
    });
}
