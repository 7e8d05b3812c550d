//! Throughput of every text format's streaming parser in one run: 4-byte chunks on ~1 MiB of
//! prose and on a call whose argument is ~1 MiB, and the same call in one piece.
//!
//! Run with `cargo bench -p tool-core --bench parse_formats`. The `floor` row is the same
//! consumer loop with no parsing at all (one owned text event per chunk): what any
//! `Vec<Event>` API pays, the ceiling for 4-byte chunks. The comparison with the
//! `tool-parser` crate's incremental API is in `difftest/benches/compare.rs` (outside the
//! workspace, so its dependencies stay out of the normal build).
//!
//! For instruction counts, run the bench binary under callgrind in its counting mode:
//! `parse_formats --callgrind FORMAT (prose|call) N` parses the input N times with 4-byte
//! chunks and nothing else (`FORMAT` is a [`ToolFormat::name`] or `floor`); the difference
//! between N = 2 and N = 1, divided by the number of chunks it prints, is the cost per chunk.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
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
        ToolFormat::Qwen3Coder => format!(
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
        // A string may hold DeepSeek's other tokens, not `<｜tool▁call▁end｜>`, which ends the call.
        ToolFormat::DeepSeekV31 => format!(
            "Writing.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write<｜tool▁sep｜>{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            "lorem ipsum, \\\"quoted\\\" <｜tool▁calls▁begin｜> text abcdefghijkl".repeat(n)
        ),
        ToolFormat::DeepSeekV3 => format!(
            "Writing.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write\n```json\n{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            "lorem ipsum, \\\"quoted\\\" <｜tool▁calls▁begin｜> text abcdefghijkl".repeat(n)
        ),
        // The string holds objects that look like calls, and `;` separators.
        ToolFormat::Llama => format!(
            "Writing.\n<|python_tag|>{{\"name\": \"write\", \"parameters\": {{\"path\": \"/tmp/a\", \"content\": \"{}\"}}}}",
            "lorem \\\"q\\\" }}; {{\\\"name\\\": \\\"x\\\", \\\"parameters\\\": {{}}}} ab".repeat(n)
        ),
        // The string holds brackets and both quote styles, escaped.
        ToolFormat::Pythonic => format!(
            "Writing.\n[write(path='/tmp/a', content=\"{}\")]",
            "lorem ipsum, \\\"quoted\\\" 'single' ]) [f(x=1)] text abcdefgh".repeat(n)
        ),
        // Values are data up to their end marker: the block's end marker inside one is text.
        ToolFormat::Glm => format!(
            "Writing.\n<tool_call>write\n<arg_key>path</arg_key>\n<arg_value>/tmp/a</arg_value>\n<arg_key>content</arg_key>\n<arg_value>{}</arg_value>\n</tool_call>",
            "lorem ipsum dolor sit amet, \"quoted\" </tool_call> text abcdefgh".repeat(n)
        ),
        ToolFormat::MiniMax => format!(
            "Writing.\n<minimax:tool_call>\n<invoke name=\"write\">\n<parameter name=\"path\">/tmp/a</parameter>\n<parameter name=\"content\">{}</parameter>\n</invoke>\n</minimax:tool_call>",
            "lorem ipsum, \"quoted\" </minimax:tool_call> text abcdefghijklm".repeat(n)
        ),
        // The special tokens cannot occur inside the JSON: its string holds tag-like text.
        ToolFormat::KimiK2 => format!(
            "Writing.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.write:0<|tool_call_argument_begin|>{{\"path\": \"/tmp/a\", \"content\": \"{}\"}}<|tool_call_end|><|tool_calls_section_end|>",
            "lorem ipsum dolor sit amet, \\\"quoted\\\" <|tool_ca text abcdefgh".repeat(n)
        ),
        // The block's end token ends it even inside a value: the value holds the other tokens.
        ToolFormat::DeepSeekV32 => format!(
            "Writing.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write\">\n<｜DSML｜parameter name=\"path\" string=\"true\">/tmp/a</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">{}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
            "lorem ipsum, \"quoted\" <｜DSML｜invok text abcdefghijk".repeat(n)
        ),
        ToolFormat::DeepSeekV4 => format!(
            "Writing.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write\">\n<｜DSML｜parameter name=\"path\" string=\"true\">/tmp/a</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">{}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
            "lorem ipsum, \"quoted\" <｜DSML｜invok text abcdefghijk".repeat(n)
        ),
        other => unreachable!("no call for {other:?}"),
    }
}

