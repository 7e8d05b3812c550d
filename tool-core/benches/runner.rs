//! The runner's own cost per turn, next to the plain `call_all` of the same calls in the same
//! run. One run is two model turns on the scripted model (no latency, no recording, one chunk
//! per text and argument): a turn of N parallel calls, then the final text. `call_all/N` is
//! dispatch alone; `run/N` and `run_streamed/N` are the whole loop through `Runner`;
//! `sans_io/N` steps a `Run` by hand around the same `call_all`, without a model.
//!
//! `cargo bench -p tool-core --bench runner`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tool_core::model::{ModelTurn, ScriptedModel};
use tool_core::runner::{Run, RunOptions, Runner, Step};
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
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
