//! libFuzzer target for the streaming `<use_tool>` parser.
//!
//! Run from `fuzz/` with:
//!
//! ```sh
//! cargo +nightly fuzz run parse corpus/parse seeds/parse -- -dict=dicts/parse.dict -max_total_time=600
//! ```
//!
//! Input layout: byte 0 picks the end reason and the `FormatOptions` (fenced calls run or not,
//! id prefix, known tool names); byte 1 where to cut the stream short; byte 2 how many chunk
//! sizes follow (0..=15), then those sizes (0..=31 each, cycled; 0 feeds an empty chunk); the
//! rest is the reply, fed as raw bytes.
//!
//! Checked, besides no panic: the irregular chunking gives the same merged events as one
//! chunk; text events plus call spans rebuild the (lossily decoded) input; every started call
//! ends exactly once; a call runs with what its `ArgumentsDelta`s carried (or is an error),
//! never with `{}` for content that held a value; `Length`/`Other` never complete a call whose
//! block did not close; and the stream cut short completes a prefix of the calls the whole
//! stream completes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::{EndReason, Event, FormatOptions, UseToolParser};

// The parser tests' helpers and property checks, shared so that the fuzzer checks exactly the
// properties the test suite states.
#[path = "../../tests/tests/parse_support/mod.rs"]
mod parse_support;

use parse_support::{
    check_arguments_are_what_was_sent, check_call_lifecycle, completed_calls, merged, rebuild,
};

fn options(control: u8) -> FormatOptions {
    let mut options = FormatOptions::default().with_fenced_calls(control & 4 != 0);
    // Without a prefix, the format's own (`xml_call_`).
    if control & 8 != 0 {
        options = options.with_id_prefix("call_");
    }
    if control & 16 != 0 {
        let object = || std::sync::Arc::new(serde_json::json!({"type": "object"}));
        let tools: Vec<tool_core::ToolDefinition> = ["get_weather", "a", "search"]
            .into_iter()
            .map(|name| tool_core::ToolDefinition::new(name, "", object()))
            .collect();
        options = options.with_tools(&tools);
    }
    options
}

/// Feeds `data` in chunks of the given sizes (cycled; an empty chunk where a size is 0).
fn parse(data: &[u8], sizes: &[usize], options: FormatOptions, reason: EndReason) -> Vec<Event> {
    let mut parser = UseToolParser::with_options(options);
    let mut out = Vec::new();
    let mut at = 0;
    let mut sizes = sizes.iter().cycle();
    while at < data.len() {
        let size = sizes.next().copied().unwrap_or(data.len());
        let end = (at + size).min(data.len());
        parser.feed_bytes(&data[at..end], &mut out);
        at = end;
    }
    parser.finish(reason, &mut out);
    out
}

fuzz_target!(|data: &[u8]| {
    let [control, cut, count, rest @ ..] = data else {
        return;
    };
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, input) = rest.split_at(count);
    let mut sizes: Vec<usize> = sizes.iter().map(|s| usize::from(s % 32)).collect();
    if sizes.iter().all(|&s| s == 0) {
        // Empty chunks only would never end; keep one, then make progress.
        sizes = vec![0, 1];
    }
    let reason = match control & 3 {
        0 | 1 => EndReason::Stop,
        2 => EndReason::Length,
        _ => EndReason::Other,
    };
    let options = options(*control);

    let whole = parse(input, &[input.len().max(1)], options.clone(), reason);
    let chunked = parse(input, &sizes, options.clone(), reason);
    // Invalid UTF-8 is replaced by U+FFFD before parsing, so compare against the decoded text.
    let text = String::from_utf8_lossy(input);
    assert_eq!(rebuild(&text, &whole), text, "text is not lossless");
    if let Err(e) = check_call_lifecycle(&whole) {
        panic!("{e}");
    }
    if let Err(e) = check_arguments_are_what_was_sent(&chunked) {
        panic!("{e}");
    }
    if reason != EndReason::Stop {
        for e in &whole {
            if let (Event::CallComplete { span, .. }, Some(block)) =
                (e, e.span().and_then(|s| text.get(s)))
            {
                assert!(
                    block.ends_with("</use_tool>"),
                    "Length completed an open call at {span:?}"
                );
            }
        }
    }
    let cut_at = input.len() * usize::from(*cut) / 255;
    let short_reason = if cut & 1 == 0 {
        EndReason::Length
    } else {
        EndReason::Other
    };
    let short = parse(&input[..cut_at], &sizes, options, short_reason);
    let (short, full) = (completed_calls(&short), completed_calls(&whole));
    assert!(
        full.starts_with(&short),
        "cut at {cut_at}: {short:?} is not a prefix of {full:?}"
    );
    assert_eq!(
        merged(chunked),
        merged(whole),
        "chunking changed the result"
    );
});
