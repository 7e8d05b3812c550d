//! The bad-input catalog: everything a hostile or confused model can send, each with the code
//! it must get back and the words the message must contain, and never a panic.
//!
//! Section A covers the dispatcher's arguments, names and ids; section B the XML `<use_tool>`
//! parser; section C the provider readers, whole and streamed.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, ToolFormat};
use tool_core::provider::{
    Anthropic, AnthropicStream, Assembler, AssistantTurn, ChatApi, Gemini, GeminiStream,
    OpenAiChat, OpenAiChatStream, OpenAiResponses, ProviderError,
};
use tool_core::{
    block_on, tool, tools, CallOptions, ToolCall, ToolErrorCode, ToolRegistry, ToolResponse,
};

use ToolErrorCode::{InvalidFormat as F, InvalidParam as P, NotFound as N};

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Searches.
#[tool(read_only)]
fn search(
    /// What to look for.
    query: String,
    /// Page size.
    limit: Option<u32>,
    /// Tags.
    tags: Vec<String>,
) -> String {
    format!("found {} {:?} {}", query.len(), limit, tags.len())
}

/// Takes nothing.
#[tool]
fn ping() -> &'static str {
    "pong"
}

/// Sets a flag.
#[tool]
fn set_flag(enabled: bool) -> String {
    enabled.to_string()
}

/// Takes a small number.
#[tool]
fn small(n: u8) -> u8 {
    n
}

/// Takes a character.
#[tool]
fn letter(c: char) -> String {
    c.to_string()
}

/// Takes a ratio.
#[tool]
fn ratio(x: f64) -> f64 {
    x
}

/// Takes a matrix.
#[tool]
fn matrix(items: Vec<Vec<i32>>) -> usize {
    items.len()
}

/// Takes weights.
#[tool]
fn weigh(weights: BTreeMap<String, f64>) -> usize {
    weights.len()
}

fn registry() -> ToolRegistry {
    tools![add, search, ping, set_flag, small, letter, ratio, matrix, weigh]
}

/// What a case must produce.
enum Expect {
    /// A success whose model text contains this.
    Ok(&'static str),
    /// An error with this code whose message contains every one of these.
    Err(ToolErrorCode, &'static [&'static str]),
}

struct Case {
    label: String,
    tool: Vec<u8>,
    args: Vec<u8>,
    expect: Expect,
}

fn case(label: &str, tool: &str, args: impl Into<Vec<u8>>, expect: Expect) -> Case {
    Case {
        label: label.to_string(),
        tool: tool.as_bytes().to_vec(),
        args: args.into(),
        expect,
    }
}

fn err(code: ToolErrorCode, words: &'static [&'static str]) -> Expect {
    Expect::Err(code, words)
}

// ===========================================================================================
// Section A: dispatcher arguments, tool names and ids (issue 5).
// ===========================================================================================

