//! Llama 3.x JSON replies from sglang's tests (`test/registered/unit/function_call/
//! test_llama32_detector.py`) that this parser once read otherwise than every peer: a
//! `{"name": ...}` nested in a JSON object of the prose, and a call whose `"arguments"` come
//! before its `"name"`. Each reply is also cut at every byte, with the same reading.

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::ToolDefinition;

fn options() -> FormatOptions {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let tool = ToolDefinition::new("get_weather", "Weather.", std::sync::Arc::new(schema));
    FormatOptions::for_tools(&[tool])
}

/// The calls and the text of `reply`, whole; asserted the same when it is cut at any byte.
fn read(reply: &str) -> (Vec<(String, Value)>, String) {
    let parse = |cut: Option<usize>| {
        let mut parser = FormatParser::with_options(ToolFormat::Llama, options());
        let mut out = Vec::new();
        let (a, b) = reply.as_bytes().split_at(cut.unwrap_or(0));
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
                Event::Text(t) => text.push_str(&t),
                _ => {}
            }
        }
        (calls, text)
    };
    let whole = parse(None);
    for cut in 1..reply.len() {
        assert_eq!(parse(Some(cut)), whole, "{reply:?} cut at {cut}");
    }
    whole
}

/// sglang's `test_streaming_preserves_non_tool_json`: an object nested in a JSON object of
/// the prose is data, even when it names an offered tool (tool-parser reads it so too).
#[test]
fn a_call_shaped_object_nested_in_prose_json_is_text() {
    for reply in [
        r#"{"nested": {"name": "get_weather"}, "items": [1, 2]}"#,
        r#"{"user": {"name": "get_weather", "parameters": {"city": "Oslo"}}}"#,
        r#"Result: {"rows": [{"name": "get_weather", "arguments": {}}], "n": 1} done"#,
    ] {
        assert_eq!(read(reply), (vec![], reply.to_string()), "{reply}");
    }
    // A call after such an object is still read.
    let reply = r#"{"a": {"name": "x"}} {"name": "get_weather", "parameters": {"city": "Oslo"}}"#;
    let (calls, text) = read(reply);
    assert_eq!(calls, vec![("get_weather".into(), json!({"city": "Oslo"}))]);
    assert_eq!(text, r#"{"a": {"name": "x"}} "#);
}

/// sglang's `test_streaming_tool_arguments_before_name`: the arguments may come first (vLLM
/// and tool-parser read these too); without a name the object stays text.
#[test]
fn a_call_with_its_arguments_before_its_name_is_read() {
    for reply in [
        r#"{"arguments": {"city": "Tokyo"}, "name": "get_weather"}"#,
        r#"<|python_tag|>{"parameters": {"city": "Tokyo"}, "name": "get_weather"}"#,
    ] {
        let (calls, _) = read(reply);
        assert_eq!(
            calls,
            vec![("get_weather".into(), json!({"city": "Tokyo"}))],
            "{reply}"
        );
    }
    let reply = r#"{"parameters": {"city": "Tokyo"}} is what I would send"#;
    assert_eq!(read(reply), (vec![], reply.to_string()));
}
