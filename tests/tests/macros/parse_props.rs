//! Properties of the streaming parser: chunking never changes the result, a prefix never
//! retracts what was emitted, and text plus call spans give back the input.

use crate::parse_support;

use parse_support::{
    check_arguments_are_what_was_sent, check_call_lifecycle, completed_calls, merged, parse_chunks,
    parse_whole, rebuild, FIXTURES,
};
use proptest::prelude::*;
use tool_core::parse::{EndReason, Event, FormatOptions, UseToolParser};

/// Pieces that make inputs dense in tags, JSON punctuation and multi-byte characters.
const PIECES: &[&str] = &[
    "<use_tool>",
    "<tool_name>",
    "</tool_name>",
    "<name>",
    "</name>",
    "<arguments>",
    "</arguments>",
    "<argument>",
    "</argument>",
    "</use_tool>",
    "<",
    ">",
    "/",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ":",
    ",",
    "a",
    "w",
    "1",
    " ",
    "\n",
    "\r\n",
    "```",
    "```json\n",
    "é",
    "😀",
    "\u{1}",
    "\t",
    "null",
    "\"{\\\"a\\\":1}\"",
    "```{\"a\": 1}```",
    "```json",
    "`",
];

fn hostile_input() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.concat())
}

fn reason() -> impl Strategy<Value = EndReason> {
    prop::sample::select(vec![EndReason::Stop, EndReason::Length, EndReason::Other])
}

/// Events emitted for a prefix must be the start of the full parse: equal, except that the
/// last one may be a text or delta the full parse extends.
fn assert_no_retraction(prefix: &[Event], full: &[Event], context: &str) {
    assert!(
        prefix.len() <= full.len(),
        "{context}: more events for a prefix than for the whole"
    );
    for (i, (p, f)) in prefix.iter().zip(full).enumerate() {
        if p == f {
            continue;
        }
        let extends = i + 1 == prefix.len()
            && match (p, f) {
                (Event::Text(a), Event::Text(b)) => b.starts_with(a.as_str()),
                (
                    Event::ArgumentsDelta { index: i, delta: a },
                    Event::ArgumentsDelta { index: j, delta: b },
                ) => i == j && b.starts_with(a.as_str()),
                _ => false,
            };
        assert!(extends, "{context}: event {i} retracted: {p:?} then {f:?}");
    }
}

fn check_prefixes(input: &str, reason: EndReason) {
    let full = merged(parse_whole(input, reason));
    for cut in (0..=input.len()).filter(|c| input.is_char_boundary(*c)) {
        let mut parser = UseToolParser::new();
        let mut out = Vec::new();
        parser.feed(&input[..cut], &mut out);
        assert_no_retraction(&merged(out), &full, &format!("{input:?} cut at {cut}"));
    }
}

#[test]
fn every_two_way_split_of_every_fixture_matches_the_one_shot_parse() {
    for (name, input, reason) in FIXTURES {
        let whole = merged(parse_whole(input, *reason));
        for cut in 0..=input.len() {
            let split = merged(parse_chunks(
                input,
                &[cut],
                *reason,
                FormatOptions::default(),
            ));
            assert_eq!(split, whole, "fixture {name} split at {cut}");
        }
    }
}

#[test]
fn no_fixture_prefix_retracts_an_event() {
    for (_, input, reason) in FIXTURES {
        check_prefixes(input, *reason);
    }
}

#[test]
fn every_fixture_runs_calls_with_what_was_sent_and_ends_each_call_once() {
    for (name, input, reason) in FIXTURES {
        let events = parse_whole(input, *reason);
        assert_eq!(check_call_lifecycle(&events), Ok(()), "fixture {name}");
        assert_eq!(
            check_arguments_are_what_was_sent(&events),
            Ok(()),
            "fixture {name}"
        );
    }
}

/// What a stream cut short completes is a prefix of what the whole stream completes.
fn check_cut_short(input: &str, reason: EndReason) {
    let whole = completed_calls(&parse_whole(input, reason));
    for cut in (0..=input.len()).filter(|c| input.is_char_boundary(*c)) {
        for cut_reason in [EndReason::Length, EndReason::Other] {
            let short = completed_calls(&parse_whole(&input[..cut], cut_reason));
            assert!(
                whole.starts_with(&short),
                "{input:?} cut at {cut}: {short:?} is not a prefix of {whole:?}"
            );
        }
    }
}

#[test]
fn every_fixture_cut_short_completes_a_prefix_of_its_calls() {
    for (_, input, reason) in FIXTURES {
        check_cut_short(input, *reason);
    }
}

