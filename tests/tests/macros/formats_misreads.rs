//! Replies the parsers once misread, each with the peer whose reading is followed (vLLM, smg)
//! named: text after an unclosed Hermes call, harmony messages to gpt-oss's built-in tools,
//! schema type names seen in the wild, null written three ways, and Qwen3's `<think>`.

use std::sync::Arc;

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
use tool_core::{tool, tools, ToolDefinition, ToolErrorCode};

/// Web search.
#[tool]
fn search(query: String) -> String {
    format!("results for {query}")
}

fn parse(format: ToolFormat, options: FormatOptions, reply: &str) -> Vec<Event> {
    // Fed in 3-byte pieces: the readings must not depend on the chunking.
    let mut parser = FormatParser::with_options(format, options);
    let mut out = Vec::new();
    for piece in reply.as_bytes().chunks(3) {
        parser.feed_bytes(piece, &mut out);
    }
    parser.finish(EndReason::Stop, &mut out);
    out
}

fn completed(events: &[Event]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some((
                call.name.clone(),
                serde_json::from_str(&call.arguments).unwrap(),
            )),
            _ => None,
        })
        .collect()
}

/// vLLM's Hermes parser (`hermes_tool_parser.py`) reads an unclosed `<tool_call>` to the end of
/// the reply and finds no valid JSON when text follows the object, so it reports no call; smg
/// (`tool-parser`) does the same. Whitespace alone after the object is a reply a stop sequence
/// ended where `</tool_call>` would be: that stays a call.
#[test]
fn text_after_an_unclosed_hermes_call_is_not_a_call() {
    let object = "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"rust\"}}\n";
    let events = parse(
        ToolFormat::Hermes,
        FormatOptions::default(),
        &format!("{object}Let me know if you need anything else."),
    );
    assert!(completed(&events).is_empty(), "{events:?}");
    let error = events.iter().find_map(|e| match e {
        Event::CallError { response, .. } => response.error_message(),
        _ => None,
    });
    assert!(error.unwrap().contains("</tool_call>"), "{events:?}");

    let events = parse(ToolFormat::Hermes, FormatOptions::default(), object);
    assert_eq!(
        completed(&events),
        [("search".to_string(), json!({"query": "rust"}))]
    );
}

