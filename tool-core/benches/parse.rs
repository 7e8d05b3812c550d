//! Throughput of the streaming `<use_tool>` parser at several chunk sizes, on tag-free prose and
//! on a call with a 1 MiB argument, plus the streamed/one-shot time ratio.
//!
//! Run with `cargo bench -p tool-core --bench parse`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use tool_core::parse::{EndReason, Event, UseToolParser};

const CHUNKS: [usize; 5] = [1, 4, 16, 64, 4096];

/// About 1 MiB of prose without any `<`.
fn prose() -> String {
    let line = "The weather in Tokyo is mild today, with light winds from the south-east and a \
                chance of rain later in the evening; temperatures stay near 21 degrees.\n";
    line.repeat((1 << 20) / line.len())
}

/// A reply whose call carries a 1 MiB string argument.
fn big_call() -> String {
    let payload =
        "lorem ipsum dolor sit amet, \\\"quoted\\\" </arguments> text ".repeat((1 << 20) / 58);
    format!(
        "Writing the file now.\n<use_tool>\n  <tool_name>write</tool_name>\n  <arguments>\n    {{\"path\": \"/tmp/a.txt\", \"content\": \"{payload}\"}}\n  </arguments>\n</use_tool>"
    )
}

/// Feeds `input` in `chunk`-byte pieces (on char boundaries), draining events per chunk as a
/// consumer would. Returns how many events were seen, so nothing is optimized away.
fn run(input: &str, chunk: usize) -> usize {
    let mut parser = UseToolParser::new();
    let mut out: Vec<Event> = Vec::new();
    let mut seen = 0;
    let mut start = 0;
    while start < input.len() {
        let mut end = (start + chunk).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        parser.feed(&input[start..end], &mut out);
        seen += out.len();
        out.clear();
        start = end;
    }
    parser.finish(EndReason::Stop, &mut out);
    seen + out.len()
}

fn bench_inputs(c: &mut Criterion) {
    for (name, input) in [("prose", prose()), ("call_1mib_argument", big_call())] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(input.len() as u64));
        for chunk in CHUNKS {
            group.bench_with_input(BenchmarkId::new("chunk", chunk), &chunk, |b, &chunk| {
                b.iter(|| run(black_box(&input), chunk))
            });
        }
        group.bench_function("whole", |b| {
            b.iter(|| run(black_box(&input), usize::MAX / 2))
        });
        group.finish();
    }
    // The floor any `Vec<Event>` API pays: one owned text event per chunk, no parsing at all.
    let input = prose();
    let mut group = c.benchmark_group("floor_one_text_event_per_chunk");
    group.throughput(Throughput::Bytes(input.len() as u64));
    for chunk in [4, 16] {
        group.bench_with_input(BenchmarkId::new("chunk", chunk), &chunk, |b, &chunk| {
            b.iter(|| {
                let mut out: Vec<Event> = Vec::new();
                let mut seen = 0;
                for piece in black_box(&input).as_bytes().chunks(chunk) {
                    out.push(Event::Text(String::from_utf8_lossy(piece).as_ref().into()));
                    seen += out.len();
                    out.clear();
                }
                seen
            })
        });
    }
    group.finish();
}

/// Median of several timed runs.
fn median_time(input: &str, chunk: usize) -> Duration {
    let mut times: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            black_box(run(input, chunk));
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ratios() {
    for (name, input) in [("prose", prose()), ("call_1mib_argument", big_call())] {
        let whole = median_time(&input, usize::MAX / 2);
        for chunk in [16, 4096] {
            let streamed = median_time(&input, chunk);
            println!(
                "{name}: streamed/whole time ratio at {chunk}-byte chunks = {:.2} ({:?} vs {:?})",
                streamed.as_secs_f64() / whole.as_secs_f64(),
                streamed,
                whole
            );
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).sample_size(20).warm_up_time(Duration::from_millis(500));
    targets = bench_inputs
}

fn main() {
    benches();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
