//! The ToolResponse protocol: statuses, codes, the JSON form and the text the model sees.

use tool_core::{Stats, ToolErrorCode, ToolEvent, ToolResponse, ToolStatus};

#[test]
fn all_fifteen_error_codes_serialize_in_screaming_snake_case() {
    let wire: Vec<String> = ToolErrorCode::ALL
        .iter()
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    assert_eq!(
        wire,
        [
            "\"NOT_FOUND\"",
            "\"ALREADY_EXISTS\"",
            "\"PERMISSION_DENIED\"",
            "\"INVALID_PARAM\"",
            "\"INVALID_FORMAT\"",
            "\"EXECUTION_ERROR\"",
            "\"TIMEOUT\"",
            "\"CONFLICT\"",
            "\"CIRCUIT_OPEN\"",
            "\"RATE_LIMIT\"",
            "\"NETWORK_ERROR\"",
            "\"SERVICE_UNAVAILABLE\"",
            "\"PARTIAL_SUCCESS\"",
            "\"DEPRECATED\"",
            "\"UNKNOWN\"",
        ]
    );
    for code in ToolErrorCode::ALL {
        let back: ToolErrorCode = serde_json::from_str(&format!("\"{}\"", code.as_str())).unwrap();
        assert_eq!(back, code);
    }
}

#[test]
fn success_json_form_has_status_text_data_and_stats() {
    let response = ToolResponse::success("3 results")
        .with_data(&serde_json::json!({"results": [1, 2, 3]}))
        .with_stats(
            Stats {
                time_ms: Some(245),
                ..Stats::default()
            }
            .with("count", 3),
        )
        .with_context("query", "rust");
    assert_eq!(
        response.to_json(),
        r#"{"status":"SUCCESS","text":"3 results","data":{"results":[1,2,3]},"stats":{"time_ms":245,"count":3},"context":{"query":"rust"}}"#
    );
    assert_eq!(response.model_text(), "3 results\n{\"results\":[1,2,3]}");
}

#[test]
fn partial_carries_its_reason_in_json_and_model_text() {
    let response = ToolResponse::partial("first 100 results", "500 matched; truncated to 100");
    assert_eq!(response.status, ToolStatus::Partial);
    assert_eq!(
        response.to_json(),
        r#"{"status":"PARTIAL","text":"first 100 results","reason":"500 matched; truncated to 100"}"#
    );
    assert_eq!(
        response.model_text(),
        "Partial result (500 matched; truncated to 100): first 100 results"
    );
}

#[test]
fn error_reads_as_code_and_message_for_the_model() {
    let response = ToolResponse::error(ToolErrorCode::InvalidParam, "'path' must not be empty");
    assert_eq!(
        response.model_text(),
        "Error [INVALID_PARAM]: 'path' must not be empty"
    );
    assert_eq!(
        response.to_json(),
        r#"{"status":"ERROR","error_info":{"code":"INVALID_PARAM","message":"'path' must not be empty"}}"#
    );
}

#[test]
fn events_are_in_the_json_form_but_never_in_the_model_text() {
    let response = ToolResponse::success("shown 2 cards").with_event(ToolEvent::new(
        "cards",
        serde_json::json!([{"title": "Dune"}, {"title": "Emma"}]),
    ));
    assert_eq!(response.model_text(), "shown 2 cards");
    assert!(response
        .to_json()
        .contains(r#""events":[{"kind":"cards","data":[{"title":"Dune"},{"title":"Emma"}]}]"#));
}

#[test]
fn json_form_round_trips() {
    let response = ToolResponse::partial("t", "r")
        .with_data(&[1, 2])
        .with_stats(Stats::default().with_attempts(2))
        .with_event(ToolEvent::new("k", serde_json::json!(null)));
    let back: ToolResponse = serde_json::from_str(&response.to_json()).unwrap();
    assert_eq!(back, response);
    assert_eq!(back.stats.attempts(), Some(2));
}
