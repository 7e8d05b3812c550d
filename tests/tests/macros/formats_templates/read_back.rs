//! Every format reads back the calls it writes into the history, however the text is cut:
//! what a model sees of its own earlier turn is what it is told to write.

use serde_json::Value;
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

use super::{calls, definitions, ours};

/// The calls (name, arguments) read from the byte `pieces` fed one after the other (a piece
/// may end inside a character); a rejected call is named `rejected: ...` so that it shows in
/// the comparison.
fn read(format: ToolFormat, pieces: &[&[u8]]) -> Vec<(String, Value)> {
    let options = FormatOptions::for_tools(&definitions());
    let mut parser = FormatParser::with_options(format, options);
    let mut out = Vec::new();
    for piece in pieces {
        parser.feed_bytes(piece, &mut out);
    }
    parser.finish(EndReason::Stop, &mut out);
    out.into_iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some((
                call.name.clone(),
                serde_json::from_str(&call.arguments).expect("JSON arguments"),
            )),
            Event::CallError { name, response, .. } => Some((
                format!("rejected: {name:?}"),
                Value::String(response.model_text().into_owned()),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn every_format_reads_back_the_calls_it_writes_cut_anywhere() {
    let expected: Vec<(String, Value)> = calls()
        .iter()
        .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
        .collect();
    for format in ToolFormat::ALL {
        let written = ours(*format).calls;
        let bytes = written.as_bytes();
        assert_eq!(
            read(*format, &[bytes]),
            expected,
            "{format:?} whole:\n{written}"
        );
        let each: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(
            read(*format, &each),
            expected,
            "{format:?} a byte at a time"
        );
        for at in 1..bytes.len() {
            let (head, tail) = bytes.split_at(at);
            assert_eq!(
                read(*format, &[head, tail]),
                expected,
                "{format:?} cut at byte {at} of {written:?}"
            );
        }
    }
}