#[rustfmt::skip] // one line per case: the catalog reads as a table
fn dispatcher_cases() -> Vec<Case> {
    let json = &["not valid JSON"][..];
    let mib = 1024 * 1024;
    vec![
        // --- Malformed JSON -> INVALID_FORMAT, with the position and a fix.
        case("unclosed object", "add", "{", err(F, &["not valid JSON", "line 1"])),
        case("dangling comma", "add", r#"{"a":1,"#, err(F, json)),
        case("missing comma", "add", r#"{"a":1 "b":2}"#, err(F, &["expected `,`"])),
        case("single quotes", "add", "{'a':1,'b':2}", err(F, json)),
        case("bare keys", "add", "{a:1,b:2}", err(F, &["key must be a string"])),
        case("trailing comma", "add", r#"{"a":1,"b":2,}"#, err(F, json)),
        case("trailing brace", "add", r#"{"a":1,"b":2}}"#, err(F, &["trailing characters"])),
        case("two objects", "add", r#"{"a":1,"b":2} {"a":1}"#, err(F, &["trailing characters"])),
        case("leading zero", "add", r#"{"a":01,"b":2}"#, err(F, json)),
        case("NaN literal", "add", r#"{"a":NaN,"b":1}"#, err(F, json)),
        case("Infinity literal", "ratio", r#"{"x":Infinity}"#, err(F, json)),
        case("truncated object", "add", r#"{"a":1,"b":2"#, err(F, &["EOF"])),
        case("truncated after colon", "add", r#"{"a":"#, err(F, &["EOF"])),
        case("unterminated string", "search", r#"{"query":"abc}"#, err(F, &["EOF"])),
        case("bad escape", "search", r#"{"query":"a\q","tags":[]}"#, err(F, &["escape"])),
        case("short unicode escape", "search", r#"{"query":"\u12","tags":[]}"#, err(F, &["escape"])),
        case("lone surrogate escape", "search", r#"{"query":"\ud800","tags":[]}"#, err(F, &["escape"])),
        case("raw control character", "search", "{\"query\":\"a\u{1}b\",\"tags\":[]}", err(F, &["control character"])),
        case("undefined", "add", "undefined", err(F, json)),
        case("plain prose", "add", "add 2 and 3 please", err(F, json)),
        case("byte order mark", "add", "\u{feff}{\"a\":1,\"b\":2}", err(F, json)),
        case("block comment", "add", r#"/* c */ {"a":1,"b":2}"#, err(F, json)),
        case("line comment", "add", "{\"a\":1,\"b\":2} // c", err(F, &["trailing characters"])),
        case("NUL byte", "add", "\0", err(F, json)),
        case("broken double-encoded", "add", r#""{\"a\":1,""#, err(F, json)),
        case("markdown fence", "add", "```json\n{\"a\":1,\"b\":2}\n```", err(F, json)),
        case("python literals", "set_flag", "{\"enabled\": True}", err(F, json)),
        // --- Wrong types -> INVALID_PARAM, naming the path and the expected type.
        case("string for integer", "add", r#"{"a":"1","b":2}"#, err(P, &["at 'a'", "expected an integer"])),
        case("float for integer", "add", r#"{"a":1.5,"b":2}"#, err(P, &["at 'a'", "floating point"])),
        case("bool for integer", "add", r#"{"a":true,"b":2}"#, err(P, &["at 'a'", "boolean"])),
        case("null for integer", "add", r#"{"a":null,"b":2}"#, err(P, &["at 'a'"])),
        case("array for integer", "add", r#"{"a":[1],"b":2}"#, err(P, &["at 'a'", "sequence"])),
        case("object for integer", "add", r#"{"a":{"v":1},"b":2}"#, err(P, &["at 'a'", "map"])),
        case("integer overflow", "add", r#"{"a":99999999999999999999,"b":2}"#, err(P, &["at 'a'"])),
        case("exponent for integer", "add", r#"{"a":1e3,"b":2}"#, err(P, &["at 'a'"])),
        case("u8 too big", "small", r#"{"n":256}"#, err(P, &["at 'n'", "u8"])),
        case("u8 negative", "small", r#"{"n":-1}"#, err(P, &["at 'n'", "non-negative integer"])),
        case("string for bool", "set_flag", r#"{"enabled":"true"}"#, err(P, &["at 'enabled'", "a boolean"])),
        case("number for bool", "set_flag", r#"{"enabled":1}"#, err(P, &["at 'enabled'"])),
        case("two chars for char", "letter", r#"{"c":"ab"}"#, err(P, &["at 'c'", "one-character string"])),
        case("empty string for char", "letter", r#"{"c":""}"#, err(P, &["at 'c'"])),
        case("number for string", "search", r#"{"query":5,"tags":[]}"#, err(P, &["at 'query'", "a string"])),
        case("string for array", "search", r#"{"query":"x","tags":"a"}"#, err(P, &["at 'tags'", "an array"])),
        case("wrong element type", "search", r#"{"query":"x","tags":[1]}"#, err(P, &["'tags[0]'"])),
        case("null element", "search", r#"{"query":"x","tags":["a",null]}"#, err(P, &["'tags[1]'"])),
        case("negative u32", "search", r#"{"query":"x","tags":[],"limit":-5}"#, err(P, &["at 'limit'"])),
        case("quoted number", "search", r#"{"query":"x","tags":[],"limit":"10"}"#, err(P, &["at 'limit'"])),
        case("u32 overflow", "search", r#"{"query":"x","tags":[],"limit":4294967296}"#, err(P, &["at 'limit'"])),
        case("string NaN for float", "ratio", r#"{"x":"NaN"}"#, err(P, &["at 'x'", "a number"])),
        case("nested element type", "matrix", r#"{"items":[[1],[2,"x"]]}"#, err(P, &["'items[1][1]'"])),
        case("flat for nested", "matrix", r#"{"items":[1]}"#, err(P, &["'items[0]'"])),
        case("map value type", "weigh", r#"{"weights":{"a":"heavy"}}"#, err(P, &["'weights.a'"])),
        case("array for map", "weigh", r#"{"weights":[1]}"#, err(P, &["at 'weights'"])),
        // --- Missing, unknown and duplicate parameters -> INVALID_PARAM.
        case("no parameters", "add", "{}", err(P, &["missing required parameter 'a'"])),
        case("one missing", "add", r#"{"a":1}"#, err(P, &["missing required parameter 'b'"])),
        case("extra parameter", "add", r#"{"a":1,"b":2,"c":3}"#, err(P, &["unknown parameter 'c'", "Valid parameters: 'a', 'b'"])),
        case("wrong case", "search", r#"{"Query":"x","tags":[]}"#, err(P, &["unknown parameter 'Query'", "Did you mean 'query'?"])),
        case("typo", "search", r#"{"qurey":"x","tags":[]}"#, err(P, &["Did you mean 'query'?"])),
        case("duplicate key", "add", r#"{"a":1,"a":2,"b":3}"#, err(P, &["'a' is given twice"])),
        case("empty key", "add", r#"{"":1,"a":1,"b":2}"#, err(P, &["unknown parameter"])),
        case("arguments to a no-arg tool", "ping", r#"{"x":1}"#, err(P, &["takes no parameters"])),
        case("10k-char unknown key", "add", format!(r#"{{"{}":1}}"#, "k".repeat(10_000)), err(P, &["unknown parameter"])),
        // --- Not an object -> INVALID_PARAM.
        case("array", "add", "[1,2]", err(P, &["must be a JSON object", "array"])),
        case("empty array", "ping", "  [ ]", err(P, &["must be a JSON object"])),
        case("number", "add", "42", err(P, &["must be a JSON object"])),
        case("string", "add", r#""just a string""#, err(P, &["must be a JSON object"])),
        case("boolean", "add", "true", err(P, &["must be a JSON object"])),
        // --- Empty, null and double-encoded arguments.
        case("empty for no-arg tool", "ping", "", Expect::Ok("pong")),
        case("null for no-arg tool", "ping", "null", Expect::Ok("pong")),
        case("empty object for no-arg tool", "ping", "{}", Expect::Ok("pong")),
        case("whitespace for required", "add", "  \n\t ", err(P, &["missing required parameter 'a'"])),
        case("double-encoded object", "add", r#""{\"a\":1,\"b\":2}""#, Expect::Ok("3")),
        case("double-encoded with wrong type", "add", r#""{\"a\":\"x\",\"b\":2}""#, err(P, &["at 'a'"])),
        case("negative zero is a float", "add", r#"{"a":-0,"b":0}"#, err(P, &["at 'a'", "floating point"])),
        case("surrounding whitespace", "add", " \n {\"a\":1,\"b\":2} \n", Expect::Ok("3")),
        case("escaped unicode key", "add", r#"{"\u0061":1,"b":2}"#, Expect::Ok("3")),
        // --- Size and depth -> INVALID_PARAM before deserializing.
        case("over one MiB", "search", format!(r#"{{"query":"{}","tags":[]}}"#, "a".repeat(mib)), err(P, &["the limit is 1048576 bytes"])),
        case("half a MiB string", "search", format!(r#"{{"query":"{}","tags":[]}}"#, "a".repeat(mib / 2)), Expect::Ok("found 524288")),
        case("65 levels deep", "matrix", format!(r#"{{"items":{}{}}}"#, "[".repeat(64), "]".repeat(64)), err(P, &["more than 64 levels deep"])),
        case("100k levels deep", "matrix", format!(r#"{{"items":{}"#, "[".repeat(100_000)), err(P, &["levels deep"])),
        case("deep brackets inside a string", "search", format!(r#"{{"query":"{}","tags":[]}}"#, "[{".repeat(1000)), Expect::Ok("found 2000")),
        case("100k-element array", "search", format!(r#"{{"query":"x","tags":[{}"z"]}}"#, "\"t\",".repeat(100_000)), Expect::Ok("100001")),
        case("10k map keys", "weigh", format!(r#"{{"weights":{{{}"z":0}}}}"#, (0..10_000) .map(|i| format!("\"k{i}\":1,")) .collect::<String>()), Expect::Ok("10001")),
        case("5000-digit number", "add", format!(r#"{{"a":{},"b":1}}"#, "9".repeat(5000)), err(F, &["number out of range"])),
        // --- Invalid UTF-8 through the byte API -> INVALID_FORMAT naming the offset.
        case("0xFF byte", "search", b"{\"query\":\"\xff\",\"tags\":[]}".to_vec(), err(F, &["not valid UTF-8", "offset 10"])),
        case("bad continuation", "search", b"{\"query\":\"\xc3\x28\",\"tags\":[]}".to_vec(), err(F, &["not valid UTF-8"])),
        case("overlong encoding", "search", b"{\"query\":\"\xc0\xaf\",\"tags\":[]}".to_vec(), err(F, &["not valid UTF-8"])),
        case("truncated multibyte", "search", b"{\"query\":\"\xe2\x82".to_vec(), err(F, &["not valid UTF-8"])),
        case("UTF-8 surrogate", "search", b"{\"query\":\"\xed\xa0\x80\",\"tags\":[]}".to_vec(), err(F, &["not valid UTF-8"])),
        case("latin-1 text", "search", b"{\"query\":\"caf\xe9\",\"tags\":[]}".to_vec(), err(F, &["not valid UTF-8"])),
        // --- Tool names -> NOT_FOUND, listing the tools and the closest name.
        case("unknown tool", "multiply", "{}", err(N, &["Unknown tool 'multiply'", "Available tools: 'add'"])),
        case("empty name", "", "{}", err(N, &["(empty name)"])),
        case("leading space", " add", "{}", err(N, &["Did you mean 'add'?"])),
        case("upper case", "ADD", "{}", err(N, &["Did you mean 'add'?"])),
        case("trailing NUL", "add\0", "{}", err(N, &["Unknown tool"])),
        case("10k-char name", &"x".repeat(10_000), "{}", err(N, &["Unknown tool"])),
        case("unicode name", "добавить", "{}", err(N, &["Unknown tool 'добавить'"])),
        case("shell injection", "add; rm -rf /", "{}", err(N, &["Unknown tool"])),
        case("path traversal", "../add", "{}", err(N, &["Unknown tool"])),
        case("name as JSON", r#"{"name":"add"}"#, "{}", err(N, &["Unknown tool"])),
    ]
}

/// Cases whose name is not UTF-8 at all: only the byte API can express them.
fn byte_name_cases() -> Vec<Case> {
    vec![Case {
        label: "name with an invalid byte".into(),
        tool: b"ad\xffd".to_vec(),
        args: b"{}".to_vec(),
        expect: err(N, &["Unknown tool"]),
    }]
}

fn run(registry: &ToolRegistry, case: &Case) -> Result<(), String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let by_bytes =
            block_on(registry.call_bytes("id", &case.tool, &case.args, &CallOptions::NONE));
        // Where the input is text, the ordinary path must agree with the byte path.
        if let (Ok(name), Ok(args)) = (
            std::str::from_utf8(&case.tool),
            std::str::from_utf8(&case.args),
        ) {
            let by_text = registry.call_blocking(&ToolCall::new("id", name, args));
            if by_text.error_code() != by_bytes.error_code() || by_text.text != by_bytes.text {
                return Err(format!(
                    "text and byte paths disagree: {by_text:?} vs {by_bytes:?}"
                ));
            }
        }
        if by_bytes.time_ms().is_none() {
            return Err("no time_ms".into());
        }
        match (&case.expect, by_bytes.error_code()) {
            (Expect::Ok(want), None) if by_bytes.model_text().contains(want) => Ok(()),
            (Expect::Err(code, words), Some(got)) if got == *code => {
                let message = by_bytes.error_message().unwrap_or_default();
                match words.iter().find(|w| !message.contains(*w)) {
                    None => Ok(()),
                    Some(w) => Err(format!("message lacks {w:?}: {message}")),
                }
            }
            _ => Err(format!("unexpected response: {}", by_bytes.model_text())),
        }
    }));
    outcome.unwrap_or_else(|_| Err("PANICKED".into()))
}

#[test]
fn every_catalog_case_gets_its_code_and_never_panics() {
    let registry = registry();
    let cases: Vec<Case> = dispatcher_cases()
        .into_iter()
        .chain(byte_name_cases())
        .collect();
    assert!(cases.len() >= 80, "the catalog has {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            run(&registry, c)
                .err()
                .map(|e| format!("[{}] {e}", c.label))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn missing_ids_are_still_answered() {
    let r = registry().call_blocking(&ToolCall::new("", "add", r#"{"a":1,"b":2}"#));
    assert_eq!(r.model_text(), "3");
}

#[test]
fn duplicate_ids_each_get_their_own_response_in_order() {
    let calls = [
        ToolCall::new("dup", "add", r#"{"a":1,"b":1}"#),
        ToolCall::new("dup", "add", r#"{"a":"x"}"#),
        ToolCall::new("dup", "nope", "{}"),
    ];
    let out = block_on(registry().call_all(&calls));
    assert_eq!(out.len(), 3);
    assert_eq!(out[0].model_text(), "2");
    assert_eq!(out[1].error_code(), Some(P));
    assert_eq!(out[2].error_code(), Some(N));
}

#[test]
fn huge_and_odd_ids_are_accepted() {
    let registry = registry();
    for id in [
        "x".repeat(100_000),
        "line\nbreak".into(),
        "ключ🔑".into(),
        "\0".into(),
    ] {
        let r = registry.call_blocking(&ToolCall::new(id, "ping", ""));
        assert_eq!(r.model_text(), "pong");
    }
}

// ===========================================================================================
// Section B: the XML `<use_tool>` parser. Each reply is fed through the registry's parser;
// the expected outcome is a call error with a code, an incomplete call, or text only.

enum XmlExpect {
    /// A `CallError` whose response has this code and these words.
    Error(ToolErrorCode, &'static [&'static str]),
    /// A `CallIncomplete`: the call never runs.
    Incomplete,
    /// No call of any kind: everything stays text.
    TextOnly,
    /// A runnable call with this name.
    Runs(&'static str),
}

fn xml_cases() -> Vec<(&'static str, String, EndReason, XmlExpect)> {
    use EndReason::{Length, Stop};
    use XmlExpect::*;
    let call = |name: &str, args: &str| {
        format!("<use_tool><tool_name>{name}</tool_name><arguments>{args}</arguments></use_tool>")
    };
    vec![
        ("unknown tool", call("ad", r#"{"a":1}"#), Stop, Error(N, &["Did you mean 'add'?"])),
        ("empty tool name", call("", "{}"), Stop, Error(F, &["tool name"])),
        ("whitespace tool name", call("   ", "{}"), Stop, Error(F, &["tool name"])),
        ("arguments not JSON", call("add", "{a: 1}"), Stop, Error(F, &["line 1"])),
        ("arguments an array", call("add", "[1, 2]"), Stop, Error(P, &["object"])),
        ("arguments a number", call("add", "42"), Stop, Error(P, &["object"])),
        ("arguments a string", call("add", r#""a=1""#), Stop, Error(P, &["object"])),
        ("truncated JSON at stop", "<use_tool><tool_name>add</tool_name><arguments>{\"a\": 1".into(), Stop, Error(F, &[])),
        ("length stop inside arguments", "<use_tool><tool_name>add</tool_name><arguments>{\"a\": 1".into(), Length, Incomplete),
        ("length stop inside the name", "<use_tool><tool_name>ad".into(), Length, Incomplete),
        ("length stop after complete arguments", "<use_tool><tool_name>add</tool_name><arguments>{\"a\":1,\"b\":2}</arguments>".into(), Length, Incomplete),
        ("stray text inside use_tool", "<use_tool><tool_name>add</tool_name>hello<arguments>{}</arguments></use_tool>".into(), Stop, Error(F, &["inside <use_tool>"])),
        ("text before the first child stays text", "<use_tool>hello<tool_name>add</tool_name></use_tool>".into(), Stop, TextOnly),
        ("two tool names", "<use_tool><tool_name>add</tool_name><tool_name>ping</tool_name><arguments>{}</arguments></use_tool>".into(), Stop, Error(F, &["more than one"])),
        ("10 KB tool name", call(&"x".repeat(10_000), "{}"), Stop, Error(F, &["too long"])),
        ("only an opening tag", "<use_tool>".into(), Stop, TextOnly),
        ("mention of the tag in prose", "Use <use_tool> to call tools.".into(), Stop, TextOnly),
        ("call inside a code fence", format!("```xml\n{}\n```", call("add", r#"{"a":1,"b":2}"#)), Stop, TextOnly),
        ("closing tags inside a JSON string", call("search", r#"{"query":"</arguments></use_tool><use_tool>","tags":[]}"#), Stop, Runs("search")),
        ("deeply nested arguments", call("add", &format!("{}{}", "[".repeat(5000), "]".repeat(5000))), Stop, Error(P, &["object"])),
        ("NUL bytes in prose", "a\u{0}b".into(), Stop, TextOnly),
        ("truncated opening tag", "text <use_to".into(), Stop, TextOnly),
    ]
}

fn xml_outcome(registry: &ToolRegistry, input: &str, reason: EndReason) -> Vec<Event> {
    let mut parser = registry.text_format(ToolFormat::UseTool).parser();
    let mut events = Vec::new();
    // Fed in 7-byte chunks: the catalog is about content, but chunking must not matter.
    for chunk in input.as_bytes().chunks(7) {
        parser.feed_bytes(chunk, &mut events);
    }
    parser.finish(reason, &mut events);
    events
}

fn check_xml(events: &[Event], expect: &XmlExpect) -> Result<(), String> {
    let errors: Vec<&ToolResponse> = events
        .iter()
        .filter_map(|e| match e {
            Event::CallError { response, .. } => Some(&**response),
            _ => None,
        })
        .collect();
    let runs: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::CallComplete { call, .. } => Some(call.name.as_str()),
            _ => None,
        })
        .collect();
    let incomplete = events
        .iter()
        .any(|e| matches!(e, Event::CallIncomplete { .. }));
    match expect {
        XmlExpect::Error(code, words) => {
            let [error] = errors.as_slice() else {
                return Err(format!("expected one call error, got {events:?}"));
            };
            let message = error.error_message().unwrap_or_default();
            if error.error_code() != Some(*code) {
                return Err(format!("code {:?}: {message}", error.error_code()));
            }
            match words.iter().find(|w| !message.contains(*w)) {
                Some(w) => Err(format!("message lacks {w:?}: {message}")),
                None if runs.is_empty() => Ok(()),
                None => Err("a call ran as well".into()),
            }
        }
        XmlExpect::Incomplete if incomplete && runs.is_empty() => Ok(()),
        XmlExpect::TextOnly if errors.is_empty() && runs.is_empty() && !incomplete => Ok(()),
        XmlExpect::Runs(name) if runs == [*name] && errors.is_empty() => Ok(()),
        _ => Err(format!("unexpected events: {events:?}")),
    }
}

#[test]
fn every_xml_case_gets_its_outcome_and_never_panics() {
    let registry = registry();
    let cases = xml_cases();
    assert!(cases.len() >= 20);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(label, input, reason, expect)| {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                check_xml(&xml_outcome(&registry, input, *reason), expect)
            }))
            .unwrap_or_else(|_| Err("PANICKED".into()));
            outcome.err().map(|e| format!("[{label}] {e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// Section C: provider readers. Malformed bodies and streams must come back as a
// `ProviderError` (never a panic, never a partial call); odd but valid ones as calls.

type Reader = fn(&Value) -> Result<AssistantTurn, ProviderError>;

fn provider_cases() -> Vec<(&'static str, Reader, Value, Option<usize>)> {
    let oa: Reader = OpenAiChat::read_response;
    let an: Reader = Anthropic::read_response;
    let ge: Reader = Gemini::read_response;
    let orr: Reader = OpenAiResponses::read_response;
    let tool_call = |id: Value, name: Value, args: Value| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}});
    let oa_body = |calls: Value| json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": calls}}]});
    vec![
        ("openai: not an object", oa, json!([1, 2]), None),
        ("openai: no choices", oa, json!({"id": "x"}), None),
        ("openai: empty choices", oa, json!({"choices": []}), None),
        (
            "openai: message that is a string gives no calls",
            oa,
            json!({"choices": [{"message": "hi"}]}),
            Some(0),
        ),
        (
            "openai: tool_calls not an array",
            oa,
            oa_body(json!({"id": "c"})),
            None,
        ),
        (
            "openai: call without function",
            oa,
            oa_body(json!([{"id": "c", "type": "function"}])),
            None,
        ),
        (
            "openai: name is a number",
            oa,
            oa_body(json!([tool_call(json!("c1"), json!(7), json!("{}"))])),
            None,
        ),
        (
            "openai: object arguments are tolerated",
            oa,
            oa_body(json!([tool_call(
                json!("c1"),
                json!("add"),
                json!({"a": 1})
            )])),
            Some(1),
        ),
        (
            "openai: missing id",
            oa,
            oa_body(json!([{"type": "function", "function": {"name": "add", "arguments": "{}"}}])),
            None,
        ),
        (
            "openai: invalid JSON in arguments still reaches the dispatcher",
            oa,
            oa_body(json!([tool_call(json!("c1"), json!("add"), json!("{a:"))])),
            Some(1),
        ),
        (
            "openai: duplicate ids are kept as two calls",
            oa,
            oa_body(json!([
                tool_call(json!("c1"), json!("add"), json!("{}")),
                tool_call(json!("c1"), json!("ping"), json!("{}"))
            ])),
            Some(2),
        ),
        (
            "openai: huge arguments",
            oa,
            oa_body(json!([tool_call(
                json!("c1"),
                json!("add"),
                json!(format!("{{\"a\":\"{}\"}}", "x".repeat(2_000_000)))
            )])),
            Some(1),
        ),
        ("anthropic: not an object", an, json!("text"), None),
        (
            "anthropic: no content",
            an,
            json!({"role": "assistant"}),
            None,
        ),
        (
            "anthropic: content not an array",
            an,
            json!({"content": {"type": "text"}}),
            None,
        ),
        (
            "anthropic: tool_use without id",
            an,
            json!({"content": [{"type": "tool_use", "name": "add", "input": {}}]}),
            None,
        ),
        (
            "anthropic: tool_use without name",
            an,
            json!({"content": [{"type": "tool_use", "id": "t1", "input": {}}]}),
            None,
        ),
        (
            "anthropic: input is a string",
            an,
            json!({"content": [{"type": "tool_use", "id": "t1", "name": "add", "input": "{}"}]}),
            None,
        ),
        (
            "anthropic: unknown block types are skipped",
            an,
            json!({"content": [{"type": "thinking", "thinking": "…"}, {"type": "tool_use", "id": "t1", "name": "add", "input": {}}]}),
            Some(1),
        ),
        ("gemini: not an object", ge, json!(null), None),
        (
            "gemini: no candidates",
            ge,
            json!({"promptFeedback": {}}),
            None,
        ),
        (
            "gemini: parts not an array",
            ge,
            json!({"candidates": [{"content": {"parts": "x"}}]}),
            None,
        ),
        (
            "gemini: functionCall without name",
            ge,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
            None,
        ),
        (
            "gemini: args an array",
            ge,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "add", "args": [1]}}]}}]}),
            None,
        ),
        (
            "gemini: missing ids are synthesized",
            ge,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "add", "args": {}}}, {"functionCall": {"name": "add", "args": {}}}]}, "finishReason": "STOP"}]}),
            Some(2),
        ),
        (
            "responses: output not an array",
            orr,
            json!({"output": {}}),
            None,
        ),
        (
            "responses: function_call without call_id",
            orr,
            json!({"output": [{"type": "function_call", "name": "add", "arguments": "{}"}]}),
            None,
        ),
    ]
}

#[test]
fn every_provider_case_is_an_error_or_its_calls_and_never_panics() {
    let cases = provider_cases();
    assert!(cases.len() >= 25);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(label, read, body, want)| {
            let outcome = catch_unwind(AssertUnwindSafe(|| read(body)));
            let problem = match (outcome, want) {
                (Err(_), _) => Some("PANICKED".to_string()),
                (Ok(Err(_)), None) => None,
                (Ok(Ok(turn)), Some(n)) if turn.calls.len() == *n => {
                    let mut ids: Vec<&str> = turn.calls.iter().map(|c| c.id.as_str()).collect();
                    ids.dedup();
                    (ids.iter().any(|id| id.is_empty())).then(|| "a call without an id".to_string())
                }
                (Ok(other), _) => Some(format!("unexpected: {other:?}")),
            };
            problem.map(|p| format!("[{label}] {p}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn truncated_streams_never_release_a_partial_call() {
    // OpenAI: a call whose stream ends before `finish_reason`.
    let mut stream = OpenAiChatStream::new();
    stream
        .push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "add", "arguments": "{\"a\":"}}]}}]}))
        .unwrap();
    assert!(stream.finish().is_err());
    // Anthropic: a tool_use block that never stops.
    let mut stream = AnthropicStream::new();
    stream
        .push(&json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "add", "input": {}}}))
        .unwrap();
    assert!(stream.take_completed().is_empty());
    assert!(stream.finish().is_err());
    // Gemini: a stream with no finishReason.
    let mut stream = GeminiStream::new();
    stream
        .push(&json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "add", "args": {}}}]}}]}))
        .unwrap();
    assert!(stream.finish().is_err());
}
