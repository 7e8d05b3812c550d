//! Shared fixtures and helpers for the `<use_tool>` parser tests.
#![allow(dead_code)]

use tool_core::parse::{EndReason, Event, FormatOptions, UseToolParser};

/// Replies every property test runs over: (name, input, end reason).
pub const FIXTURES: &[(&str, &str, EndReason)] = &[
    ("prose", "Hello world, nothing to call here.\nSecond line.", EndReason::Stop),
    ("seed_example", "I will to tool `write` to create a.txt file.\n\n<use_tool>\n  <tool_name>write</tool_name>\n  <arguments>\n    {\"file_path\": \"/path/to/a.txt\", \"content\": \"hello world\"}\n  </arguments>\n</use_tool>", EndReason::Stop),
    ("text_after", "<use_tool><tool_name>a</tool_name><arguments>{}</arguments></use_tool>\nDone.", EndReason::Stop),
    ("two_calls", "First.<use_tool><tool_name>a</tool_name><arguments>{\"n\":1}</arguments></use_tool> then <use_tool><tool_name>b</tool_name><arguments>{\"n\":2}</arguments></use_tool>", EndReason::Stop),
    ("lt_in_prose", "if a < b and <div>x</div> or <use_tool> is mentioned, <use_toolbox> too; << <", EndReason::Stop),
    ("closing_tags_in_strings", "<use_tool><tool_name>echo</tool_name><arguments>{\"s\": \"</arguments></use_tool><use_tool> \\\" </tool_name>\", \"t\": [\"<\", \"}\"]}</arguments></use_tool>", EndReason::Stop),
    ("pretty_crlf", "<use_tool>\r\n<tool_name>w</tool_name>\r\n<arguments>\r\n{\r\n  \"a\": 1,\r\n  \"b\": [1, 2]\r\n}\r\n</arguments>\r\n</use_tool>", EndReason::Stop),
    ("empty_arguments", "<use_tool><tool_name>now</tool_name><arguments>  </arguments></use_tool>", EndReason::Stop),
    ("missing_arguments", "<use_tool><tool_name>now</tool_name></use_tool>", EndReason::Stop),
    ("control_chars", "<use_tool><tool_name>w</tool_name><arguments>{\"s\": \"line1\nline2\ttab\"}</arguments></use_tool>", EndReason::Stop),
    ("fenced_arguments", "<use_tool><tool_name>w</tool_name><arguments>\n```json\n{\"a\": 1}\n```\n</arguments></use_tool>", EndReason::Stop),
    ("trailing_junk", "<use_tool><tool_name>w</tool_name><arguments>{\"a\": 1} thanks!</arguments></use_tool>", EndReason::Stop),
    ("double_encoded", "<use_tool><tool_name>w</tool_name><arguments>\"{\\\"a\\\": 1}\"</arguments></use_tool>", EndReason::Stop),
    ("invalid_json", "<use_tool><tool_name>w</tool_name><arguments>{\"a\": 1,,}</arguments></use_tool>", EndReason::Stop),
    ("not_object", "<use_tool><tool_name>w</tool_name><arguments>[1, 2]</arguments></use_tool>", EndReason::Stop),
    ("missing_name", "<use_tool><arguments>{}</arguments></use_tool>", EndReason::Stop),
    ("aliases", "<use_tool><name>w</name><argument>{\"a\": 1}</argument></use_tool>", EndReason::Stop),
    ("reversed", "<use_tool>\n<arguments>{\"a\": 1}</arguments>\n<tool_name>w</tool_name>\n</use_tool>", EndReason::Stop),
    ("code_fence", "Example:\n```xml\n<use_tool><tool_name>a</tool_name><arguments>{}</arguments></use_tool>\n```\nThat is how.", EndReason::Stop),
    ("truncated_tag", "Let me check <use_to", EndReason::Stop),
    ("truncated_after_open", "Let me check <use_tool>\n", EndReason::Length),
    ("length_in_arguments", "Working.<use_tool><tool_name>a</tool_name><arguments>{\"x\": \"abc", EndReason::Length),
    ("stop_in_arguments", "<use_tool><tool_name>a</tool_name><arguments>{\"x\": \"abc", EndReason::Stop),
    ("stop_sequence_ate_close", "<use_tool><tool_name>a</tool_name><arguments>{\"x\": 1}</arguments>\n", EndReason::Stop),
    ("length_after_complete_json", "<use_tool><tool_name>a</tool_name><arguments>{\"x\": 1}</arguments>", EndReason::Length),
    ("missing_arguments_close", "<use_tool><tool_name>a</tool_name><arguments>{\"x\": 1}\n</use_tool>", EndReason::Stop),
    ("stray_text_in_call", "<use_tool>\n<tool_name>a</tool_name> please <arguments>{}</arguments></use_tool>", EndReason::Stop),
    ("unicode", "Café ☃ 😀 — <use_tool><tool_name>say</tool_name><arguments>{\"s\": \"héllo 😀 </arguments>\"}</arguments></use_tool> ✓", EndReason::Stop),
    ("repeated_open_tag", "Calling.\n<use_tool>\n<use_tool>\n<tool_name>a</tool_name><arguments>{}</arguments></use_tool>", EndReason::Stop),
    ("unclosed_name", "<use_tool><tool_name>a</use_tool> after", EndReason::Stop),
    ("duplicate_arguments", "<use_tool><tool_name>a</tool_name><arguments>{}</arguments><arguments>{}</arguments></use_tool>", EndReason::Stop),
    ("one_line_fence", "<use_tool><tool_name>get_weather</tool_name><arguments>```{\"city\": \"Paris\"}```</arguments>\n</use_tool>", EndReason::Stop),
    ("one_line_fence_then_prose_and_call", "<use_tool><tool_name>get_weather</tool_name><arguments>```json {\"city\": \"Paris\"}```</arguments></use_tool> Then <use_tool><tool_name>a</tool_name><arguments>{}</arguments></use_tool> done.", EndReason::Stop),
    ("fence_around_no_value", "<use_tool><tool_name>w</tool_name><arguments>```city Paris```</arguments></use_tool> after", EndReason::Stop),
    ("fence_line_cut_by_tag", "<use_tool><tool_name>w</tool_name><arguments>```json</arguments></use_tool> after", EndReason::Stop),
    ("stray_backticks_after_value", "<use_tool><tool_name>w</tool_name><arguments>```json\n{\"a\": 1}``</arguments></use_tool>", EndReason::Stop),
    ("longer_fence", "<use_tool><tool_name>w</tool_name><arguments>````json\n{\"a\": 1}\n````</arguments></use_tool>", EndReason::Stop),
    ("nested_json", "<use_tool><tool_name>n</tool_name><arguments>{\"a\": {\"b\": [{\"c\": \"}]\"}, 2]}, \"d\": \"\\\\\"}</arguments></use_tool>", EndReason::Stop),
];

