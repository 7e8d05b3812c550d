//! Every failure a model can cause at dispatch comes back as an ERROR response whose code and
//! message say what was wrong, where, and what to do.

use tool_core::{tool, tool_type, tools, ToolCall, ToolErrorCode, ToolRegistry, ToolStatus};

#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

#[tool_type]
#[derive(Debug)]
#[serde(deny_unknown_fields)]
pub struct Filters {
    pub tags: Vec<String>,
    pub unit: Option<Unit>,
}

/// Current weather.
#[tool]
fn get_weather(location: String, unit: Option<Unit>) -> String {
    format!("{location} {unit:?}")
}

/// Searches.
#[tool]
fn search(query: String, #[arg(default = 10)] limit: u32, filters: Option<Filters>) -> String {
    format!("{query} {limit} {filters:?}")
}

/// Needs no arguments.
#[tool]
fn ping() -> &'static str {
    "pong"
}

fn registry() -> ToolRegistry {
    tools![get_weather, search, ping]
}

fn call(name: &str, args: &str) -> (Option<ToolErrorCode>, String) {
    let response = registry().call_blocking(&ToolCall::new("c1", name, args));
    (response.error_code(), response.model_text().into_owned())
}

#[test]
fn unknown_tool_lists_available_names_and_the_closest_match() {
    let (code, text) = call("get_wether", "{}");
    assert_eq!(code, Some(ToolErrorCode::NotFound));
    assert!(text.contains("Unknown tool 'get_wether'"), "{text}");
    assert!(text.contains("Did you mean 'get_weather'?"), "{text}");
    assert!(text.contains("'get_weather', 'search', 'ping'"), "{text}");
}

#[test]
fn unknown_tool_without_a_close_match_still_lists_the_tools() {
    let (code, text) = call("translate", "{}");
    assert_eq!(code, Some(ToolErrorCode::NotFound));
    assert!(!text.contains("Did you mean"), "{text}");
    assert!(text.contains("Available tools:"), "{text}");
}

#[test]
fn empty_tool_name_is_not_found() {
    let (code, text) = call("", "{}");
    assert_eq!(code, Some(ToolErrorCode::NotFound));
    assert!(text.contains("(empty name)"), "{text}");
}

#[test]
fn arguments_that_are_not_json_are_invalid_format_with_line_and_column() {
    let (code, text) = call(
        "get_weather",
        "{\"location\": \"Paris\",\n \"unit\": celsius}",
    );
    assert_eq!(code, Some(ToolErrorCode::InvalidFormat));
    assert!(text.contains("not valid JSON"), "{text}");
    assert!(text.contains("line 2 column"), "{text}");
}

#[test]
fn truncated_json_is_invalid_format() {
    let (code, text) = call("get_weather", r#"{"location": "Par"#);
    assert_eq!(code, Some(ToolErrorCode::InvalidFormat));
    assert!(text.contains("line 1 column"), "{text}");
}

#[test]
fn missing_parameter_is_named() {
    let (code, text) = call("get_weather", r#"{"unit": "celsius"}"#);
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(
        text.contains("missing required parameter 'location'"),
        "{text}"
    );
}

#[test]
fn wrong_type_names_the_field_and_expected_type() {
    let (code, text) = call("search", r#"{"query": "x", "limit": "ten"}"#);
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(text.contains("'limit'"), "{text}");
    assert!(text.contains("expected a non-negative integer"), "{text}");
    assert!(text.contains("got string \"ten\""), "{text}");
}

#[test]
fn unknown_parameter_is_rejected_with_did_you_mean_and_valid_names() {
    let (code, text) = call("get_weather", r#"{"locaton": "Paris"}"#);
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(text.contains("unknown parameter 'locaton'"), "{text}");
    assert!(text.contains("Did you mean 'location'?"), "{text}");
    assert!(
        text.contains("Valid parameters: 'location', 'unit'"),
        "{text}"
    );
}

#[test]
fn bad_enum_value_lists_the_allowed_values() {
    let (code, text) = call("get_weather", r#"{"location": "Paris", "unit": "kelvin"}"#);
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(text.contains("invalid value 'kelvin' at 'unit'"), "{text}");
    assert!(
        text.contains("Allowed values: 'celsius', 'fahrenheit'"),
        "{text}"
    );
}

#[test]
fn nested_errors_name_the_full_field_path() {
    let (code, text) = call(
        "search",
        r#"{"query": "x", "filters": {"tags": ["a", "b", 3]}}"#,
    );
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(text.contains("'filters.tags[2]'"), "{text}");
    let (_, text) = call(
        "search",
        r#"{"query": "x", "filters": {"tags": [], "unit": "hot"}}"#,
    );
    assert!(text.contains("'filters.unit'"), "{text}");
    let (_, text) = call("search", r#"{"query": "x", "filters": {"tgas": []}}"#);
    assert!(
        text.contains("unknown parameter 'filters.tgas'. Did you mean 'tags'?"),
        "{text}"
    );
}

#[test]
fn non_object_arguments_are_rejected() {
    for args in ["[\"Paris\"]", "42", "true"] {
        let (code, text) = call("get_weather", args);
        assert_eq!(code, Some(ToolErrorCode::InvalidParam), "{args}");
        assert!(text.contains("JSON object"), "{args}: {text}");
    }
}

#[test]
fn empty_string_and_null_arguments_count_as_an_empty_object() {
    for args in ["", "   ", "null", "{}"] {
        let response = registry().call_blocking(&ToolCall::new("c1", "ping", args));
        assert_eq!(response.status, ToolStatus::Success, "{args:?}");
        assert_eq!(response.model_text(), "pong");
    }
    // ... and a tool with required parameters then reports what is missing.
    let (code, text) = call("get_weather", "");
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
    assert!(
        text.contains("missing required parameter 'location'"),
        "{text}"
    );
}

#[test]
fn double_encoded_arguments_are_decoded_once() {
    let response = registry().call_blocking(&ToolCall::new(
        "c1",
        "get_weather",
        r#""{\"location\": \"Oslo\"}""#,
    ));
    assert_eq!(response.model_text(), "Oslo None");
    // Twice-encoded is not unwrapped a second time.
    let (code, _) = call("get_weather", r#""\"{\\\"location\\\": \\\"Oslo\\\"}\"""#);
    assert_eq!(code, Some(ToolErrorCode::InvalidParam));
}

#[test]
fn defaults_apply_when_the_argument_is_absent() {
    let response = registry().call_blocking(&ToolCall::new("c1", "search", r#"{"query": "x"}"#));
    assert_eq!(response.model_text(), "x 10 None");
}

#[test]
fn every_response_carries_the_dispatch_time() {
    let ok = registry().call_blocking(&ToolCall::new("c1", "ping", "{}"));
    assert!(ok.time_ms().is_some());
    let bad = registry().call_blocking(&ToolCall::new("c1", "get_weather", "{"));
    assert!(bad.time_ms().is_some());
}
