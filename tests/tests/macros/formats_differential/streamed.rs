//! tool-parser's streaming API on the Hermes, Qwen3-Coder, Mistral, Llama and pythonic corpora,
//! fed in chunks of 1..64 bytes (recorded by `difftest/`), against our parser at the same
//! chunkings: ours gives its one-shot calls at every chunking; tool-parser's streamed calls
//! differ from its own one-shot ones on the replies counted below, per chunk size.

use super::{recorded, theirs, STEMS};
use crate::formats_support::{calls, corpus, parse_chunks};
use serde_json::Value;

/// The tokenizers' special tokens these formats use, as `difftest/src/streamed.rs` keeps them
/// whole in its `tokens_whole` chunkings (a serving engine decodes one token at a time, so
/// such a token arrives whole).
fn special_tokens(stem: &str) -> &'static [&'static str] {
    match stem {
        "hermes" | "qwen3_coder" => &["<tool_call>", "</tool_call>", "<think>", "</think>"],
        "mistral" => &["[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"],
        "llama" => &["<|python_tag|>", "<|eom_id|>", "<|eot_id|>"],
        "pythonic" => &["<|python_start|>", "<|python_end|>", "<|eom|>", "<|eot|>"],
        _ => &[],
    }
}

/// The cuts of `text` into chunks of `size` bytes, each moved to the next character boundary
/// and, with `tokens_whole`, past a special token it would split (as difftest cuts them).
fn cuts(stem: &str, text: &str, size: usize, tokens_whole: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if tokens_whole {
            for token in special_tokens(stem) {
                for (start, _) in text.match_indices(token) {
                    if start < end && end < start + token.len() {
                        end = start + token.len();
                    }
                }
            }
        }
        out.push(end);
        at = end;
    }
    out
}

/// How tool-parser's streamed calls differ from its one-shot calls on one reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Drift {
    /// Fewer calls streamed: a call is lost.
    CallLost,
    /// More calls streamed: a call the one-shot parse does not make.
    CallAdded,
    /// The same number of calls, another name.
    NameDiffers,
    /// The same calls by name, other arguments.
    ArgumentsDiffer,
}

fn drift(whole: &[(String, Value)], streamed: &[(String, Value)]) -> Option<Drift> {
    use std::cmp::Ordering::*;
    match streamed.len().cmp(&whole.len()) {
        Less => Some(Drift::CallLost),
        Greater => Some(Drift::CallAdded),
        Equal if streamed == whole => None,
        Equal if streamed.iter().zip(whole).any(|(s, w)| s.0 != w.0) => Some(Drift::NameDiffers),
        Equal => Some(Drift::ArgumentsDiffer),
    }
}

/// The chunk sizes difftest records, in its order.
const CHUNK_BYTES: [usize; 7] = [1, 2, 3, 5, 8, 16, 64];

/// Per format: replies, then per chunk size (1, 2, 3, 5, 8, 16, 64 bytes) how many replies
/// tool-parser's streamed calls differ on from its one-shot ones, cut anywhere and with each
/// special token whole.
#[rustfmt::skip]
const PEER_STREAM_DRIFT: &[(&str, usize, [usize; 7], [usize; 7])] = &[
    ("hermes", 56, [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]),
    ("qwen3_coder", 56, [5, 5, 5, 5, 5, 5, 5], [5, 5, 5, 5, 5, 5, 5]),
    ("mistral", 56, [12, 1, 1, 1, 1, 1, 1], [12, 1, 1, 1, 1, 1, 1]),
    ("llama", 81, [19, 19, 18, 19, 18, 18, 17], [19, 19, 18, 19, 18, 18, 17]),
    ("pythonic", 77, [5, 5, 5, 5, 5, 5, 6], [5, 5, 5, 5, 5, 5, 6]),
];

/// Per format: how many replies drift in each way at some chunk size (either mode): calls
/// lost, calls added, a name differs, arguments differ.
#[rustfmt::skip]
const PEER_STREAM_DRIFT_KINDS: &[(&str, [usize; 4])] = &[
    ("hermes", [0, 0, 0, 0]),
    ("qwen3_coder", [0, 3, 0, 2]),
    ("mistral", [11, 0, 0, 1]),
    ("llama", [4, 3, 0, 14]),
    ("pythonic", [5, 1, 0, 0]),
];

#[test]
fn streamed_in_chunks_our_calls_stay_and_tool_parsers_drift_as_counted() {
    let mut counted = Vec::new();
    let mut kinds = Vec::new();
    for (format, stem) in STEMS {
        let records = recorded(stem);
        let cases = corpus(stem);
        assert_eq!(records.len(), cases.len(), "{stem}: re-record the fixtures");
        let (mut anywhere, mut whole_tokens) = ([0; 7], [0; 7]);
        let mut by_kind = [0; 4];
        for (case, record) in cases.iter().zip(&records) {
            assert_eq!(record["name"].as_str(), Some(case.name.as_str()));
            let one_shot = theirs(record);
            let ours = calls(&parse_chunks(*format, &case.text, &[], case.reason));
            let streamed = record["streamed"]
                .as_array()
                .unwrap_or_else(|| panic!("{stem}: no streamed records; re-record"));
            assert_eq!(
                streamed.len(),
                2 * CHUNK_BYTES.len(),
                "{stem}/{}",
                case.name
            );
            let mut seen = [false; 4];
            for entry in streamed {
                let size = entry["chunk_bytes"].as_u64().unwrap() as usize;
                let tokens_whole = entry["tokens_whole"].as_bool().unwrap();
                let slot = CHUNK_BYTES.iter().position(|&s| s == size).unwrap();
                if let Some(kind) = drift(&one_shot, &theirs(entry)) {
                    let counts = if tokens_whole {
                        &mut whole_tokens
                    } else {
                        &mut anywhere
                    };
                    counts[slot] += 1;
                    seen[kind as usize] = true;
                }
                let cuts = cuts(stem, &case.text, size, tokens_whole);
                let chunked = calls(&parse_chunks(*format, &case.text, &cuts, case.reason));
                assert_eq!(
                    chunked, ours,
                    "{stem}/{} in {size}-byte chunks (special tokens whole: {tokens_whole})",
                    case.name
                );
            }
            for (count, seen) in by_kind.iter_mut().zip(seen) {
                *count += usize::from(seen);
            }
        }
        counted.push((*stem, records.len(), anywhere, whole_tokens));
        kinds.push((*stem, by_kind));
    }
    assert_eq!(counted, PEER_STREAM_DRIFT);
    assert_eq!(kinds, PEER_STREAM_DRIFT_KINDS);
}