/// Parses `input` fed in the given chunks (byte lengths, applied on char boundaries by
/// `feed_bytes`), then finishes.
pub fn parse_chunks(
    input: &str,
    cuts: &[usize],
    reason: EndReason,
    options: FormatOptions,
) -> Vec<Event> {
    let mut parser = UseToolParser::with_options(options);
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

/// One-shot parse.
pub fn parse_whole(input: &str, reason: EndReason) -> Vec<Event> {
    parse_chunks(input, &[], reason, FormatOptions::default())
}

/// Merges adjacent text events and adjacent argument deltas of the same call, so parses of
/// different chunkings compare equal.
pub fn merged(events: Vec<Event>) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for e in events {
        match (out.last_mut(), e) {
            (Some(Event::Text(a)), Event::Text(b)) => a.push_str(&b),
            (
                Some(Event::ArgumentsDelta { index: i, delta: a }),
                Event::ArgumentsDelta { index: j, delta: b },
            ) if *i == j => a.push_str(&b),
            (_, e) => out.push(e),
        }
    }
    out
}

/// A compact, order-preserving description of the parse for table tests.
pub fn summary(events: Vec<Event>) -> Vec<String> {
    merged(events)
        .into_iter()
        .filter_map(|e| match e {
            Event::Text(t) => Some(format!("T:{t}")),
            Event::CallComplete { call, .. } => Some(format!("C:{}:{}", call.name, call.arguments)),
            Event::CallError { name, response, .. } => Some(format!(
                "E:{}:{}",
                response.error_code().map(|c| c.as_str()).unwrap_or("?"),
                name.unwrap_or_default()
            )),
            Event::CallIncomplete { name, .. } => Some(format!("I:{}", name.unwrap_or_default())),
            Event::Diagnostic(d) => Some(format!("D:{:?}", d.kind)),
            Event::CallStarted { .. }
            | Event::Name { .. }
            | Event::ArgumentsDelta { .. }
            | Event::Reasoning(_)
            | Event::Markup(_) => None,
        })
        .collect()
}

