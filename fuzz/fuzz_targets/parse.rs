//! libFuzzer target for the streaming `<use_tool>` parser.
//!
//! Run from `fuzz/` with:
//!
//! ```sh
//! cargo +nightly fuzz run parse -- -max_total_time=600
//! ```
//!
//! The first input byte chooses the chunk size (1..=64) and the end reason; the rest is fed
//! as raw bytes. Checked: no panic; chunked and one-shot parses give the same merged events;
//! text events plus call spans rebuild the (lossily decoded) input; `Length` never completes
//! a call whose block did not close.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::parse::{EndReason, Event, XmlParser};

// The parser tests' helpers (event merging, input rebuilding), shared so that the fuzzer checks
// exactly the properties the test suite states.
#[path = "../../tests/tests/parse_support/mod.rs"]
mod parse_support;

use parse_support::{merged, rebuild};

fn parse(data: &[u8], chunk: usize, reason: EndReason) -> Vec<Event> {
    let mut parser = XmlParser::new();
    let mut out = Vec::new();
    for piece in data.chunks(chunk) {
        parser.feed_bytes(piece, &mut out);
    }
    parser.finish(reason, &mut out);
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(control % 64) + 1;
    let reason = match control >> 6 {
        0 | 1 => EndReason::Stop,
        2 => EndReason::Length,
        _ => EndReason::Other,
    };
    let whole = parse(input, input.len().max(1), reason);
    let chunked = parse(input, chunk, reason);
    // Invalid UTF-8 is replaced by U+FFFD before parsing, so compare against the decoded text.
    let text = String::from_utf8_lossy(input);
    assert_eq!(rebuild(&text, &whole), text, "text is not lossless");
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
    assert_eq!(
        merged(chunked),
        merged(whole),
        "chunking changed the result"
    );
});
