//! What every text-format fuzz target checks (included by `formats_*.rs`).
//!
//! The first input byte chooses the chunk size (1..=64), whether the reply starts inside a
//! `<think>` the template opened, and the end reason; the rest is fed as raw bytes. Checked: no panic; chunked and one-shot parses give the same merged events;
//! text, reasoning, markup and call spans rebuild the (lossily decoded) input; every started
//! call ends exactly once; with `Length` every completed call is one the whole reply with
//! `Stop` also completed, identically (a cut-off reply never yields a partial call).

use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

// The format tests' helpers, shared so that the fuzzer checks what the test suite states.
#[path = "../../tests/tests/formats_support/mod.rs"]
pub(crate) mod formats_support;
#[path = "../../tests/tests/parse_support/mod.rs"]
mod parse_support;

use formats_support::{merged, rebuild};
use parse_support::check_call_lifecycle;

fn parse(
    format: ToolFormat,
    options: &FormatOptions,
    data: &[u8],
    chunk: usize,
    reason: EndReason,
) -> Vec<Event> {
    let mut parser = FormatParser::with_options(format, options.clone());
    let mut out = Vec::new();
    for piece in data.chunks(chunk) {
        parser.feed_bytes(piece, &mut out);
    }
    parser.finish(reason, &mut out);
    out
}

pub fn check(format: ToolFormat, data: &[u8]) {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(control % 64) + 1;
    let options = FormatOptions::default().with_start_in_reasoning(control & 0x40 != 0);
    let reason = if control & 0x80 != 0 {
        EndReason::Length
    } else {
        EndReason::Stop
    };
    let whole = parse(format, &options, input, input.len().max(1), reason);
    let chunked = parse(format, &options, input, chunk, reason);
    let text = String::from_utf8_lossy(input);
    assert_eq!(rebuild(&text, &whole), text, "not lossless");
    assert_eq!(rebuild(&text, &chunked), text, "chunked parse not lossless");
    if let Err(e) = check_call_lifecycle(&whole) {
        panic!("{e}");
    }
    if reason != EndReason::Stop {
        let stopped = parse(format, &options, input, input.len().max(1), EndReason::Stop);
        for e in &whole {
            if let Event::CallComplete { .. } = e {
                assert!(stopped.contains(e), "a cut-off reply completed {e:?}");
            }
        }
    }
    assert_eq!(merged(chunked), merged(whole), "chunking changed the result");
}