/// Feeds `input` in `chunk`-byte pieces (on char boundaries), draining events per chunk as a
/// consumer would; returns how many events were seen and whether a call completed.
fn run(format: ToolFormat, input: &str, chunk: usize) -> (usize, bool) {
    let mut parser = FormatParser::new(format);
    let mut out: Vec<Event> = Vec::new();
    let (seen, mut called) = drive(input, chunk, &mut out, |piece, out| parser.feed(piece, out));
    parser.finish(EndReason::Stop, &mut out);
    called |= out.iter().any(|e| matches!(e, Event::CallComplete { .. }));
    (seen + out.len(), called)
}

/// The same consumer loop with no parser: one owned text event per chunk.
fn floor(input: &str, chunk: usize) -> (usize, bool) {
    let mut out: Vec<Event> = Vec::new();
    drive(input, chunk, &mut out, |piece, out| {
        out.push(Event::Text(piece.into()))
    })
}

/// The consumer loop shared by the parsers and the floor.
fn drive(
    input: &str,
    chunk: usize,
    out: &mut Vec<Event>,
    mut feed: impl FnMut(&str, &mut Vec<Event>),
) -> (usize, bool) {
    let mut seen = 0;
    let mut called = false;
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + chunk).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        feed(&input[start..end], out);
        seen += out.len();
        called |= out.iter().any(|e| matches!(e, Event::CallComplete { .. }));
        out.clear();
        start = end;
    }
    (seen, called)
}

fn bench_formats(c: &mut Criterion) {
    let prose = prose();
    let mut group = c.benchmark_group("formats_prose_chunk4");
    group.throughput(Throughput::Bytes(prose.len() as u64));
    for &format in ToolFormat::ALL {
        group.bench_with_input(
            BenchmarkId::from_parameter(format.name()),
            &format,
            |b, &f| b.iter(|| run(f, black_box(&prose), 4)),
        );
    }
    group.bench_function("floor", |b| b.iter(|| floor(black_box(&prose), 4)));
    group.finish();
    for (name, chunk) in [
        ("formats_call_chunk4", 4),
        ("formats_call_whole", usize::MAX / 2),
    ] {
        let mut group = c.benchmark_group(name);
        for &format in ToolFormat::ALL {
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

/// `--callgrind FORMAT INPUT N`: N parses of one input with 4-byte chunks and nothing else.
fn callgrind_case(format: &str, input: &str, n: usize) -> Option<String> {
    let parse_as = ToolFormat::ALL.iter().copied().find(|f| f.name() == format);
    let text = match (input, parse_as) {
        ("prose", _) => prose(),
        ("call", Some(f)) => big_call(f),
        ("call", None) => big_call(ToolFormat::Hermes),
        _ => return None,
    };
    let mut seen = 0;
    for _ in 0..n {
        seen += match parse_as {
            Some(f) => run(f, black_box(&text), 4).0,
            None if format == "floor" => floor(black_box(&text), 4).0,
            None => return None,
        };
    }
    let chunks = text.len().div_ceil(4);
    Some(format!(
        "{format} {input} x{n}: {chunks} chunks per parse, {seen} events"
    ))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--callgrind") {
        let arg = |k: usize| args.get(i + k).map_or("", String::as_str);
        let n = arg(3).parse().unwrap_or(1);
        match callgrind_case(arg(1), arg(2), n) {
            Some(summary) => println!("{summary}"),
            None => {
                eprintln!("usage: parse_formats --callgrind (FORMAT|floor) (prose|call) N, FORMAT one of the ToolFormat names");
                std::process::exit(2);
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
