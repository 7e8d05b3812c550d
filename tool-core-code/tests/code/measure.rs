//! Ten dependent calls with code mode off and on, on every API's loopback fake: model
//! requests and request bytes. Prints the figures `docs/code_mode.md` quotes
//! (`cargo test -p tool-core-code --test code measure -- --nocapture`).

use std::time::Instant;

use serde_json::{json, Value};
use tool_core::runner::Runner;
use tool_core_code::CodeMode;

use crate::conformance::{Api, Fake, Turn};
use crate::fixtures::registry;
use crate::http_support::assert_sdk_accepts;

const TASK: &str = "Add the numbers 1 to 10 one at a time, each to the last sum.";
const ANSWER: &str = "The sum is 55.";

/// The scripted model calling `add` itself: ten turns of one call each (each on the last
/// result), then the answer.
fn direct_turns() -> Vec<Turn> {
    let mut turns = Vec::new();
    let mut sum = 0;
    for i in 1..=10 {
        turns.push(Turn::call(
            &format!("call_{i}"),
            "add",
            json!({"a": sum, "b": i}),
        ));
        sum += i;
    }
    turns.push(Turn::text(ANSWER));
    turns
}

/// The same task as one program.
fn code_turns() -> Vec<Turn> {
    let program = "let sum = 0;\nfor (let i = 1; i <= 10; i++) sum = await tools.add({a: sum, b: i});\nreturn sum;";
    vec![
        Turn::call("call_1", "run_code", json!({"code": program})),
        Turn::text(ANSWER),
    ]
}

struct Figures {
    requests: usize,
    bytes: usize,
    millis: u128,
    sent: Vec<(&'static str, Value)>,
}

async fn measure(api: Api, code_mode: bool) -> Figures {
    let turns = if code_mode {
        code_turns()
    } else {
        direct_turns()
    };
    let fake = Fake::start(api, true, &turns).await;
    let registry = if code_mode {
        CodeMode::new(registry()).registry()
    } else {
        registry()
    };
    let runner = Runner::new(fake.model(), registry)
        .with_options(tool_core::runner::RunOptions::new().max_turns(20));
    let started = Instant::now();
    let result = runner
        .run(TASK)
        .await
        .unwrap_or_else(|e| panic!("{api:?}: {e}"));
    let millis = started.elapsed().as_millis();
    assert_eq!(result.final_text().unwrap(), ANSWER);
    let bodies = fake.bodies().await;
    let bytes = bodies.iter().map(|b| b.to_string().len()).sum();
    let route = api.route(true);
    Figures {
        requests: bodies.len(),
        bytes,
        millis,
        sent: bodies.into_iter().map(|b| (route, b)).collect(),
    }
}

#[tokio::test]
async fn ten_dependent_calls_cost_a_third_of_the_request_bytes_in_code_mode() {
    let mut sent = Vec::new();
    println!("| API | requests off | requests on | request bytes off | request bytes on | ratio | wall ms off | wall ms on |");
    println!("|---|---|---|---|---|---|---|---|");
    for api in Api::ALL {
        let off = measure(api, false).await;
        let on = measure(api, true).await;
        assert_eq!((off.requests, on.requests), (11, 2), "{api:?}");
        let ratio = off.bytes as f64 / on.bytes as f64;
        println!(
            "| {} | {} | {} | {} | {} | {ratio:.1}x | {} | {} |",
            api.heading(),
            off.requests,
            on.requests,
            off.bytes,
            on.bytes,
            off.millis,
            on.millis
        );
        assert!(
            ratio >= 3.0,
            "{api:?}: {} bytes off, {} on",
            off.bytes,
            on.bytes
        );
        sent.extend(off.sent);
        sent.extend(on.sent);
    }
    assert_sdk_accepts(&sent);
}