#[test]
fn every_fixture_is_text_lossless() {
    for (name, input, reason) in FIXTURES {
        let events = parse_whole(input, *reason);
        assert_eq!(rebuild(input, &events), *input, "fixture {name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_chunkings_of_fixtures_match_the_one_shot_parse(
        which in 0..FIXTURES.len(),
        cuts in prop::collection::vec(0usize..400, 0..12),
    ) {
        let (_, input, reason) = FIXTURES[which];
        let mut cuts = cuts;
        cuts.sort_unstable();
        let whole = merged(parse_whole(input, reason));
        let chunked = merged(parse_chunks(input, &cuts, reason, FormatOptions::default()));
        prop_assert_eq!(chunked, whole);
    }

    #[test]
    fn hostile_inputs_are_chunking_invariant_and_lossless(
        input in hostile_input(),
        cuts in prop::collection::vec(0usize..300, 0..10),
        reason in reason(),
    ) {
        let mut cuts = cuts;
        cuts.sort_unstable();
        let whole = parse_whole(&input, reason);
        prop_assert_eq!(rebuild(&input, &whole), input.clone());
        let chunked = merged(parse_chunks(&input, &cuts, reason, FormatOptions::default()));
        prop_assert_eq!(chunked, merged(whole));
    }

    #[test]
    fn hostile_inputs_run_calls_with_what_was_sent(
        input in hostile_input(),
        cuts in prop::collection::vec(0usize..300, 0..10),
        reason in reason(),
    ) {
        let mut cuts = cuts;
        cuts.sort_unstable();
        let events = parse_chunks(&input, &cuts, reason, FormatOptions::default());
        prop_assert_eq!(check_call_lifecycle(&events), Ok(()));
        prop_assert_eq!(check_arguments_are_what_was_sent(&events), Ok(()));
        check_cut_short(&input, reason);
    }

    #[test]
    fn hostile_input_prefixes_never_retract(input in hostile_input(), reason in reason()) {
        check_prefixes(&input, reason);
    }

    #[test]
    fn arbitrary_bytes_decode_like_from_utf8_lossy_whatever_the_chunking(
        bytes in prop::collection::vec(prop::sample::select(vec![0x3c, 0x61, 0x7b, 0x22, 0x80, 0x98, 0xbf, 0xc3, 0xe2, 0xf0, 0x9f, 0xff, 0x0a]), 0..200),
        step in 1usize..9,
    ) {
        let parse = |step: usize| {
            let mut parser = UseToolParser::new();
            let mut out = Vec::new();
            for chunk in bytes.chunks(step) {
                parser.feed_bytes(chunk, &mut out);
            }
            parser.finish(EndReason::Stop, &mut out);
            out
        };
        let whole = parse(bytes.len().max(1));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        prop_assert_eq!(rebuild(&text, &whole), text.clone());
        prop_assert_eq!(merged(parse(step)), merged(whole));
    }

    #[test]
    fn length_stop_never_completes_an_unclosed_call(input in hostile_input()) {
        let events = parse_whole(&input, EndReason::Length);
        for e in &events {
            if let Event::CallComplete { span, .. } = e {
                prop_assert!(input[span.clone()].ends_with("</use_tool>"));
            }
        }
    }
}

/// Found by fuzzing: an over-long tool name full of multi-byte characters was cut at a
/// different place depending on how the stream was chunked.
#[test]
fn overlong_tool_name_is_cut_the_same_however_it_is_chunked() {
    let name = "é".repeat(200);
    let input = format!(
        "<use_tool><tool_name>get_{name}_weather</tool_name><arguments>{{}}</arguments></use_tool>"
    );
    let whole = merged(parse_whole(&input, EndReason::Stop));
    for split in 1..input.len() {
        if !input.is_char_boundary(split) {
            continue;
        }
        let mut parser = UseToolParser::new();
        let mut out = Vec::new();
        parser.feed(&input[..split], &mut out);
        parser.feed(&input[split..], &mut out);
        parser.finish(EndReason::Stop, &mut out);
        assert_eq!(merged(out), whole, "split at byte {split}");
    }
}

/// Found by fuzzing (this is the fuzzer's input): after a name was cut short of the limit at
/// a char boundary, a later small piece still fitted and was appended only when the chunks
/// happened to deliver it separately.
#[test]
fn a_cut_tool_name_takes_nothing_more_however_it_is_chunked() {
    let input: &[u8] = b"I'll c(eck.\x0a<use_tool>\x0a  <tool_name>\x08`a`x}l\x0a<use_tool><tool_name>x\x00\x04><arguments\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xdf\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe4\xe4\xe4\xe4\xe4\xe4\xe4\xe4\xe4\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1\xe1>{}</\x9f\x8d\x98\x8a\x92\x9a\xd1\x8bs\xc6\xc3\xd0\x8a\x8c\x9a\xa0\x8b\xff4get_weeool\x0a>``ather</tool_name>se`";
    let parse = |chunk: usize| {
        let mut parser = UseToolParser::new();
        let mut out = Vec::new();
        for piece in input.chunks(chunk) {
            parser.feed_bytes(piece, &mut out);
        }
        parser.finish(EndReason::Stop, &mut out);
        merged(out)
    };
    let whole = parse(input.len());
    for chunk in 1..16 {
        assert_eq!(parse(chunk), whole, "{chunk}-byte chunks");
    }
}

/// Found by fuzzing: an empty chunk inside `<arguments>` (which `feed_bytes` produces while it
/// holds back half of a UTF-8 sequence) reported an empty argument delta, so the events depended
/// on the chunking.
#[test]
fn an_empty_chunk_inside_arguments_reports_nothing() {
    let mut parser = UseToolParser::new();
    let mut out = Vec::new();
    parser.feed(
        "<use_tool><tool_name>t</tool_name><arguments>{\"a\": \"x",
        &mut out,
    );
    out.clear();
    parser.feed("", &mut out);
    assert_eq!(out, []);
    // Half of "é" is held back; nothing else in that chunk.
    parser.feed_bytes(&"é".as_bytes()[..1], &mut out);
    assert_eq!(out, []);
    parser.feed_bytes(&"é".as_bytes()[1..], &mut out);
    assert_eq!(
        out,
        [Event::ArgumentsDelta {
            index: 0,
            delta: "é".into()
        }]
    );
}
