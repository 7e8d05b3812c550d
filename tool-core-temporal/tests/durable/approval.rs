//! A call that needs approval: the run waits in the server with no process held (every
//! worker killed, a new one started: still waiting), `--allow` runs the transfer once,
//! `--deny` never runs it and the model is told.

use std::time::Duration;

use serde_json::json;

use crate::history::{assert_chain, assert_each_once, ledger, ledger_of};
use crate::{answer, cli, World};

#[test]
fn approval_waits_across_workers_then_allow_and_deny() {
    let world = World::new("approval");
    let mut workers = vec![world.worker(), world.worker()];
    for id in ["pay-allow", "pay-deny"] {
        cli::start(world.address(), &world.queue, id, &format!("approve {id}"));
    }
    for id in ["pay-allow", "pay-deny"] {
        let status = cli::status_until(world.address(), id, Duration::from_secs(60), |s| {
            s["state"] != "running"
        });
        assert_eq!(
            status,
            json!({"id": id, "state": "waiting_approval", "pending_approvals": ["call_t"]})
        );
    }
    assert!(
        ledger(&world.ledger).is_empty(),
        "nothing ran before the approval"
    );
    for worker in &mut workers {
        worker.kill();
    }
    drop(workers);
    let _worker = world.worker();
    for id in ["pay-allow", "pay-deny"] {
        let status = cli::status(world.address(), id);
        assert_eq!(
            status,
            json!({"id": id, "state": "waiting_approval", "pending_approvals": ["call_t"]})
        );
    }
    cli::run(&[
        "approve",
        "--temporal",
        world.address(),
        "--id",
        "pay-allow",
        "--call",
        "call_t",
        "--allow",
    ]);
    cli::run(&[
        "approve",
        "--temporal",
        world.address(),
        "--id",
        "pay-deny",
        "--call",
        "call_t",
        "--deny",
        "--reason",
        "not today",
    ]);
    let allowed = cli::status_until(world.address(), "pay-allow", Duration::from_secs(60), |s| {
        s["state"] == "finished"
    });
    assert_eq!(
        allowed["answer"],
        answer(&["transferred 25 from acct-A to acct-B"])
    );
    let denied = cli::status_until(world.address(), "pay-deny", Duration::from_secs(60), |s| {
        s["state"] == "finished"
    });
    let told = denied["answer"].as_str().unwrap_or("");
    assert!(
        told.contains("PERMISSION_DENIED") && told.contains("not today"),
        "the model was told: {told}"
    );

    let entries = ledger(&world.ledger);
    assert_each_once(&entries);
    let transfers = ledger_of(&world.ledger, "pay-allow");
    assert_eq!(transfers.len(), 1, "one transfer: {entries:?}");
    assert_eq!(transfers[0]["tool"], "transfer");
    assert!(
        ledger_of(&world.ledger, "pay-deny").is_empty(),
        "no transfer for the denied run"
    );
    for id in ["pay-allow", "pay-deny"] {
        let requests = world.model.requests_of(&format!("approve {id}"));
        assert_eq!(requests.len(), 2, "each model turn asked once");
        assert_chain(&requests);
    }
}
