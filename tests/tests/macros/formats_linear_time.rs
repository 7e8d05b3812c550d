//! Every text format finishes a hostile reply in time linear in its length: each unclosed
//! construct a format has (a call, a parameter or argument tag, a string or value, many
//! openers, the reasoning section), repeated or left open to 64 KiB and to 1 MiB, is parsed
//! whole and in small chunks, ended both ways, and the 1 MiB reply must cost less than
//! [`MAX_RATIO`] times the 64 KiB one measured in the same run. Linear work is 16 times;
//! a parser that searches the rest of the reply once per opener is about 256 times.
//!
//! The parsers expose no work count, so the cost is time: the CPU time of the test's thread
//! where the system reports it (Linux), so that other processes on a busy machine do not add
//! to it, else wall time. A timing of the small reply is 16 parses of it (as much work as one
//! of the large reply, so both are long against the clock's granularity); each size is timed
//! more than once and the fastest run counts: noise only ever adds time, and the bound leaves
//! room for cache effects. Each repeated unit
//! carries some plain text, so that the debug build parses a mebibyte in a fraction of a
//! second, and the openers are still thousands.

use std::time::{Duration, Instant};

use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

use crate::formats_support::{merged, rebuild};

/// The sizes compared: 64 KiB and 16 times that.
const SMALL: usize = 64 << 10;
const LARGE: usize = SMALL * 16;
/// The most the large reply may cost, in multiples of the small one.
const MAX_RATIO: f64 = 40.0;
/// How many times each size is timed (the fastest counts; the large reply is timed again only
/// while it seems too slow).
const RUNS: usize = 2;
/// How many parses of the small reply one timing of it takes: as much work as one of the
/// large reply when linear, so that both are long against the clock's granularity.
const REPEATS: u32 = (LARGE / SMALL) as u32;
/// The chunk size of the streamed runs: odd, so that markers are cut at every place.
const CHUNK: usize = 127;

/// Plain text after each repeated unit (no byte any format treats specially).
const PAD: &str = " lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod \
                   tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam \
                   quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo \
                   consequat duis aute irure dolor in reprehenderit in voluptate velit esse \
                   cillum dolore eu fugiat nulla pariatur excepteur sint occaecat cupidatat non \
                   proident sunt in culpa qui officia deserunt mollit anim id est laborum ";

/// One hostile reply: `head`, then `unit` repeated until the reply holds `size` bytes, then
/// `tail`. A `#` in the unit is the repetition's number, so that repeated keys differ; each
/// unit is followed by [`PAD`].
struct Hostile {
    format: ToolFormat,
    what: &'static str,
    head: &'static str,
    unit: &'static str,
    tail: &'static str,
}

const fn case(
    format: ToolFormat,
    what: &'static str,
    head: &'static str,
    unit: &'static str,
    tail: &'static str,
) -> Hostile {
    Hostile {
        format,
        what,
        head,
        unit,
        tail,
    }
}

impl Hostile {
    fn reply(&self, size: usize) -> String {
        let mut reply = String::with_capacity(size + self.tail.len() + self.unit.len());
        reply.push_str(self.head);
        let mut n = 0;
        while reply.len() + self.tail.len() < size {
            n += 1;
            reply.push_str(&self.unit.replace('#', &n.to_string()));
            reply.push_str(PAD);
        }
        reply.push_str(self.tail);
        reply
    }
}

use ToolFormat as F;

