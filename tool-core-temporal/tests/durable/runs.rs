//! One worker and one run; a model that answers HTTP 400; two workers and 20 concurrent runs.

use std::time::Instant;

use crate::history::{
    assert_chain, assert_each_once, assert_no_answered_turn_repeated, ledger, tools_of,
};
use crate::{answer, cli, World};

#[test]
fn one_worker_one_run_each_call_once() {
    let world = World::new("one");
    let _worker = world.worker();
    let done = cli::start_waiting(world.address(), &world.queue, "run-one", "basic k1")
        .join()
        .expect("start --wait");
    let expected = answer(&["value-of-k1", "done"]);
    assert_eq!(
        done,
        serde_json::json!({"id": "run-one", "state": "finished", "answer": expected, "error": null})
    );
    let entries = ledger(&world.ledger);
    assert_each_once(&entries);
    // The two calls run in parallel: the ledger has them in either order.
    let mut tools = tools_of(&entries, "run-one");
    tools.sort();
    assert_eq!(tools, ["lookup", "slow_step"], "{entries:?}");
    let requests = world.model.requests_of("basic k1");
    assert_eq!(requests.len(), 2, "two model turns, each asked once");
    assert_chain(&requests);
    assert_no_answered_turn_repeated(&requests, None);
    let status = cli::status(world.address(), "run-one");
    assert_eq!(status["state"], "finished");
    assert_eq!(status["pending_approvals"], serde_json::json!([]));
}

#[test]
fn a_model_answering_400_ends_the_run_failed() {
    let world = World::new("bad");
    let _worker = world.worker();
    let done = cli::start_waiting(world.address(), &world.queue, "run-bad", "bad x")
        .join()
        .expect("start --wait");
    assert_eq!(done["state"], "failed", "{done}");
    assert_eq!(done["answer"], serde_json::Value::Null);
    let error = done["error"].as_str().unwrap_or("");
    assert!(
        error.contains("400"),
        "the failure names the model's answer: {error}"
    );
    // Not retryable: asked once.
    assert_eq!(world.model.requests_of("bad x").len(), 1);
    assert_eq!(cli::status(world.address(), "run-bad")["state"], "failed");
    assert!(ledger(&world.ledger).is_empty());
}

#[test]
fn two_workers_twenty_concurrent_runs() {
    let world = World::new("scale");
    let first = world.worker();
    let second = world.worker();
    let started = Instant::now();
    let runs: Vec<_> = (0..20)
        .map(|i| {
            let id = format!("run-{i}");
            (
                id.clone(),
                cli::start_waiting(world.address(), &world.queue, &id, &format!("basic key{i}")),
            )
        })
        .collect();
    for (i, (id, run)) in runs.into_iter().enumerate() {
        let done = run.join().expect("start --wait");
        assert_eq!(done["id"], id.as_str());
        assert_eq!(done["state"], "finished", "{done}");
        assert_eq!(
            done["answer"],
            answer(&[&format!("value-of-key{i}"), "done"])
        );
    }
    let elapsed = started.elapsed();
    let entries = ledger(&world.ledger);
    assert_each_once(&entries);
    assert_eq!(entries.len(), 40, "two calls per run, each once");
    let workers: std::collections::BTreeSet<u64> = entries
        .iter()
        .filter_map(|e| e["worker"].as_u64())
        .collect();
    let expected: std::collections::BTreeSet<u64> = [first.pid(), second.pid()]
        .into_iter()
        .map(u64::from)
        .collect();
    assert_eq!(workers, expected, "both workers ran calls");
    for i in 0..20 {
        let prompt = format!("basic key{i}");
        let requests: Vec<_> = world
            .model
            .requests_of(&prompt)
            .into_iter()
            .filter(|r| r.prompt == prompt)
            .collect();
        assert_eq!(
            requests.len(),
            2,
            "run {i}: two model turns, each asked once"
        );
        assert_chain(&requests);
    }
    eprintln!(
        "figures: 20 runs (2 model turns and 2 tool calls each) on two workers in {:.2} s: {:.1} runs/s",
        elapsed.as_secs_f64(),
        20.0 / elapsed.as_secs_f64()
    );
}