/// Rebuilds the input from text events and call spans: the lossless property.
pub fn rebuild(input: &str, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        if let Some(t) = e.as_text() {
            out.push_str(t);
        } else if matches!(e, Event::ArgumentsDelta { .. }) {
            // Inside its call's span.
        } else if let Some(span) = e.span() {
            out.push_str(&input[span]);
        }
    }
    out
}

/// Every started call ends exactly once (complete, error or incomplete), calls are numbered
/// 0, 1, 2 … in order, and names, deltas and call diagnostics refer only to the open call.
pub fn check_call_lifecycle(events: &[Event]) -> Result<(), String> {
    let mut open: Option<usize> = None;
    let mut next = 0;
    for e in events {
        let (index, ends) = match e {
            Event::CallStarted { index } => {
                if open.is_some() || *index != next {
                    return Err(format!(
                        "call {index} started while {open:?} was open or out of order"
                    ));
                }
                open = Some(*index);
                next += 1;
                continue;
            }
            Event::Name { index, .. } | Event::ArgumentsDelta { index, .. } => (*index, false),
            Event::Diagnostic(d) => match d.call {
                Some(index) => (index, false),
                None => continue,
            },
            Event::CallComplete { index, .. }
            | Event::CallError { index, .. }
            | Event::CallIncomplete { index, .. } => (*index, true),
            Event::Text(_) | Event::Reasoning(_) | Event::Markup(_) => continue,
        };
        if open != Some(index) {
            return Err(format!(
                "{e:?} refers to call {index}, but the open call is {open:?}"
            ));
        }
        if ends {
            open = None;
        }
    }
    match open {
        Some(index) => Err(format!("call {index} never ended")),
        None => Ok(()),
    }
}

