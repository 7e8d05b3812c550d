//! Table-driven tests of the streaming `<use_tool>` parser: every fixture's expected events.

use crate::parse_support;

use parse_support::{parse_chunks, parse_whole, summary, FIXTURES};
use std::sync::Arc;
use tool_core::parse::{DiagnosticKind, EndReason, Event, FormatOptions, UseToolParser};

use tool_core::{ToolDefinition, ToolErrorCode};

fn expected(name: &str) -> Vec<&'static str> {
    match name {
        "prose" => vec!["T:Hello world, nothing to call here.\nSecond line."],
        "seed_example" => vec![
            "T:I will to tool `write` to create a.txt file.\n\n",
            r#"C:write:{"file_path": "/path/to/a.txt", "content": "hello world"}"#,
        ],
        "text_after" => vec!["C:a:{}", "T:\nDone."],
        "two_calls" => vec!["T:First.", r#"C:a:{"n":1}"#, "T: then ", r#"C:b:{"n":2}"#],
        "lt_in_prose" => vec![
            "T:if a < b and <div>x</div> or <use_tool> is mentioned, <use_toolbox> too; << <",
        ],
        "closing_tags_in_strings" => vec![
            r#"C:echo:{"s": "</arguments></use_tool><use_tool> \" </tool_name>", "t": ["<", "}"]}"#,
        ],
        "pretty_crlf" => vec!["C:w:{\r\n  \"a\": 1,\r\n  \"b\": [1, 2]\r\n}"],
        "empty_arguments" | "missing_arguments" => vec!["D:EmptyArguments", "C:now:{}"],
        "control_chars" => vec![
            "D:ControlCharactersEscaped",
            r#"C:w:{"s": "line1\nline2\ttab"}"#,
        ],
        "fenced_arguments" => vec!["D:CodeFenceAroundArguments", r#"C:w:{"a": 1}"#],
        "trailing_junk" => vec!["D:TrailingJunk", r#"C:w:{"a": 1}"#],
        "double_encoded" => vec!["D:DoubleEncodedArguments", r#"C:w:{"a": 1}"#],
        "invalid_json" => vec!["E:INVALID_FORMAT:w"],
        "not_object" => vec!["E:INVALID_PARAM:w"],
        "missing_name" => vec!["E:INVALID_FORMAT:"],
        "aliases" => vec![
            "D:AliasTag",
            "D:AliasTag",
            "D:AliasTag",
            r#"C:w:{"a": 1}"#,
        ],
        "reversed" => vec!["D:ChildrenReversed", r#"C:w:{"a": 1}"#],
        "one_line_fence" => vec![
            "D:CodeFenceAroundArguments",
            r#"C:get_weather:{"city": "Paris"}"#,
        ],
        "one_line_fence_then_prose_and_call" => vec![
            "D:CodeFenceAroundArguments",
            r#"C:get_weather:{"city": "Paris"}"#,
            "T: Then ",
            "C:a:{}",
            "T: done.",
        ],
        "fence_around_no_value" => vec!["E:INVALID_FORMAT:w", "T: after"],
        "stray_backticks_after_value" => vec![
            "D:TrailingJunk",
            "D:CodeFenceAroundArguments",
            r#"C:w:{"a": 1}"#,
        ],
        "longer_fence" => vec!["D:CodeFenceAroundArguments", r#"C:w:{"a": 1}"#],
        "fence_line_cut_by_tag" => vec!["D:EmptyArguments", "C:w:{}", "T: after"],
        "code_fence" => vec![
            "T:Example:\n```xml\n",
            "D:CallInCodeFence",
            "T:<use_tool><tool_name>a</tool_name><arguments>{}</arguments></use_tool>\n```\nThat is how.",
        ],
        "truncated_tag" => vec!["T:Let me check ", "D:TruncatedTag", "T:<use_to"],
        "truncated_after_open" => vec!["T:Let me check ", "D:TruncatedTag", "T:<use_tool>\n"],
        "length_in_arguments" => vec!["T:Working.", "I:a"],
        "stop_in_arguments" => vec!["E:INVALID_FORMAT:a"],
        "stop_sequence_ate_close" => vec!["D:MissingUseToolClose", r#"C:a:{"x": 1}"#],
        "length_after_complete_json" => vec!["I:a"],
        "missing_arguments_close" => vec!["D:MissingArgumentsClose", r#"C:a:{"x": 1}"#],
        "stray_text_in_call" => vec!["E:INVALID_FORMAT:a"],
        "unicode" => vec![
            "T:Café ☃ 😀 — ",
            r#"C:say:{"s": "héllo 😀 </arguments>"}"#,
            "T: ✓",
        ],
        "repeated_open_tag" => vec!["T:Calling.\n<use_tool>\n", "C:a:{}"],
        "unclosed_name" => vec!["E:INVALID_FORMAT:a", "T: after"],
        "duplicate_arguments" => vec!["E:INVALID_FORMAT:a"],
        "nested_json" => vec![r#"C:n:{"a": {"b": [{"c": "}]"}, 2]}, "d": "\\"}"#],
        other => panic!("no expectation for fixture {other}"),
    }
}

#[test]
fn every_fixture_produces_its_expected_events() {
    for (name, input, reason) in FIXTURES {
        let got = summary(parse_whole(input, *reason));
        assert_eq!(got, expected(name), "fixture {name}");
    }
}

#[test]
fn every_fixture_gives_the_same_events_when_fed_one_byte_at_a_time() {
    for (name, input, reason) in FIXTURES {
        let cuts: Vec<usize> = (1..input.len()).collect();
        let got = summary(parse_chunks(
            input,
            &cuts,
            *reason,
            FormatOptions::default(),
        ));
        assert_eq!(got, expected(name), "fixture {name}");
    }
}

#[test]
fn call_events_arrive_in_order_started_name_deltas_complete() {
    let input = FIXTURES[1].1;
    let events = parse_chunks(
        input,
        &[60, 80, 100, 120],
        EndReason::Stop,
        FormatOptions::default(),
    );
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            Event::Text(_) => "text",
            Event::CallStarted { .. } => "started",
            Event::Name { .. } => "name",
            Event::ArgumentsDelta { .. } => "delta",
            Event::CallComplete { .. } => "complete",
            _ => "other",
        })
        .collect();
    let first = |k: &str| kinds.iter().position(|x| *x == k).unwrap();
    assert!(first("text") < first("started"));
    assert!(first("started") < first("name"));
    assert!(first("name") < first("delta"));
    assert!(kinds.iter().rposition(|x| *x == "delta").unwrap() < first("complete"));
    let deltas: String = events
        .iter()
        .filter_map(|e| match e {
            Event::ArgumentsDelta { delta, .. } => Some(delta.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        deltas,
        "\n    {\"file_path\": \"/path/to/a.txt\", \"content\": \"hello world\"}\n  "
    );
}

#[test]
fn text_is_shown_before_the_call_completes() {
    let mut parser = UseToolParser::new();
    let mut out = Vec::new();
    parser.feed("Checking the weather.\n<use_tool><tool_name>get_", &mut out);
    assert_eq!(
        out,
        [
            Event::Text("Checking the weather.\n".into()),
            Event::CallStarted { index: 0 }
        ]
    );
}

#[test]
fn only_a_possible_tag_suffix_is_held_back() {
    let mut parser = UseToolParser::new();
    let mut out = Vec::new();
    parser.feed("a <b", &mut out);
    assert_eq!(out, [Event::Text("a <b".into())]);
    out.clear();
    parser.feed("c <use", &mut out);
    assert_eq!(out, [Event::Text("c ".into())]);
}

#[test]
fn invalid_json_error_gives_line_and_column_and_what_to_do() {
    let events = parse_whole(FIXTURES[13].1, EndReason::Stop);
    let Some(Event::CallError { response, .. }) = events.last() else {
        panic!("expected an error: {events:?}")
    };
    let message = response.error_message().unwrap();
    assert!(message.contains("line 1 column"), "{message}");
    assert!(message.contains("Send one JSON object"), "{message}");
    assert_eq!(response.error_code(), Some(ToolErrorCode::InvalidFormat));
}

#[test]
fn unknown_tool_is_not_found_with_a_suggestion_when_names_are_known() {
    let object = || Arc::new(serde_json::json!({"type": "object"}));
    let options = FormatOptions::for_tools(&[
        ToolDefinition::new("get_weather", "Weather.", object()),
        ToolDefinition::new("search", "Search.", object()),
    ]);
    let input = "<use_tool><tool_name>get_wether</tool_name><arguments>{}</arguments></use_tool>";
    let events = parse_chunks(input, &[], EndReason::Stop, options);
    let Some(Event::CallError { response, name, .. }) = events.last() else {
        panic!("expected an error: {events:?}")
    };
    assert_eq!(name.as_deref(), Some("get_wether"));
    assert_eq!(response.error_code(), Some(ToolErrorCode::NotFound));
    let message = response.error_message().unwrap();
    assert!(message.contains("Did you mean 'get_weather'?"), "{message}");
    assert!(message.contains("'search'"), "{message}");
}

#[test]
fn fenced_calls_run_when_configured() {
    let options = FormatOptions::default().with_fenced_calls(true);
    let input = FIXTURES.iter().find(|f| f.0 == "code_fence").unwrap().1;
    let got = summary(parse_chunks(input, &[], EndReason::Stop, options));
    assert!(got.contains(&"C:a:{}".to_string()), "{got:?}");
}

#[test]
fn length_stop_never_yields_a_runnable_call() {
    for (name, input, _) in FIXTURES {
        for cut in 1..input.len() {
            if !input.is_char_boundary(cut) {
                continue;
            }
            let whole = parse_whole(&input[..cut], EndReason::Length);
            let complete_in_prefix = whole
                .iter()
                .filter(|e| matches!(e, Event::CallComplete { .. }))
                .count();
            let closed_before = input[..cut].matches("</use_tool>").count();
            assert!(
                complete_in_prefix <= closed_before,
                "{name} cut at {cut}: a call completed without </use_tool> under Length"
            );
        }
    }
}

#[test]
fn repaired_arguments_keep_the_raw_bytes() {
    let input = FIXTURES.iter().find(|f| f.0 == "trailing_junk").unwrap().1;
    let events = parse_whole(input, EndReason::Stop);
    let raw = events.iter().find_map(|e| match e {
        Event::CallComplete { raw_arguments, .. } => raw_arguments.clone(),
        _ => None,
    });
    assert_eq!(raw.as_deref(), Some("{\"a\": 1} thanks!"));
}

#[test]
fn unicode_split_inside_a_character_is_joined_at_every_offset() {
    let input =
        "é☃😀<use_tool><tool_name>s</tool_name><arguments>{\"s\":\"😀\"}</arguments></use_tool>";
    for cut in 1..input.len() {
        let got = summary(parse_chunks(
            input,
            &[cut],
            EndReason::Stop,
            FormatOptions::default(),
        ));
        assert_eq!(got, ["T:é☃😀", r#"C:s:{"s":"😀"}"#], "cut at {cut}");
    }
}

#[test]
fn invalid_utf8_bytes_become_replacement_characters_with_a_diagnostic() {
    let mut parser = UseToolParser::new();
    let mut out = Vec::new();
    parser.feed_bytes(b"ok \xff and \xe2\x98", &mut out);
    parser.finish(EndReason::Stop, &mut out);
    let text: String = out.iter().filter_map(Event::as_text).collect();
    assert_eq!(text, "ok \u{FFFD} and \u{FFFD}");
    let invalid = out
        .iter()
        .filter(|e| matches!(e, Event::Diagnostic(d) if d.kind == DiagnosticKind::InvalidUtf8))
        .count();
    assert_eq!(invalid, 2);
}

#[test]
fn call_ids_are_the_prefix_and_index() {
    let input = FIXTURES.iter().find(|f| f.0 == "two_calls").unwrap().1;
    let ids: Vec<String> = parse_whole(input, EndReason::Stop)
        .into_iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some(call.id),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["xml_call_0", "xml_call_1"]);
}

#[test]
fn a_one_line_fence_runs_with_exactly_what_the_model_sent_never_with_an_empty_object() {
    // Issue 10: the fence's info string used to run to the newline whatever it held, so the
    // object, `</arguments>` and everything after were swallowed and the call ran with `{}`.
    for tail in ["\n</use_tool>", "</use_tool>"] {
        let input = format!(
            "<use_tool><tool_name>get_weather</tool_name><arguments>```{{\"city\": \"Paris\"}}```</arguments>{tail} Then more."
        );
        let events = parse_whole(&input, EndReason::Stop);
        let (call, raw) = events
            .iter()
            .find_map(|e| match e {
                Event::CallComplete {
                    call,
                    raw_arguments,
                    ..
                } => Some((call, raw_arguments.as_deref())),
                _ => None,
            })
            .expect("the call completes");
        assert_eq!(call.arguments, r#"{"city": "Paris"}"#);
        assert_eq!(raw, Some(r#"```{"city": "Paris"}```"#));
        let kinds: Vec<DiagnosticKind> = events
            .iter()
            .filter_map(|e| match e {
                Event::Diagnostic(d) => Some(d.kind),
                _ => None,
            })
            .collect();
        assert_eq!(kinds, [DiagnosticKind::CodeFenceAroundArguments]);
        assert_eq!(events.last().and_then(Event::as_text), Some(" Then more."));
    }
}

#[test]
fn a_fence_around_no_value_is_an_error_the_model_can_act_on() {
    let events = parse_whole(
        "<use_tool><tool_name>w</tool_name><arguments>```city Paris```</arguments></use_tool>",
        EndReason::Stop,
    );
    let response = events
        .iter()
        .find_map(|e| match e {
            Event::CallError { response, .. } => Some(response),
            _ => None,
        })
        .expect("an error, not a call with {}");
    assert_eq!(response.error_code(), Some(ToolErrorCode::InvalidFormat));
    let message = response.error_message().unwrap_or_default();
    assert!(message.contains("not valid JSON"), "{message}");
    assert!(message.contains("Send one JSON object"), "{message}");
}

#[test]
fn reversed_children_are_read_and_reported() {
    let events = parse_whole(
        "<use_tool><arguments>{\"a\": 1}</arguments><tool_name>w</tool_name></use_tool>",
        EndReason::Stop,
    );
    let diagnostic = events
        .iter()
        .find_map(|e| match e {
            Event::Diagnostic(d) => Some(d),
            _ => None,
        })
        .expect("a diagnostic");
    assert_eq!(diagnostic.kind, DiagnosticKind::ChildrenReversed);
    assert_eq!(diagnostic.call, Some(0));
    assert!(!diagnostic.kind.is_repair());
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::CallComplete { call, .. } if call.name == "w")));
}
