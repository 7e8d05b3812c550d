//! Cancelling a durable run cancels its activity in flight: the tool's cancel flag is raised
//! and the tool stops, and the run's events end as a local cancelled run's do
//! (`run_finished` with the `cancelled` outcome).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tool_core::model::{ModelTurn, ScriptedModel};
use tool_core::runner::RunOptions;
use tool_core::{tool, tools, CancelFlag, ToolCall};
use tool_core_temporal::{DurableAgent, RunState};

use crate::observe::InProcessWorker;
use crate::World;

/// The tool began.
static STARTED: AtomicBool = AtomicBool::new(false);
/// The tool ended (returned or was dropped) with its cancel flag raised.
static STOPPED_CANCELLED: AtomicBool = AtomicBool::new(false);

/// Records, however the tool ends, whether its call had been cancelled by then.
struct OnEnd(CancelFlag);

impl Drop for OnEnd {
    fn drop(&mut self) {
        STOPPED_CANCELLED.store(self.0.is_cancelled(), Ordering::SeqCst);
    }
}

/// Waits for its call to be cancelled (a minute at most).
#[tool]
async fn wait_for_cancel(cancel: CancelFlag) -> String {
    let _end = OnEnd(cancel.clone());
    STARTED.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !cancel.is_cancelled() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    "stopped".to_string()
}

#[test]
fn cancelling_a_run_stops_its_tool_and_ends_the_run_cancelled() {
    let world = World::new("cancel");
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![ToolCall::new("w1", "wait_for_cancel", "{}")]),
        ModelTurn::text("This turn is never asked for."),
    ]);
    let agent = DurableAgent::new(model, tools![wait_for_cancel])
        .with_run_options(RunOptions::new().start_calls_early(false));
    let _worker = InProcessWorker::start(world.address(), &world.queue, agent);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let client = world.start_run("cancel-run", "Wait").await;
        let deadline = Instant::now() + Duration::from_secs(60);
        while !STARTED.load(Ordering::SeqCst) {
            assert!(Instant::now() < deadline, "the tool never started");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let asked = Instant::now();
        client.cancel("cancel-run").await.expect("cancel");
        // The activity learns of the cancel with its next heartbeat (one a second).
        while !STOPPED_CANCELLED.load(Ordering::SeqCst) {
            assert!(
                asked.elapsed() < Duration::from_secs(10),
                "the tool still ran, or ended without its cancel flag, 10 s after the run was cancelled"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let page = client.events("cancel-run", 0).await.expect("events");
        assert!(page.ended, "{page:?}");
        let last = page.events.last().expect("the run's events");
        assert_eq!(last["type"], "run_finished", "{last}");
        assert_eq!(last["outcome"]["type"], "cancelled", "{last}");
        let kinds: Vec<&str> = page
            .events
            .iter()
            .filter_map(|e| e["type"].as_str())
            .collect();
        assert!(!kinds.contains(&"tool_result"), "a cancelled call has no result: {kinds:?}");
        let status = client.status("cancel-run").await.expect("status");
        assert!(
            !matches!(status.state, RunState::Running | RunState::WaitingApproval),
            "{status:?}"
        );
    });
}
