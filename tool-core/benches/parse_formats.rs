//! Throughput of every text format's streaming parser in one run: 4-byte chunks on ~1 MiB of
//! prose and on a call whose argument is ~1 MiB, and the same call in one piece.
//!
//! Run with `cargo bench -p tool-core --bench parse_formats`. The comparison with the
//! `tool-parser` crate's incremental API is in `difftest/benches/compare.rs` (outside the
//! workspace, so its dependencies stay out of the normal build).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};

/// About 1 MiB of prose holding none of the formats' markers' first bytes.
fn prose() -> String {
    let line = "The weather in Tokyo is mild today, with light winds from the south-east and a \
                chance of rain later in the evening; temperatures stay near 21 degrees.\n";
    line.repeat((1 << 20) / line.len())
}

/// A reply in `format` whose call carries a ~1 MiB string argument full of the format's own
/// end markers (inside the JSON string, or inside the Qwen3-Coder value).
fn big_call(format: ToolFormat) -> String {
    let n = (1 << 20) / 64;
    match format {
        ToolFormat::UseTool => format!(
            "Writing.\n<use_tool><tool_name>write</tool_name><arguments>{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}</arguments></use_tool>",
            "lorem ipsum dolor sit amet, \\\"quoted\\\" </arguments> text ab".repeat(n)
        ),
        ToolFormat::Hermes => format!(
            "Writing.\n<tool_call>\n{{\"name\": \"write\", \"arguments\": {{\"path\": \"/tmp/a\", \"content\": \"{}\"}}}}\n</tool_call>",
            "lorem ipsum dolor sit amet, \\\"quoted\\\" </tool_call> text abc".repeat(n)
        ),
        ToolFormat::QwenXml => format!(
            "Writing.\n<tool_call>\n<function=write>\n<parameter=path>\n/tmp/a\n</parameter>\n<parameter=content>\n{}\n</parameter>\n</function>\n</tool_call>",
            "lorem ipsum dolor sit amet, \"quoted\" </tool_call> text abcdefgh".repeat(n)
        ),
        ToolFormat::Mistral => format!(
            "Writing.\n[TOOL_CALLS]write[ARGS]{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}",
            "lorem ipsum dolor sit amet, \\\"quoted\\\" [TOOL_CALLS] text abcd".repeat(n)
        ),
        ToolFormat::Harmony => format!(
            "<|channel|>commentary to=functions.write <|constrain|>json<|message|>{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}<|call|>",
            "lorem ipsum dolor sit amet, \\\"quoted\\\" <|call|> text abcdefg".repeat(n)
        ),
    }
}

/// Feeds `input` in `chunk`-byte pieces (on char boundaries), draining events per chunk as a
/// consumer would; returns how many events were seen and whether a call completed.
fn run(format: ToolFormat, input: &str, chunk: usize) -> (usize, bool) {
    let mut parser = FormatParser::new(format);
    let mut out: Vec<Event> = Vec::new();
    let mut seen = 0;
    let mut called = false;
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + chunk).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        parser.feed(&input[start..end], &mut out);
        seen += out.len();
        called |= out.iter().any(|e| matches!(e, Event::CallComplete { .. }));
        out.clear();
        start = end;
    }
    parser.finish(EndReason::Stop, &mut out);
    called |= out.iter().any(|e| matches!(e, Event::CallComplete { .. }));
    (seen + out.len(), called)
}

fn bench_formats(c: &mut Criterion) {
    let prose = prose();
    let mut group = c.benchmark_group("formats_prose_chunk4");
    group.throughput(Throughput::Bytes(prose.len() as u64));
    for format in ToolFormat::ALL {
        group.bench_with_input(
            BenchmarkId::from_parameter(format.name()),
            &format,
            |b, &f| b.iter(|| run(f, black_box(&prose), 4)),
        );
    }
    group.finish();
    for (name, chunk) in [
        ("formats_call_chunk4", 4),
        ("formats_call_whole", usize::MAX / 2),
    ] {
        let mut group = c.benchmark_group(name);
        for format in ToolFormat::ALL {
            let input = big_call(format);
            assert!(
                run(format, &input, 4096).1,
                "{format:?}: the call must complete"
            );
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(format.name()),
                &format,
                |b, &f| b.iter(|| run(f, black_box(&input), chunk)),
            );
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_formats
}
criterion_main!(benches);
