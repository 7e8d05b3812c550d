//! Six tool turns with parallel calls and non-ASCII, quoted arguments: each request is
//! exactly the one before plus one assistant turn and its results. The same scripted agent
//! also runs locally (tool-core's `Runner`, same model, same tools) for the overhead figure.

use std::time::{Duration, Instant};

use tool_core::http::RetryConfig;
use tool_core::model::OpenAiChat;
use tool_core::runner::Runner;
use tool_core::{tool, tools};
use tool_core_temporal::{DurableClient, RunState};

use crate::history::{assert_chain, assert_each_once, ledger, ledger_of};
use crate::{answer, World, SIX_TURNS};

/// Looks up the value stored under a key.
#[tool(read_only)]
fn lookup(key: String) -> String {
    format!("value-of-{key}")
}

/// Does a slow piece of work for `ms` milliseconds.
#[tool]
async fn slow_step(ms: u64) -> &'static str {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "done"
}

/// The keys the scenario looks up, in call order, as the tools get them (JSON-decoded).
fn expected_results() -> Vec<String> {
    SIX_TURNS
        .iter()
        .flat_map(|turn| turn.iter())
        .map(|(_, name, arguments)| {
            let arguments: serde_json::Value =
                serde_json::from_str(arguments).expect("scripted arguments");
            match *name {
                "lookup" => format!("value-of-{}", arguments["key"].as_str().expect("a key")),
                _ => "done".to_string(),
            }
        })
        .collect()
}

#[test]
fn six_tool_turns_keep_the_history_exact() {
    let world = World::new("turns");
    let _worker = world.worker();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (durable, output) = runtime.block_on(async {
        let client = DurableClient::connect(world.address(), "default")
            .await
            .expect("connect");
        let started = Instant::now();
        client
            .start(&world.queue, "six-durable", "six six-durable")
            .await
            .expect("start");
        let status = client.wait("six-durable").await.expect("wait");
        let elapsed = started.elapsed();
        // The run's usage, as a local run reports it: 7 turns of 20 + 5 tokens.
        let output = client
            .output("six-durable")
            .await
            .expect("the workflow's result");
        assert_eq!(
            (
                output.turns,
                output.usage.input_tokens,
                output.usage.output_tokens
            ),
            (7, 140, 35)
        );
        (elapsed, status)
    });
    assert_eq!(output.state, RunState::Finished, "{output:?}");
    let results = expected_results();
    let results: Vec<&str> = results.iter().map(String::as_str).collect();
    assert_eq!(output.answer.as_deref(), Some(answer(&results).as_str()));

    let requests = world.model.requests_of("six six-durable");
    assert_eq!(
        requests.len(),
        7,
        "six tool turns and the answer, each asked once"
    );
    let chain = assert_chain(&requests);
    // The results the model got are the tools' answers to the arguments as written.
    let last = &chain[6].messages;
    let sent: Vec<&str> = last
        .iter()
        .filter(|m| m["role"] == "tool")
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(sent, results);

    let entries = ledger(&world.ledger);
    assert_each_once(&entries);
    assert_eq!(
        ledger_of(&world.ledger, "six-durable").len(),
        10,
        "ten calls, each once (call ids repeat across turns)"
    );

    // The same agent in one process, for the overhead of the activities' round trips.
    let local = runtime.block_on(async {
        let model =
            OpenAiChat::compatible(world.model.base_url.clone(), "test-model", Some("test"))
                .with_endpoint(|endpoint| {
                    endpoint.with_retry(RetryConfig::default().with_max_retries(0))
                });
        let runner = Runner::new(model, tools![lookup, slow_step]);
        let started = Instant::now();
        let result = runner.run("six six-local").await.expect("the local run");
        assert_eq!(result.text(), Some(answer(&results).as_str()));
        started.elapsed()
    });
    let steps = 7 + 10;
    eprintln!(
        "figures: six tool turns, 7 model requests + 10 tool calls: durable {:.0} ms, local {:.0} ms: {:.1} ms overhead per step",
        durable.as_secs_f64() * 1e3,
        local.as_secs_f64() * 1e3,
        (durable.as_secs_f64() - local.as_secs_f64()) * 1e3 / f64::from(steps)
    );
}
