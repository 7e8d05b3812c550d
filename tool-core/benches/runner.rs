//! The runner's own cost per turn, next to the plain `call_all` of the same calls in the same
//! run. One run is two model turns on the scripted model (no latency, no recording, one chunk
//! per text and argument): a turn of N parallel calls, then the final text. `call_all/N` is
//! dispatch alone; `run/N` and `run_streamed/N` are the whole loop through `Runner`;
//! `sans_io/N` steps a `Run` by hand around the same `call_all`, without a model.
//! `run_reasoning/N` is `run/N` with 1 KiB of reasoning before each turn's text, streamed as 16
//! reasoning deltas of 64 bytes (what a thinking model sends); `run_typed/N` is `run/N` ending
//! in a typed answer (`RunOptions::output::<T>()`, the model's native structured output: the
//! final text is decoded and validated into `T`).
//!
//! `cargo bench -p tool-core --bench runner`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tool_core::model::{ModelTurn, ScriptedModel};
use tool_core::runner::{Run, RunOptions, RunOutcome, Runner, Step};
use tool_core::{block_on, tool, tools, ToolCall, ToolRegistry};

/// Adds two integers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn calls(n: usize) -> Vec<ToolCall> {
    (0..n)
        .map(|i| ToolCall::new(format!("call_{i}"), "add", format!(r#"{{"a":{i},"b":2}}"#)))
        .collect()
}

fn model(n: usize) -> ScriptedModel {
    ScriptedModel::new([
        ModelTurn::with_calls("Adding.", calls(n)),
        ModelTurn::text("Done."),
    ])
    .with_chunk_size(usize::MAX)
    .without_recording()
}

/// The typed answer of `run_typed/N`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Sum {
    #[allow(dead_code)] // decoded, never read: the decoding is what is measured
    total: i64,
}

/// `model(n)` with 1 KiB of reasoning before each turn, in 64-byte deltas.
fn reasoning_model(n: usize) -> ScriptedModel {
    let reasoning = "The user wants sums; each pair is independent, so all calls go at once. "
        .repeat(15)
        .chars()
        .take(1024)
        .collect::<String>();
    let turns = [
        ModelTurn::with_calls("Adding.", calls(n)),
        ModelTurn::text("Done."),
    ]
    .map(|turn| ModelTurn {
        reasoning: reasoning.clone(),
        ..turn
    });
    ScriptedModel::new(turns)
        .with_chunk_size(64)
        .without_recording()
}

/// `model(n)` whose final answer is a `Sum` in JSON, through native structured output.
fn typed_model(n: usize) -> ScriptedModel {
    ScriptedModel::new([
        ModelTurn::with_calls("Adding.", calls(n)),
        ModelTurn::text(r#"{"total":42}"#),
    ])
    .with_chunk_size(usize::MAX)
    .without_recording()
    .with_native_output()
}

fn sans_io(registry: &ToolRegistry, turns: &[ModelTurn]) -> usize {
    let mut run = Run::new("go", RunOptions::default());
    let mut next = turns.iter();
    loop {
        match run.step(registry).unwrap() {
            Step::CallModel(_) => {
                let turn = next.next().unwrap().clone();
                run.record_turn(turn, registry).unwrap();
            }
            Step::RunTools(batch) => {
                let responses = block_on(registry.call_all(batch.calls));
                run.record_results(responses).unwrap();
            }
            Step::Done(_) => return run.messages().len(),
            other => panic!("{other:?}"),
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("turn");
    group.measurement_time(Duration::from_secs(3));
    for n in [1, 8] {
        let registry = tools![add];
        let batch = calls(n);
        group.bench_with_input(BenchmarkId::new("call_all", n), &batch, |b, batch| {
            b.iter(|| black_box(block_on(registry.call_all(black_box(batch)))))
        });

        let turns = [
            ModelTurn::with_calls("Adding.", calls(n)),
            ModelTurn::text("Done."),
        ];
        group.bench_with_input(BenchmarkId::new("sans_io", n), &turns, |b, turns| {
            b.iter(|| black_box(sans_io(&registry, turns)))
        });

        let runner = Runner::new(model(n), tools![add]);
        group.bench_function(BenchmarkId::new("run", n), |b| {
            b.iter(|| black_box(block_on(runner.run("go")).unwrap()))
        });
        group.bench_function(BenchmarkId::new("run_streamed", n), |b| {
            b.iter(|| black_box(block_on(runner.run_streamed("go").collect_events())))
        });

        let reasoning = Runner::new(reasoning_model(n), tools![add]);
        group.bench_function(BenchmarkId::new("run_reasoning", n), |b| {
            b.iter(|| black_box(block_on(reasoning.run("go")).unwrap()))
        });

        let typed = Runner::new(typed_model(n), tools![add])
            .with_options(RunOptions::new().output::<Sum>());
        group.bench_function(BenchmarkId::new("run_typed", n), |b| {
            b.iter(|| {
                let result = block_on(typed.run("go")).unwrap();
                assert!(matches!(result.outcome, RunOutcome::Output { .. }));
                black_box(result.output::<Sum>().unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