/// A call runs with what the model sent: its `ArgumentsDelta`s add up to the raw `<arguments>`
/// content (`raw_arguments`, or `arguments` and surrounding whitespace when nothing was
/// repaired); the arguments are a
/// JSON object found in that content, around which only whitespace, a ```` ``` ```` fence or
/// reported junk may stand (after the reported control-character escaping or double-encoding
/// repair); and `{}` without any `{}` sent only when the element held no value at all.
pub fn check_arguments_are_what_was_sent(events: &[Event]) -> Result<(), String> {
    use std::collections::BTreeMap;
    use tool_core::parse::DiagnosticKind as K;
    let mut sent: BTreeMap<usize, String> = BTreeMap::new();
    let mut kinds: BTreeMap<usize, Vec<K>> = BTreeMap::new();
    for e in events {
        match e {
            Event::ArgumentsDelta { index, delta } => {
                sent.entry(*index).or_default().push_str(delta);
            }
            Event::Diagnostic(d) => {
                if let Some(index) = d.call {
                    kinds.entry(index).or_default().push(d.kind);
                }
            }
            Event::CallComplete {
                index,
                call,
                raw_arguments,
                ..
            } => {
                let sent = sent.remove(index).unwrap_or_default();
                let kinds = kinds.remove(index).unwrap_or_default();
                let args = call.arguments.as_str();
                let fail = |what: &str| {
                    Err(format!(
                        "call {index}: {what}: sent {sent:?}, runs with {args:?} ({kinds:?})"
                    ))
                };
                if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(args).is_err()
                {
                    return fail("the arguments are not a JSON object");
                }
                if kinds.contains(&K::EmptyArguments) {
                    if args != "{}" || !blank_or_lone_fence(&sent) {
                        return fail("EmptyArguments for content that held something");
                    }
                    continue;
                }
                match raw_arguments {
                    Some(raw) if *raw != sent => {
                        return fail("the deltas do not add up to the raw arguments")
                    }
                    // Unrepaired arguments are the content without its surrounding whitespace.
                    None if sent.trim() != args => {
                        return fail("unrepaired arguments differ from what was sent")
                    }
                    _ => {}
                }
                let source = if kinds.contains(&K::ControlCharactersEscaped) {
                    escape_controls_in_strings(&sent)
                } else {
                    sent.clone()
                };
                let (before, value, after) = if kinds.contains(&K::DoubleEncodedArguments) {
                    let Some(q) = source.find('"') else {
                        return fail("double-encoded without a string");
                    };
                    let mut strings =
                        serde_json::Deserializer::from_str(&source[q..]).into_iter::<String>();
                    let Some(Ok(inner)) = strings.next() else {
                        return fail("double-encoded without a readable string");
                    };
                    if inner.trim() != args {
                        return fail("the decoded string is not the arguments");
                    }
                    let end = q + strings.byte_offset();
                    (&source[..q], args, &source[end..])
                } else {
                    let Some(at) = source.find(args) else {
                        return fail("the arguments are not in what was sent");
                    };
                    (&source[..at], args, &source[at + args.len()..])
                };
                let _ = value;
                if !blank_or_lone_fence(before) {
                    return fail("something other than a fence stands before the value");
                }
                let after = after.trim();
                let closing_fence = after.len() >= 3 && after.bytes().all(|b| b == b'`');
                if !kinds.contains(&K::TrailingJunk) && !after.is_empty() && !closing_fence {
                    return fail("unreported text follows the value");
                }
            }
            Event::CallError { index, .. } | Event::CallIncomplete { index, .. } => {
                sent.remove(index);
                kinds.remove(index);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whitespace, or whitespace around one opening fence (three backticks or more) with its info
/// string (```` ```json ````).
fn blank_or_lone_fence(text: &str) -> bool {
    let t = text.trim();
    let info = t.trim_start_matches('`');
    t.is_empty()
        || (t.len() - info.len() >= 3
            && info.bytes().all(|b| {
                b.is_ascii_alphanumeric()
                    || matches!(b, b'-' | b'_' | b'+' | b'.' | b'#' | b' ' | b'\t' | b'\r')
            }))
}

/// Raw control characters inside JSON strings, escaped: the repair as the README states it
/// (a reference written from the statement, not shared with the parser).
fn escape_controls_in_strings(text: &str) -> String {
    let mut out = String::new();
    let (mut in_str, mut escaped) = (false, false);
    for c in text.chars() {
        if in_str && !escaped && (c as u32) < 0x20 {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c => out.push_str(&format!("\\u{:04x}", c as u32)),
            }
            continue;
        }
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        }
        out.push(c);
    }
    out
}

/// The calls a parse completed: (index, id, name, arguments), in order.
pub fn completed_calls(events: &[Event]) -> Vec<(usize, String, String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CallComplete { index, call, .. } => Some((
                *index,
                call.id.clone(),
                call.name.clone(),
                call.arguments.clone(),
            )),
            _ => None,
        })
        .collect()
}
