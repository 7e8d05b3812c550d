//! Every format's corpus (>= 50 replies each, adversarial ones included) parsed whole and at
//! random chunkings with the same result, cut at every byte without a partial call, rebuilt
//! losslessly, and compared with reviewed goldens (`UPDATE_GOLDEN=1` rewrites them).

use crate::formats_support;
use crate::parse_support;

use formats_support::{corpus, fixture_path, merged, parse_chunks, rebuild, summary, Lcg, FORMATS};
use parse_support::check_call_lifecycle;
use tool_core::parse::{EndReason, Event};

#[test]
fn every_corpus_has_at_least_fifty_replies() {
    for (_, stem) in FORMATS {
        assert!(corpus(stem).len() >= 50, "{stem}");
    }
}

#[test]
fn chunking_never_changes_the_result_and_text_plus_spans_rebuild_the_input() {
    let mut rng = Lcg(15);
    for (format, stem) in FORMATS {
        for case in corpus(stem) {
            let whole = parse_chunks(*format, &case.text, &[], case.reason);
            assert_eq!(
                rebuild(&case.text, &whole),
                case.text,
                "{stem}/{}",
                case.name
            );
            check_call_lifecycle(&whole).unwrap_or_else(|e| panic!("{stem}/{}: {e}", case.name));
            let expected = merged(whole);
            for round in 0..12 {
                let cuts = if round == 0 {
                    (1..case.text.len()).collect()
                } else {
                    rng.cuts(case.text.len())
                };
                let events = parse_chunks(*format, &case.text, &cuts, case.reason);
                assert_eq!(
                    rebuild(&case.text, &events),
                    case.text,
                    "{stem}/{}",
                    case.name
                );
                assert_eq!(
                    merged(events),
                    expected,
                    "{stem}/{} cuts {cuts:?}",
                    case.name
                );
            }
        }
    }
}

/// A reply cut at any byte (the length limit) never runs a call the whole reply would not have
/// run with the same arguments, still rebuilds, and every started call ends.
#[test]
fn truncation_at_every_byte_never_yields_a_partial_call() {
    for (format, stem) in FORMATS {
        for case in corpus(stem) {
            let whole = parse_chunks(*format, &case.text, &[], case.reason);
            let full: Vec<_> = whole
                .iter()
                .filter_map(|e| match e {
                    Event::CallComplete { index, call, .. } => Some((*index, call.clone())),
                    _ => None,
                })
                .collect();
            for cut in (0..=case.text.len()).filter(|&c| case.text.is_char_boundary(c)) {
                let prefix = &case.text[..cut];
                let events = parse_chunks(*format, prefix, &[], EndReason::Length);
                assert_eq!(
                    rebuild(prefix, &events),
                    prefix,
                    "{stem}/{} at {cut}",
                    case.name
                );
                check_call_lifecycle(&events)
                    .unwrap_or_else(|e| panic!("{stem}/{} at {cut}: {e}", case.name));
                for e in &events {
                    if let Event::CallComplete { index, call, .. } = e {
                        assert!(
                            full.iter().any(|(i, c)| i == index && c == call),
                            "{stem}/{} cut at {cut} ran {call:?}, which the whole reply does not",
                            case.name
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn parses_match_the_reviewed_goldens() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for (format, stem) in FORMATS {
        let mut text = String::new();
        for case in corpus(stem) {
            text.push_str(&format!("== {}\n", case.name));
            for line in summary(parse_chunks(*format, &case.text, &[], case.reason)) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        let path = fixture_path(&format!("{stem}.golden"));
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            golden == text,
            "{stem}: the parse differs from {path:?} (UPDATE_GOLDEN=1 rewrites it)"
        );
    }
}

/// Found by the harmony fuzz target: a header that never ends was given up at a chunking-
/// dependent offset.
#[test]
fn a_header_that_never_ends_is_given_up_at_the_same_offset_whatever_the_chunking() {
    let reply = format!("<|channel|>commentary to=fu{}<|end|>after", "é".repeat(700));
    let whole = merged(parse_chunks(
        tool_core::parse::ToolFormat::Harmony,
        &reply,
        &[],
        EndReason::Stop,
    ));
    assert!(
        matches!(&whole[0], Event::Markup(m) if m.len() <= 1024 && m.len() > 1000),
        "{whole:?}"
    );
    for step in [1, 3, 7, 64] {
        let cuts: Vec<usize> = (step..reply.len()).step_by(step).collect();
        let events = parse_chunks(
            tool_core::parse::ToolFormat::Harmony,
            &reply,
            &cuts,
            EndReason::Stop,
        );
        assert_eq!(rebuild(&reply, &events), reply);
        assert_eq!(merged(events), whole, "step {step}");
    }
}
