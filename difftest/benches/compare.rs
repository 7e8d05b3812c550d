//! tool-core's format parsers against tool-parser's streaming API (`parse_incremental`), in one
//! run, for every format both read: the same reply streamed in 4-byte and in 4 KiB pieces.
//!
//! Two replies per format (see `inputs/`): `mixed`, about 3 KiB of prose then two calls (one
//! with a 1 KiB string), and `large`, one call with a 16 KiB string. Before measuring, each
//! side's calls on each input are checked to be the same (names and arguments), so both do
//! the same work.
//!
//! Run from `difftest/`:
//! `cargo bench --bench compare -- --measurement-time 2 --warm-up-time 1`
//! then `python3 benches/table.py` prints the MB/s table (docs/performance.md).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use openai_protocol::common::Tool;
use serde_json::Value;
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_parser::{
    DeepSeek31Parser, DeepSeekDsmlParser, DeepSeekParser, Glm4MoeParser, KimiK2Parser, LlamaParser,
    MinimaxM2Parser, MistralParser, PythonicParser, QwenParser, ToolParser,
};

mod inputs;

/// tool-parser's parser for `format` (GLM: the 4.5/4.6 form, a newline after the name).
fn their_parser(format: ToolFormat) -> Box<dyn ToolParser> {
    match format {
        ToolFormat::Hermes => Box::new(QwenParser::new()),
        ToolFormat::Qwen3Coder => Box::new(tool_parser::parsers::qwen_xml::QwenXmlParser::new()),
        ToolFormat::Mistral => Box::new(MistralParser::new()),
        ToolFormat::Llama => Box::new(LlamaParser::new()),
        ToolFormat::Pythonic => Box::new(PythonicParser::new()),
        ToolFormat::DeepSeekV3 => Box::new(DeepSeekParser::new()),
        ToolFormat::DeepSeekV31 => Box::new(DeepSeek31Parser::new()),
        ToolFormat::DeepSeekV32 => Box::new(DeepSeekDsmlParser::v32()),
        ToolFormat::DeepSeekV4 => Box::new(DeepSeekDsmlParser::v4()),
        ToolFormat::Glm => Box::new(Glm4MoeParser::glm45()),
        ToolFormat::KimiK2 => Box::new(KimiK2Parser::new()),
        ToolFormat::MiniMax => Box::new(MinimaxM2Parser::new()),
        other => panic!("{other:?} has no tool-parser counterpart"),
    }
}

/// The measured work on our side: every piece fed, then the end; the events are counted so
/// nothing is optimised away.
fn ours(mut parser: FormatParser, pieces: &[&str]) -> usize {
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

/// The measured work on tool-parser's side: every piece through `parse_incremental`.
fn theirs(mut parser: Box<dyn ToolParser>, pieces: &[&str], tools: &[Tool]) -> usize {
    let mut seen = 0;
    for p in pieces {
        if let Ok(r) = tool_core::block_on(parser.parse_incremental(p, tools)) {
            seen += r.calls.len() + r.normal_text.len();
        }
    }
    seen
}

/// The calls (name, arguments) our parser reports for `pieces`; any rejected call fails.
fn our_calls(format: ToolFormat, options: &FormatOptions, pieces: &[&str]) -> Vec<(String, Value)> {
    let mut parser = FormatParser::with_options(format, options.clone());
    let mut out = Vec::new();
    for p in pieces {
        parser.feed(p, &mut out);
    }
    parser.finish(EndReason::Stop, &mut out);
    out.into_iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some((
                call.name.clone(),
                serde_json::from_str(&call.arguments).unwrap_or(Value::String(call.arguments)),
            )),
            Event::CallError { name, response, .. } => Some((
                format!("rejected {name:?}"),
                Value::String(response.model_text().into_owned()),
            )),
            _ => None,
        })
        .collect()
}

/// The calls tool-parser streams for `pieces`: each call's name and its argument deltas
/// joined, plus what it still holds at the end.
fn their_calls(format: ToolFormat, tools: &[Tool], pieces: &[&str]) -> Vec<(String, Value)> {
    let mut parser = their_parser(format);
    let mut calls: Vec<(String, String)> = Vec::new();
    let mut add = |index: usize, name: Option<String>, delta: &str| {
        if calls.len() <= index {
            calls.resize(index + 1, (String::new(), String::new()));
        }
        if let Some(name) = name {
            calls[index].0 = name;
        }
        calls[index].1.push_str(delta);
    };
    for p in pieces {
        match tool_core::block_on(parser.parse_incremental(p, tools)) {
            Ok(result) => {
                for item in result.calls {
                    add(item.tool_index, item.name, &item.parameters);
                }
            }
            Err(e) => return vec![(format!("error: {e}"), Value::Null)],
        }
    }
    for item in parser.get_unstreamed_tool_args().unwrap_or_default() {
        add(item.tool_index, item.name, &item.parameters);
    }
    calls
        .into_iter()
        .map(|(name, args)| {
            let args = serde_json::from_str(&args).unwrap_or(Value::String(args));
            (name, args)
        })
        .collect()
}

