//! Pythonic calls whose values are triple-quoted strings (`'''...'''`, `"""..."""`), as
//! `ast.literal_eval` and sglang's pythonic detector read them: the string may hold its own
//! quote, brackets, newlines and escapes, and the list ends at its own `]`, not at one inside
//! the string. Each reply is also cut at every byte, with the same reading.

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatParser, ToolFormat};

/// The calls and the text of `reply`, whole; asserted the same when it is cut at any byte.
fn read(reply: &str) -> (Vec<(String, Value)>, String) {
    let parse = |cut: usize| {
        let mut parser = FormatParser::new(ToolFormat::Pythonic);
        let mut out = Vec::new();
        let (a, b) = reply.as_bytes().split_at(cut);
        parser.feed_bytes(a, &mut out);
        parser.feed_bytes(b, &mut out);
        parser.finish(EndReason::Stop, &mut out);
        let mut calls = Vec::new();
        let mut text = String::new();
        for event in out {
            match event {
                Event::CallComplete { call, .. } => calls.push((
                    call.name.clone(),
                    serde_json::from_str(&call.arguments).unwrap(),
                )),
                Event::CallError { response, .. } => {
                    panic!("{reply:?} cut at {cut}: {:?}", response.error_message())
                }
                Event::Text(t) => text.push_str(&t),
                _ => {}
            }
        }
        (calls, text)
    };
    let whole = parse(0);
    for cut in 1..=reply.len() {
        assert_eq!(parse(cut), whole, "{reply:?} cut at {cut}");
    }
    whole
}

#[test]
fn triple_quoted_strings_hold_quotes_brackets_newlines_and_escapes() {
    let cases = [
        (
            "[get_weather(city='''a single ' and ] inside''')]",
            json!({"city": "a single ' and ] inside"}),
        ),
        (
            "[get_weather(city=\"\"\"two \"\" quotes, ) and [\n a newline\"\"\")]",
            json!({"city": "two \"\" quotes, ) and [\n a newline"}),
        ),
        (
            "[get_weather(city='''an escaped \\''' inside, \\n and \\\\''', days=2)]",
            json!({"city": "an escaped ''' inside, \n and \\", "days": 2}),
        ),
        (
            "[get_weather(city=''''quoted' ]''')]",
            json!({"city": "'quoted' ]"}),
        ),
        (
            "[get_weather(city='', days=1)]",
            json!({"city": "", "days": 1}),
        ),
    ];
    for (reply, args) in cases {
        let full = format!("Checking. {reply} Done.");
        let (calls, text) = read(&full);
        assert_eq!(calls, vec![("get_weather".to_string(), args)], "{full}");
        assert_eq!(text, "Checking.  Done.", "{full}");
    }
}

/// A call list whose other call fails keeps reading its triple-quoted neighbour, and a
/// triple-quoted string the reply leaves open is not taken for a closed list.
#[test]
fn a_triple_quoted_string_does_not_end_where_a_plain_one_would() {
    let mut parser = FormatParser::new(ToolFormat::Pythonic);
    let mut out = Vec::new();
    parser.feed("[get_weather(city='''open ' ])", &mut out);
    parser.finish(EndReason::Stop, &mut out);
    let errors: Vec<_> = out
        .iter()
        .filter_map(|e| match e {
            Event::CallError { response, .. } => response.error_message(),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 1, "{out:?}");
    assert!(errors[0].contains("ended inside"), "{}", errors[0]);
    assert!(!out.iter().any(|e| matches!(e, Event::CallComplete { .. })));
}
