//! tool-core's format parsers against tool-parser's incremental API on the same workload, in
//! one run: 4-byte chunks of prose and of a call with a long string argument, per format.
//!
//! Run from `difftest/` with `cargo bench --bench compare`. The inputs are smaller than in
//! tool-core's own bench (`parse_formats`) because tool-parser re-reads its buffer as chunks
//! arrive, which grows with the input.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use openai_protocol::common::Tool;
use serde_json::json;
use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};
use tool_parser::{LlamaParser, MistralParser, PythonicParser, QwenParser, ToolParser};

const SIZE: usize = 16 << 10;

fn prose() -> String {
    let line = "The weather in Tokyo is mild today, with light winds from the south-east and a \
                chance of rain later in the evening; temperatures stay near 21 degrees.\n";
    line.repeat(SIZE / line.len())
}

/// A call with a ~16 KiB string argument, in each format (Mistral's array form, the one
/// tool-parser reads).
fn call(format: ToolFormat) -> String {
    let payload = "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
        .repeat(SIZE / 72);
    match format {
        ToolFormat::Hermes => format!(
            "Writing.\n<tool_call>\n{{\"name\": \"write\", \"arguments\": {{\"path\": \"/tmp/a\", \"content\": \"{payload}\"}}}}\n</tool_call>"
        ),
        ToolFormat::Qwen3Coder => format!(
            "Writing.\n<tool_call>\n<function=write>\n<parameter=path>\n/tmp/a\n</parameter>\n<parameter=content>\n{payload}\n</parameter>\n</function>\n</tool_call>"
        ),
        ToolFormat::Llama => format!(
            "<|python_tag|>{{\"name\": \"write\", \"parameters\": {{\"path\": \"/tmp/a\", \"content\": \"{payload}\"}}}}"
        ),
        ToolFormat::Pythonic => format!("[write(path='/tmp/a', content=\"{payload}\")]"),
        _ => format!(
            "[TOOL_CALLS] [{{\"name\": \"write\", \"arguments\": {{\"path\": \"/tmp/a\", \"content\": \"{payload}\"}}}}]"
        ),
    }
}

fn tools() -> Vec<Tool> {
    serde_json::from_value(json!([{"type": "function", "function": {"name": "write",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"},
        "content": {"type": "string"}}}}}]))
    .unwrap()
}

fn pieces(input: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + 4).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        out.push(&input[start..end]);
        start = end;
    }
    out
}

fn ours(format: ToolFormat, pieces: &[&str]) -> usize {
    let mut parser = FormatParser::new(format);
    let mut out: Vec<Event> = Vec::new();
    let mut seen = 0;
    for p in pieces {
        parser.feed(p, &mut out);
        seen += out.len();
        out.clear();
    }
    parser.finish(EndReason::Stop, &mut out);
    seen + out.len()
}

fn theirs(format: ToolFormat, pieces: &[&str], tools: &[Tool]) -> usize {
    let mut parser: Box<dyn ToolParser> = match format {
        ToolFormat::Hermes => Box::new(QwenParser::new()),
        ToolFormat::Qwen3Coder => Box::new(tool_parser::parsers::qwen3_coder::Qwen3CoderParser::new()),
        ToolFormat::Llama => Box::new(LlamaParser::new()),
        ToolFormat::Pythonic => Box::new(PythonicParser::new()),
        _ => Box::new(MistralParser::new()),
    };
    let mut seen = 0;
    for p in pieces {
        if let Ok(r) = tool_core::block_on(parser.parse_incremental(p, tools)) {
            seen += r.calls.len() + r.normal_text.len();
        }
    }
    seen
}

fn compare(c: &mut Criterion) {
    let tools = tools();
    let prose = prose();
    for format in [
        ToolFormat::Hermes,
        ToolFormat::Qwen3Coder,
        ToolFormat::Mistral,
        ToolFormat::Llama,
        ToolFormat::Pythonic,
    ] {
        for (what, input) in [("prose", prose.clone()), ("call", call(format))] {
            let pieces = pieces(&input);
            let mut group = c.benchmark_group(format!("{}_{what}_chunk4", format.name()));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function(BenchmarkId::from_parameter("tool_core"), |b| {
                b.iter(|| ours(format, black_box(&pieces)))
            });
            group.bench_function(BenchmarkId::from_parameter("tool_parser"), |b| {
                b.iter(|| theirs(format, black_box(&pieces), &tools))
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = compare
}
criterion_main!(benches);
