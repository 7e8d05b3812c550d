//! Every event's byte range: in every format (each corpus, and the `<use_tool>` fixtures),
//! whole, cut at every byte and at random chunkings, and with the reply starting in reasoning,
//! the spans of the text, reasoning, markup and call-ending events tile the reply (each starts
//! where the previous one ended, from 0 to its length), a text event's span holds exactly its
//! text, and an argument delta's span holds its bytes, inside its call block (which, in the
//! formats that put several calls in one block, is more than one call's span).

use crate::formats_support::{self, corpus, Lcg, FORMATS};
use crate::parse_support::FIXTURES;
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

/// Checks the span properties of the module docs on one parse of `input`.
fn check_spans(input: &str, events: &[Event]) -> Result<(), String> {
    // Where the next text or call event must start, and how far the open block's deltas go.
    let mut at = 0;
    let mut deltas_end = 0;
    for (k, event) in events.iter().enumerate() {
        match event {
            Event::Text(t) | Event::Reasoning(t) | Event::Markup(t) => {
                let span = t.span();
                if span.start != at {
                    return Err(format!(
                        "event {k} {event:?} starts at {span:?}, not at {at}"
                    ));
                }
                if input.get(span.clone()) != Some(t.as_str()) {
                    return Err(format!(
                        "event {k} {event:?}: the reply holds {:?} at {span:?}",
                        input.get(span.clone())
                    ));
                }
                at = span.end;
            }
            Event::CallComplete { span, .. }
            | Event::CallError { span, .. }
            | Event::CallIncomplete { span, .. } => {
                if span.start != at || span.end > input.len() {
                    return Err(format!("event {k} {event:?}: span {span:?} after {at}"));
                }
                at = span.end;
            }
            Event::ArgumentsDelta { delta, .. } => {
                let span = delta.span();
                if span.start < at || input.get(span.clone()) != Some(delta.as_str()) {
                    return Err(format!(
                        "event {k} {event:?}: span {span:?} (after {at}) holds {:?}",
                        input.get(span.clone())
                    ));
                }
                deltas_end = deltas_end.max(span.end);
            }
            Event::CallStarted { .. } | Event::Name { .. } | Event::Diagnostic(_) => {
                if event.span().is_some() {
                    return Err(format!("event {k} {event:?} has a span"));
                }
            }
        }
    }
    if at != input.len() {
        return Err(format!(
            "the spans end at {at}, the reply at {}",
            input.len()
        ));
    }
    Ok(())
}

/// Parses `input` fed as bytes cut at `cuts`, then finishes.
fn parse(
    format: ToolFormat,
    options: FormatOptions,
    input: &str,
    cuts: &[usize],
    reason: EndReason,
) -> Vec<Event> {
    let mut parser = FormatParser::with_options(format, options);
    let mut out = Vec::new();
    let bytes = input.as_bytes();
    let mut last = 0;
    for &cut in cuts {
        let cut = cut.clamp(last, bytes.len());
        parser.feed_bytes(&bytes[last..cut], &mut out);
        last = cut;
    }
    parser.feed_bytes(&bytes[last..], &mut out);
    parser.finish(reason, &mut out);
    out
}

/// Every reply of every format, with and without the reply starting in reasoning.
fn replies() -> Vec<(ToolFormat, String, String, EndReason)> {
    let mut all = Vec::new();
    for (format, stem) in FORMATS {
        for case in corpus(stem) {
            all.push((
                *format,
                format!("{stem}/{}", case.name),
                case.text,
                case.reason,
            ));
        }
    }
    for (name, text, reason) in FIXTURES {
        all.push((
            ToolFormat::UseTool,
            format!("use_tool/{name}"),
            text.to_string(),
            *reason,
        ));
    }
    all
}

fn options(format: ToolFormat, start_in_reasoning: bool) -> FormatOptions {
    formats_support::options(format).with_start_in_reasoning(start_in_reasoning)
}

#[test]
fn the_spans_tile_every_reply_of_every_format_whole_and_chunked() {
    let mut rng = Lcg(25);
    let mut checked = 0;
    for (format, name, text, reason) in replies() {
        for start_in_reasoning in [false, true] {
            let options = || options(format, start_in_reasoning);
            let mut chunkings: Vec<Vec<usize>> = vec![Vec::new(), (1..text.len()).collect()];
            chunkings.extend((0..4).map(|_| rng.cuts(text.len())));
            for cuts in &chunkings {
                let events = parse(format, options(), &text, cuts, reason);
                check_spans(&text, &events).unwrap_or_else(|e| {
                    panic!("{name} (start in reasoning: {start_in_reasoning}, cuts {cuts:?}): {e}\n{events:?}")
                });
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// A reply cut off at any byte (the length limit) still tiles: the open call's span runs to the
/// end of what arrived.
#[test]
fn the_spans_tile_a_reply_cut_off_at_every_byte() {
    for (format, name, text, _) in replies() {
        for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
            let prefix = &text[..cut];
            let events = parse(
                format,
                options(format, false),
                prefix,
                &[],
                EndReason::Length,
            );
            check_spans(prefix, &events)
                .unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}\n{events:?}"));
        }
    }
}

/// The `<think>` splitter places its own events, and moves the format parser's after it.
#[test]
fn reasoning_markup_and_text_have_their_place_in_the_reply() {
    let reply = "<think>Paris?</think>Sunny.<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>";
    let events = parse(
        ToolFormat::Hermes,
        FormatOptions::default(),
        reply,
        &[],
        EndReason::Stop,
    );
    let spans: Vec<_> = events
        .iter()
        .filter(|e| !matches!(e, Event::ArgumentsDelta { .. }))
        .filter_map(|e| e.span())
        .collect();
    assert_eq!(
        spans,
        [0..7, 7..13, 13..21, 21..27, 27..reply.len()],
        "{events:?}"
    );
    let delta = events
        .iter()
        .find_map(|e| match e {
            Event::ArgumentsDelta { delta, .. } => Some(delta.span()),
            _ => None,
        })
        .unwrap();
    assert_eq!(&reply[delta], "\n{\"name\": \"a\", \"arguments\": {}}\n");
}