/// Calls as (name, arguments).
type Calls = Vec<(String, Value)>;

/// Each reply as (format, input name, text, the calls written in it).
fn workload() -> Vec<(ToolFormat, &'static str, String, Calls)> {
    let mut out = Vec::new();
    for format in inputs::SHARED {
        for (what, (prose, calls)) in [("mixed", inputs::mixed()), ("large", inputs::large())] {
            let expected = calls
                .iter()
                .map(|(name, args)| {
                    let args = args.iter().map(|(k, v)| (k.to_string(), v.clone()));
                    (name.to_string(), Value::Object(args.collect()))
                })
                .collect();
            out.push((
                format,
                what,
                inputs::reply(format, &prose, &calls),
                expected,
            ));
        }
    }
    out
}

const CHUNKS: [(&str, usize); 2] = [("4B", 4), ("4KiB", 4 << 10)];

/// The calls tool-parser reads in the whole `input` at once (`parse_complete_with_tools`).
fn their_whole_calls(format: ToolFormat, tools: &[Tool], input: &str) -> Vec<(String, Value)> {
    let parser = their_parser(format);
    match tool_core::block_on(parser.parse_complete_with_tools(input, tools)) {
        Ok((_, calls)) => calls
            .into_iter()
            .map(|c| {
                let args = &c.function.arguments;
                let args = serde_json::from_str(args).unwrap_or(Value::String(args.clone()));
                (c.function.name, args)
            })
            .collect(),
        Err(e) => vec![(format!("error: {e}"), Value::Null)],
    }
}

fn compare(c: &mut Criterion) {
    let tools = inputs::openai_tools();
    let options = FormatOptions::for_tools(&inputs::definitions());
    let workload = workload();
    // Fairness: the input is one both sides read, whole, as the calls written in it (else
    // nothing is measured), and our streamed reading finds them at every chunk size.
    // tool-parser's stream loses calls on some of these inputs: that is reported (and written
    // to `target/criterion/stream_reads.json` for the table), not hidden.
    let mut wrong = Vec::new();
    let mut stream_reads = serde_json::Map::new();
    for (format, what, input, expected) in &workload {
        let whole = their_whole_calls(*format, &tools, input);
        if &whole != expected {
            wrong.push(format!(
                "{format:?} {what} whole: tool-parser read {whole:.200?}"
            ));
        }
        for (chunk, size) in CHUNKS {
            let pieces = inputs::pieces(input, size);
            let ours_read = our_calls(*format, &options, &pieces);
            if &ours_read != expected {
                wrong.push(format!(
                    "{format:?} {what} {chunk}: tool-core read {ours_read:.200?}"
                ));
            }
            let theirs_read = their_calls(*format, &tools, &pieces) == *expected;
            let name = format!("{}_{what}_{chunk}", format.name());
            eprintln!("{name}: tool-parser's stream reads the calls: {theirs_read}");
            stream_reads.insert(name, Value::Bool(theirs_read));
        }
    }
    assert!(
        wrong.is_empty(),
        "not the written calls:\n{}",
        wrong.join("\n")
    );
    let record = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/criterion");
    std::fs::create_dir_all(&record).expect("target/criterion is writable");
    std::fs::write(
        record.join("stream_reads.json"),
        Value::Object(stream_reads).to_string(),
    )
    .expect("stream_reads.json is written");

    for (format, what, input, _) in &workload {
        let format = *format;
        for (chunk, size) in CHUNKS {
            let pieces = inputs::pieces(input, size);
            let mut group = c.benchmark_group(format!("{}_{what}_{chunk}", format.name()));
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function(BenchmarkId::from_parameter("tool_core"), |b| {
                b.iter_batched(
                    || FormatParser::with_options(format, options.clone()),
                    |parser| ours(parser, black_box(&pieces)),
                    BatchSize::SmallInput,
                )
            });
            // The parser is built outside the timing: tool-parser compiles its regexes when
            // one is made.
            group.bench_function(BenchmarkId::from_parameter("tool_parser"), |b| {
                b.iter_batched(
                    || their_parser(format),
                    |parser| theirs(parser, black_box(&pieces), &tools),
                    BatchSize::SmallInput,
                )
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