/// gpt-oss addresses its built-in tools as `browser.search`, `browser.open`, `python` (the
/// harmony format's documented built-ins); a registry's own tool named `search` must not run
/// for them, and the model is told the built-in is not available.
#[test]
fn harmony_messages_to_built_in_tools_are_reported_never_run() {
    let registry = tools![search];
    let reply = "<|channel|>analysis to=browser.search code<|message|>{\"query\": \"rust\"}<|call|>\
                 <|start|>assistant<|channel|>analysis to=python code<|message|>print(1)<|call|>\
                 <|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{\"query\": \"rust\"}<|call|>";
    let mut parser = registry.text_format(ToolFormat::Harmony).parser();
    let mut events = Vec::new();
    parser.feed(reply, &mut events);
    parser.finish(EndReason::Stop, &mut events);
    assert_eq!(
        completed(&events),
        [("search".to_string(), json!({"query": "rust"}))]
    );
    let builtins: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::CallError { name, response, .. } => {
                Some((name.clone().unwrap(), response.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(builtins.len(), 2, "{events:?}");
    for ((name, response), expected) in builtins.iter().zip(["browser.search", "python"]) {
        assert_eq!(name, expected);
        assert_eq!(response.error_code(), Some(ToolErrorCode::NotFound));
        let message = response.error_message().unwrap();
        assert!(message.contains("built-in"), "{message}");
        assert!(!message.contains("Did you mean"), "{message}");
    }
}

fn schemas(schema: Value) -> FormatOptions {
    FormatOptions::for_tools(&[ToolDefinition::new("calc", "Calculates.", Arc::new(schema))])
}

/// Schemas in the wild say `float`, `double`, `int` (vLLM's Qwen3-Coder parser,
/// `qwen3coder_tool_parser.py`, reads them as number and integer); the error for a value that
/// is not a number names a number, never "a string".
#[test]
fn schema_type_names_in_the_wild_type_the_values_of_every_untyped_format() {
    let schema = json!({"type": "object", "properties": {
        "x": {"type": "float"}, "y": {"type": "double"}, "n": {"type": "int"}
    }});
    let replies = [
        (ToolFormat::Qwen3Coder, "<tool_call>\n<function=calc>\n<parameter=x>\n1.5\n</parameter>\n<parameter=y>\n2\n</parameter>\n<parameter=n>\n3\n</parameter>\n</function>\n</tool_call>"),
        (ToolFormat::Glm, "<tool_call>calc\n<arg_key>x</arg_key>\n<arg_value>1.5</arg_value>\n<arg_key>y</arg_key>\n<arg_value>2</arg_value>\n<arg_key>n</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"),
        (ToolFormat::MiniMax, "<minimax:tool_call>\n<invoke name=\"calc\">\n<parameter name=\"x\">1.5</parameter>\n<parameter name=\"y\">2</parameter>\n<parameter name=\"n\">3</parameter>\n</invoke>\n</minimax:tool_call>"),
    ];
    for (format, reply) in replies {
        let events = parse(format, schemas(schema.clone()), reply);
        assert_eq!(
            completed(&events),
            [("calc".to_string(), json!({"x": 1.5, "y": 2, "n": 3}))],
            "{format:?}"
        );
        let wrong = reply.replace("1.5", "fast");
        let events = parse(format, schemas(schema.clone()), &wrong);
        let message = events
            .iter()
            .find_map(|e| match e {
                Event::CallError { response, .. } => response.error_message(),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{format:?}: {events:?}"));
        assert!(
            message.contains("expects a number"),
            "{format:?}: {message}"
        );
        assert!(!message.contains("a string"), "{format:?}: {message}");
    }
}

/// vLLM's Qwen3-Coder and MiniMax-M2 parsers read `null` (any case) as null before typing the
/// value, and GLM's deserializes `None` with `ast.literal_eval`; so do these formats for any
/// parameter whose type is not a string (a string parameter keeps the text: "None" may be
/// meant).
#[test]
fn null_written_three_ways_is_null() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}});
    for written in ["null", "NULL", "None"] {
        let replies = [
            (ToolFormat::Qwen3Coder, format!("<tool_call>\n<function=calc>\n<parameter=n>\n{written}\n</parameter>\n<parameter=s>\n{written}\n</parameter>\n</function>\n</tool_call>")),
            (ToolFormat::Glm, format!("<tool_call>calc<arg_key>n</arg_key><arg_value>{written}</arg_value><arg_key>s</arg_key><arg_value>{written}</arg_value></tool_call>")),
            (ToolFormat::MiniMax, format!("<minimax:tool_call><invoke name=\"calc\"><parameter name=\"n\">{written}</parameter><parameter name=\"s\">{written}</parameter></invoke></minimax:tool_call>")),
        ];
        for (format, reply) in replies {
            let events = parse(format, schemas(schema.clone()), &reply);
            assert_eq!(
                completed(&events),
                [("calc".to_string(), json!({"n": null, "s": written}))],
                "{format:?} {written}"
            );
        }
    }
}

/// Qwen3 (Hermes format) thinks first, as in the Qwen3 chat template: the `<think>` section is
/// reasoning, the call after it still a call.
#[test]
fn qwen3_thinking_comes_apart_from_the_hermes_call() {
    let reply = "<think>\nThe user wants a search.\n</think>\n\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"rust\"}}\n</tool_call>";
    let events = parse(ToolFormat::Hermes, FormatOptions::default(), reply);
    let reasoning: String = events
        .iter()
        .filter_map(|e| match e {
            Event::Reasoning(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, "\nThe user wants a search.\n");
    let text: String = events.iter().filter_map(Event::as_text).collect();
    assert_eq!(text, "\n\n");
    assert_eq!(
        completed(&events),
        [("search".to_string(), json!({"query": "rust"}))]
    );
}