/// Each format's unclosed constructs. The reasoning cases apply to every format whose model
/// thinks; the rest are the format's own.
const CASES: &[Hostile] = &[
    // `<use_tool>`
    case(F::UseTool, "unclosed call", "<use_tool><tool_name>f</tool_name><arguments>{\"a\": [", "1, ", ""),
    case(F::UseTool, "unclosed string", "<use_tool><tool_name>f</tool_name><arguments>{\"a\": \"", "x</use_tool> ", ""),
    case(F::UseTool, "many openers", "", "<use_tool>", ""),
    case(F::UseTool, "many unclosed names", "", "<use_tool><tool_name>f", ""),
    case(F::UseTool, "many unclosed arguments", "<use_tool><tool_name>f</tool_name>", "<arguments>{", ""),
    case(F::UseTool, "many cut markers", "", "<use_too", ""),
    // Hermes
    case(F::Hermes, "unclosed call", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": [", "1, ", ""),
    case(F::Hermes, "unclosed string", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"", "x</tool_call> ", ""),
    case(F::Hermes, "many openers", "", "<tool_call>{", ""),
    case(F::Hermes, "many cut end markers", "<tool_call>{\"name\": \"f\"}", "</tool_cal", ""),
    case(F::Hermes, "many unclosed objects", "<tool_call>", "{\"a\": ", "</tool_call>"),
    // Qwen3-Coder
    case(F::Qwen3Coder, "unclosed call", "<tool_call>\n<function=f>\n<parameter=a>\n", "x</tool_call>", ""),
    case(F::Qwen3Coder, "many unclosed parameters", "<tool_call>\n<function=f>\n", "<parameter=a#>\nx\n", "</function>\n</tool_call>"),
    case(F::Qwen3Coder, "many unclosed parameter tags", "<tool_call>\n<function=f>\n", "<parameter=a", "</function>\n</tool_call>"),
    case(F::Qwen3Coder, "many unclosed functions", "<tool_call>\n", "<function=f>\n<parameter=a>\nx\n</parameter>\n", "</tool_call>"),
    case(F::Qwen3Coder, "many openers", "", "<tool_call>\n<function=f>\n", ""),
    // Mistral
    case(F::Mistral, "unclosed array", "[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {\"a\": [", "1, ", ""),
    case(F::Mistral, "unclosed string", "[TOOL_CALLS]f[ARGS]{\"a\": \"", "x[TOOL_CALLS] ", ""),
    case(F::Mistral, "many openers", "", "[TOOL_CALLS]", ""),
    case(F::Mistral, "many unclosed arguments", "", "[TOOL_CALLS]f[ARGS]{\"a\": ", ""),
    // Harmony
    case(F::Harmony, "unclosed call", "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": [", "1, ", ""),
    case(F::Harmony, "unclosed string", "<|channel|>commentary to=functions.f<|message|>{\"a\": \"", "x<|end|>", ""),
    case(F::Harmony, "unclosed analysis", "<|channel|>analysis<|message|>", "thinking <|", ""),
    case(F::Harmony, "many unclosed headers", "", "<|start|>assistant<|channel|>commentary to=functions.f ", ""),
    case(F::Harmony, "many unclosed calls", "", "<|channel|>commentary to=functions.f<|message|>{", ""),
    // GLM
    case(F::Glm, "unclosed call", "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>", "x</tool_call>", ""),
    case(F::Glm, "many unclosed pairs", "<tool_call>f\n", "<arg_key>a#<arg_value>x", "<arg_key>a</tool_call>"),
    case(F::Glm, "many unclosed keys", "<tool_call>f\n", "<arg_key>a", "</tool_call>"),
    case(F::Glm, "many unclosed values", "<tool_call>f\n", "<arg_key>a#</arg_key><arg_value>x", "<arg_key>a</tool_call>"),
    case(F::Glm, "many openers", "", "<tool_call>f\n", ""),
    // MiniMax-M2
    case(F::MiniMax, "unclosed call", "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">", "x</minimax:tool_call>", ""),
    case(F::MiniMax, "many unclosed parameters", "<minimax:tool_call>\n<invoke name=\"f\">\n", "<parameter name=\"a#\">x", "</invoke>\n</minimax:tool_call>"),
    case(F::MiniMax, "many unclosed parameter tags", "<minimax:tool_call>\n<invoke name=\"f\">\n", "<parameter name=\"a\"", "</invoke>\n</minimax:tool_call>"),
    case(F::MiniMax, "many unclosed invokes", "<minimax:tool_call>\n", "<invoke name=\"f\">\n<parameter name=\"a\">x</parameter>\n", "</minimax:tool_call>"),
    case(F::MiniMax, "many openers", "", "<minimax:tool_call><invoke name=\"f\">", ""),
    // Kimi K2
    case(F::KimiK2, "unclosed call", "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": [", "1, ", ""),
    case(F::KimiK2, "many unclosed calls", "<|tool_calls_section_begin|>", "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{", "<|tool_calls_section_end|>"),
    case(F::KimiK2, "many unclosed ids", "<|tool_calls_section_begin|>", "<|tool_call_begin|>functions.f:0", "<|tool_calls_section_end|>"),
    case(F::KimiK2, "many openers", "", "<|tool_calls_section_begin|>", ""),
    // DeepSeek V3 and V3.1
    case(F::DeepSeekV3, "unclosed call", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": [", "1, ", ""),
    case(F::DeepSeekV3, "many unclosed calls", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{", "<｜tool▁calls▁end｜>"),
    case(F::DeepSeekV3, "many openers", "", "<｜tool▁calls▁begin｜>", ""),
    case(F::DeepSeekV31, "unclosed call", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": \"", "x<｜tool▁call▁end", ""),
    case(F::DeepSeekV31, "many unclosed calls", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{", "<｜tool▁calls▁end｜>"),
    case(F::DeepSeekV31, "many calls without a name", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>f", "<｜tool▁calls▁end｜>"),
    // DeepSeek V3.2 and V4 (DSML)
    case(F::DeepSeekV32, "unclosed value", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">", "x<｜DSML｜", "</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
    case(F::DeepSeekV32, "many unclosed parameters", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n", "<｜DSML｜parameter name=\"a#\" string=\"true\">x", "</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
    case(F::DeepSeekV32, "many unclosed parameter tags", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n", "<｜DSML｜parameter name=\"a\"", "</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
    case(F::DeepSeekV32, "many unclosed invokes", "<｜DSML｜function_calls>\n", "<｜DSML｜invoke name=\"f\">\n", "</｜DSML｜invoke>\n</｜DSML｜function_calls>"),
    case(F::DeepSeekV32, "many openers", "", "<｜DSML｜function_calls>", ""),
    case(F::DeepSeekV4, "unclosed value", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"false\">", "[1, ", "</｜DSML｜invoke>\n</｜DSML｜tool_calls>"),
    case(F::DeepSeekV4, "many unclosed parameters", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"f\">\n", "<｜DSML｜parameter name=\"a#\" string=\"true\">x", "</｜DSML｜invoke>\n</｜DSML｜tool_calls>"),
    case(F::DeepSeekV4, "many unclosed invokes", "<｜DSML｜tool_calls>\n", "<｜DSML｜invoke name=\"f\">\n", "</｜DSML｜invoke>\n</｜DSML｜tool_calls>"),
    case(F::DeepSeekV4, "many openers", "", "<｜DSML｜tool_calls>", ""),
    // Llama 3.x
    case(F::Llama, "unclosed call", "{\"name\": \"f\", \"parameters\": {\"a\": [", "1, ", ""),
    case(F::Llama, "unclosed string", "<|python_tag|>{\"name\": \"f\", \"parameters\": {\"a\": \"", "x} ", ""),
    case(F::Llama, "many openers", "", "{\"name\": ", ""),
    case(F::Llama, "many unclosed calls", "", "{\"name\": \"f\", \"parameters\": {", ""),
    case(F::Llama, "many calls in prose", "", "{\"user\": {\"name\": \"f\", ", ""),
    // Pythonic
    case(F::Pythonic, "unclosed call", "[f(a=[", "1, ", ""),
    case(F::Pythonic, "unclosed string", "[f(a='", "x]) ", ""),
    case(F::Pythonic, "unclosed triple-quoted string", "[f(a='''", "x' ]) ", ""),
    case(F::Pythonic, "many openers", "", "[f(", ""),
    case(F::Pythonic, "many unclosed calls", "[", "f(a#=1, ", "]"),
    case(F::Pythonic, "many strings", "[f(a=", "'x', ", ""),
];

/// The formats whose models think, for the unclosed reasoning cases.
const THINKING: &[ToolFormat] = &[
    F::Glm,
    F::MiniMax,
    F::KimiK2,
    F::DeepSeekV3,
    F::DeepSeekV31,
    F::DeepSeekV32,
    F::DeepSeekV4,
    F::Hermes,
];

/// Parses `reply` whole (ended by a stop) and in chunks (ended by the length limit): both
/// front ends, and both ways a reply ends, which read an unclosed call differently.
fn parse(format: ToolFormat, reply: &str) -> [Vec<Event>; 2] {
    let mut parser = FormatParser::with_options(format, FormatOptions::default());
    let mut whole = Vec::new();
    parser.feed(reply, &mut whole);
    parser.finish(EndReason::Stop, &mut whole);
    let mut chunked = Vec::new();
    for chunk in reply.as_bytes().chunks(CHUNK) {
        parser.feed_bytes(chunk, &mut chunked);
    }
    parser.finish(EndReason::Length, &mut chunked);
    [whole, chunked]
}

/// The CPU time this thread has run, where the system says (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// How long `times` parses of `reply` take: CPU time if known, else wall time.
fn time(format: ToolFormat, reply: &str, times: u32) -> Duration {
    let (cpu, wall) = (cpu_time(), Instant::now());
    for _ in 0..times {
        std::hint::black_box(parse(format, reply));
    }
    match (cpu, cpu_time()) {
        (Some(before), Some(after)) if after > before => after - before,
        _ => wall.elapsed(),
    }
}

/// The large reply's cost in multiples of the small one's, each the fastest of its runs.
fn ratio(format: ToolFormat, small: &str, large: &str) -> (f64, Duration, Duration) {
    let a = (0..RUNS)
        .map(|_| time(format, small, REPEATS) / REPEATS)
        .min()
        .unwrap_or_default();
    let mut b = Duration::MAX;
    for _ in 0..RUNS + 1 {
        b = b.min(time(format, large, 1));
        if b.as_secs_f64() < MAX_RATIO / 2.0 * a.as_secs_f64() {
            break;
        }
    }
    (b.as_secs_f64() / a.as_secs_f64().max(1e-9), a, b)
}

#[test]
fn every_format_reads_every_unclosed_construct_in_linear_time() {
    let reasoning: Vec<Hostile> = THINKING
        .iter()
        .flat_map(|&f| {
            [
                case(f, "unclosed reasoning", "<think>", "thinking </thin", ""),
                case(f, "many reasoning openers", "", "<think>", ""),
            ]
        })
        .collect();
    let mut slow = Vec::new();
    let started = Instant::now();
    for hostile in CASES.iter().chain(&reasoning) {
        let small = hostile.reply(SMALL);
        // The parse keeps every byte: text, markup and call spans give the reply back.
        for events in parse(hostile.format, &small) {
            assert_eq!(
                rebuild(&small, &merged(events)),
                small,
                "{:?} {}",
                hostile.format,
                hostile.what
            );
        }
        let large = hostile.reply(LARGE);
        let (r, a, b) = ratio(hostile.format, &small, &large);
        eprintln!(
            "{:?} {}: {a:?} -> {b:?} ({r:.1}x)",
            hostile.format, hostile.what
        );
        if r >= MAX_RATIO {
            slow.push(format!(
                "{:?} {}: {a:?} at {} KiB, {b:?} at {} KiB ({r:.0}x)",
                hostile.format,
                hostile.what,
                SMALL >> 10,
                LARGE >> 10
            ));
        }
    }
    eprintln!("all cases: {:?}", started.elapsed());
    assert!(slow.is_empty(), "not linear:\n{}", slow.join("\n"));
}
