//! Shared fixtures and helpers for the `<use_tool>` parser tests.
#![allow(dead_code)]

use tool_core::parse::{EndReason, Event, ParserOptions, XmlParser};

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
    ("nested_json", "<use_tool><tool_name>n</tool_name><arguments>{\"a\": {\"b\": [{\"c\": \"}]\"}, 2]}, \"d\": \"\\\\\"}</arguments></use_tool>", EndReason::Stop),
];

/// Parses `input` fed in the given chunks (byte lengths, applied on char boundaries by
/// `feed_bytes`), then finishes.
pub fn parse_chunks(
    input: &str,
    cuts: &[usize],
    reason: EndReason,
    options: ParserOptions,
) -> Vec<Event> {
    let mut parser = XmlParser::with_options(options);
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
    parse_chunks(input, &[], reason, ParserOptions::default())
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
            Event::CallStarted { .. } | Event::Name { .. } | Event::ArgumentsDelta { .. } => None,
        })
        .collect()
}

/// Rebuilds the input from text events and call spans: the lossless property.
pub fn rebuild(input: &str, events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        if let Some(t) = e.as_text() {
            out.push_str(t);
        } else if let Some(span) = e.span() {
            out.push_str(&input[span]);
        }
    }
    out
}
