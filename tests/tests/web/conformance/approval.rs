//! Approval: a turn calling a destructive tool twice pauses the run (`ApprovalRequired`, the
//! outcome `AwaitingApproval`) before either runs, even streamed (calls that need approval
//! never start early); resumed with one call allowed and one denied, the allowed call runs
//! once, the denied one is answered with the reason and never runs, and the run finishes.

use serde_json::json;
use tool_core::runner::{RunEvent, RunOptions, RunOutcome};
use tool_core::{tool, tools, ToolErrorCode};

use super::harness::*;
use super::{Api, Fake, Seen, Turn, Verdict};

/// Deletes a file.
#[tool(destructive)]
fn delete_file(path: String) -> String {
    format!("deleted {path}")
}

pub async fn scenario(api: Api) -> Seen {
    let mut seen = Seen::new();
    let turns = [
        Turn::call("d1", "delete_file", json!({"path": "a.txt"})).and_call(
            "d2",
            "delete_file",
            json!({"path": "b.txt"}),
        ),
        Turn::text("Deleted a.txt; b.txt was kept."),
    ];
    let fake = Fake::start(api, true, &turns).await;
    let runner = runner(&fake, tools![delete_file], RunOptions::new());
    let (events, run) = streamed(&runner, "Delete a.txt and b.txt").await;
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, RunEvent::ToolResult { .. })),
        "{api:?}: a call ran before approval: {events:?}"
    );
    let Some(RunEvent::ApprovalRequired { calls }) = events.iter().rev().nth(1) else {
        panic!("{api:?}: {events:?}")
    };
    let ids: Vec<String> = calls.iter().map(|c| c.id.clone()).collect();
    assert_eq!(ids.len(), 2, "{api:?}");
    assert!(
        matches!(
            last(&events),
            RunEvent::RunFinished {
                outcome: RunOutcome::AwaitingApproval { .. },
                ..
            }
        ),
        "{api:?}: {:?}",
        last(&events)
    );

    let mut run = run;
    run.approve(&ids[0]).unwrap();
    run.deny(&ids[1], "the user keeps b.txt").unwrap();
    let result = runner
        .resume(run)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(
        result.final_text().ok(),
        Some("Deleted a.txt; b.txt was kept."),
        "{api:?}"
    );
    let results = results(result.messages());
    assert_eq!(results.len(), 2, "{api:?}: {results:?}");
    assert_eq!(results[0].2.model_text(), "deleted a.txt", "{api:?}");
    assert_eq!(
        results[1].2.error_code(),
        Some(ToolErrorCode::PermissionDenied),
        "{api:?}"
    );
    let bodies = seen.add(&fake).await;
    assert_eq!(bodies.len(), 2, "{api:?}");
    let second = text(&bodies[1]);
    assert!(second.contains("deleted a.txt"), "{api:?}: {second}");
    assert!(second.contains("the user keeps b.txt"), "{api:?}: {second}");
    seen.saw(Verdict::Yes)
}
