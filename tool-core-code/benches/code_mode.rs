//! What code mode costs and saves, on the scripted model (no model latency), so the
//! differences are the library's own:
//! - `engine_start`: one trivial program (`return 1`) through the code tool: the thread, a
//!   fresh QuickJS runtime and context, the bootstrap, the result;
//! - `ten_dependent_calls/direct` and `/code_mode`: the whole run of ten dependent `add`
//!   calls, one model turn per call, or one program.
//!
//! Memory is printed before the timings: the process's resident set before and after a
//! thousand programs (no growth means nothing is kept per program), and the peak for one
//! program that allocates 16 MiB.
//!
//! `cargo bench -p tool-core-code --bench code_mode -- --measurement-time 3 --warm-up-time 1`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tool_core::model::{ModelTurn, ScriptedModel};
use tool_core::runner::{RunOptions, Runner};
use tool_core::{block_on, tool, tools, ToolCall, ToolRegistry};
use tool_core_code::CodeMode;

/// Adds two integers.
#[tool(allowed_callers = "any")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

const PROGRAM: &str = "let sum = 0;\nfor (let i = 1; i <= 10; i++) sum = await tools.add({a: sum, b: i});\nreturn sum;";

fn direct_turns() -> Vec<ModelTurn> {
    let mut turns = Vec::new();
    let mut sum = 0;
    for i in 1..=10 {
        let arguments = format!(r#"{{"a":{sum},"b":{i}}}"#);
        turns.push(ModelTurn::with_calls(
            "",
            vec![ToolCall::new(format!("c{i}"), "add", arguments)],
        ));
        sum += i;
    }
    turns.push(ModelTurn::text("55"));
    turns
}

fn code_turns() -> Vec<ModelTurn> {
    let arguments = serde_json::json!({ "code": PROGRAM }).to_string();
    vec![
        ModelTurn::with_calls("", vec![ToolCall::new("c1", "run_code", arguments)]),
        ModelTurn::text("55"),
    ]
}

fn run(turns: Vec<ModelTurn>, registry: &std::sync::Arc<ToolRegistry>) {
    let runner = Runner::new(ScriptedModel::new(turns), registry.clone())
        .with_options(RunOptions::new().max_turns(20));
    let result = block_on(runner.run("Add 1 to 10, one at a time.")).expect("the run ends");
    assert_eq!(result.final_text().expect("an answer"), "55");
}

/// The process's resident set and its peak, in KiB (Linux; zero elsewhere).
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn memory() {
    let registry = CodeMode::new(tools![add]).registry();
    let call = |code: &str| {
        let arguments = serde_json::json!({ "code": code }).to_string();
        block_on(registry.call(&ToolCall::new("m", "run_code", arguments)))
    };
    call("return 1");
    let (before, _) = rss_kib();
    for _ in 0..1000 {
        black_box(call("return await tools.add({a: 1, b: 2})"));
    }
    let (after, peak_before) = rss_kib();
    black_box(call(
        "const a = new Array(2 * 1024 * 1024).fill(1.5); return a.length",
    ));
    let (_, peak_after) = rss_kib();
    println!(
        "memory: resident set {before} KiB before and {after} KiB after 1000 programs; \
         peak {peak_before} KiB, {peak_after} KiB after a program holding 16 MiB"
    );
}

fn bench(c: &mut Criterion) {
    memory();
    let code = std::sync::Arc::new(CodeMode::new(tools![add]).registry());
    let direct = std::sync::Arc::new(tools![add]);
    c.bench_function("engine_start", |b| {
        let call = ToolCall::new("b", "run_code", r#"{"code":"return 1"}"#);
        b.iter(|| black_box(block_on(code.call(&call))));
    });
    let mut group = c.benchmark_group("ten_dependent_calls");
    group.bench_function("direct", |b| b.iter(|| run(direct_turns(), &direct)));
    group.bench_function("code_mode", |b| b.iter(|| run(code_turns(), &code)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
