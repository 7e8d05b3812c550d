//! `kill -9` of the only worker while runs sleep in `slow_step` and others wait on a slow
//! model; a new worker finishes them all, each call once, no completed model turn asked again.

use std::time::{Duration, Instant};

use crate::history::{
    assert_chain, assert_each_once, assert_no_answered_turn_repeated, ledger, ledger_of,
};
use crate::{answer, cli, World};

#[test]
fn kill_9_mid_run_then_a_new_worker_finishes_every_run() {
    let world = World::new("crash");
    let mut first = world.worker();
    let slow_tools: Vec<String> = (0..3).map(|i| format!("crash-tool-{i}")).collect();
    let slow_models: Vec<String> = (0..3).map(|i| format!("crash-model-{i}")).collect();
    for id in &slow_tools {
        cli::start(world.address(), &world.queue, id, &format!("slowtool {id}"));
    }
    for id in &slow_models {
        cli::start(
            world.address(),
            &world.queue,
            id,
            &format!("slowmodel {id}"),
        );
    }
    // Wait until every slow_step has taken effect (it writes the ledger before it sleeps)
    // and every slow model request is in flight.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let sleeping = slow_tools
            .iter()
            .all(|id| !ledger_of(&world.ledger, id).is_empty());
        let thinking = slow_models.iter().all(|id| {
            world
                .model
                .requests_of(&format!("slowmodel {id}"))
                .iter()
                .any(|r| r.messages.len() == 3 && r.finished.is_none())
        });
        if sleeping && thinking {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the runs never reached their slow steps"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    first.kill();
    let killed = Instant::now();
    let _second = world.worker();
    for id in slow_tools.iter().chain(&slow_models) {
        let left = Duration::from_secs(150).saturating_sub(killed.elapsed());
        let status = cli::status_until(world.address(), id, left, |s| {
            s["state"] == "finished" || s["state"] == "failed"
        });
        assert_eq!(status["state"], "finished", "{status}");
    }
    let recovered = killed.elapsed();
    assert!(
        recovered < Duration::from_secs(150),
        "all runs finished {recovered:?} after the kill"
    );
    for id in &slow_tools {
        let done = cli::status(world.address(), id);
        assert_eq!(done["answer"], answer(&["done", &format!("value-of-{id}")]));
    }
    for id in &slow_models {
        let done = cli::status(world.address(), id);
        assert_eq!(done["answer"], answer(&[&format!("value-of-{id}"), "done"]));
    }
    let entries = ledger(&world.ledger);
    assert_each_once(&entries);
    assert_eq!(
        entries.len(),
        12,
        "two calls per run, each once: {entries:?}"
    );
    for id in slow_tools.iter().chain(&slow_models) {
        let prompt = if id.contains("tool") {
            format!("slowtool {id}")
        } else {
            format!("slowmodel {id}")
        };
        let requests = world.model.requests_of(&prompt);
        assert_chain(&requests);
        assert_no_answered_turn_repeated(&requests, Some(killed));
    }
    eprintln!(
        "figures: every run finished {:.1} s after kill -9 of the worker",
        recovered.as_secs_f64()
    );
}
