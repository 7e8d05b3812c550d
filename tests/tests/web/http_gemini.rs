//! `Gemini` through reqwest against a loopback server replaying recorded
//! `streamGenerateContent?alt=sse` streams (`tests/fixtures/http/gemini_*.sse`).

use crate::adapter_tests;
use crate::http_support;

use http_support::cases::Case;
use tool_core::model::{Gemini, Model};

const CASE: Case = Case {
    route: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
    base_path: "/v1beta",
    make: |base| {
        Box::new(
            Gemini::new("gemini-2.5-flash")
                .with_api_key("test-key")
                .with_endpoint(|e| http_support::test_endpoint(e, base)),
        ) as Box<dyn Model>
    },
    turn1: "gemini_turn1.sse",
    turn2: "gemini_turn2.sse",
    // Gemini sends whole parts: the cut falls before the chunk that carries both calls.
    cut_marker: "\"functionCall\"",
    turn1_text: "Let me check both cities.",
    call_ids: ["gemini_call_0_get_weather", "gemini_call_1_get_weather"],
    response_ids: ["b36LacjwM668nsEP2tbsgQQ", "bH6LaZW8Fp_3nsEPqtaSwQ4"],
    golden: "http_gemini_second_request.json",
};

adapter_tests!(CASE);

/// The recorded chunks of a fixture, parsed.
fn recorded_chunks(name: &str) -> Vec<serde_json::Value> {
    http_support::fixture(name)
        .lines()
        .filter_map(|line| line.trim_end().strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// Gemini 3 closes a stream with an empty text part (recorded in both fixtures). Without a
/// signature it is dropped, so it never goes back in the history (the API can reject an
/// empty text parameter); with a signature it is kept, joined onto the text before it.
#[test]
fn the_recorded_closing_empty_text_part_goes_back_only_with_its_signature() {
    use serde_json::json;
    use tool_core::provider::{Assembler, GeminiStream};

    let mut stream = GeminiStream::new();
    for chunk in recorded_chunks("gemini_turn1.sse") {
        stream.push(&chunk).unwrap();
    }
    let turn = stream.finish().unwrap();
    let keys: Vec<Vec<&str>> = turn
        .native
        .iter()
        .map(|part| {
            part.as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect()
        })
        .collect();
    assert_eq!(
        keys,
        [
            vec!["text"],
            vec!["functionCall", "thoughtSignature"],
            vec!["functionCall"]
        ]
    );
    assert_eq!(turn.native[0], json!({"text": "Let me check both cities."}));

    let mut stream = GeminiStream::new();
    for chunk in recorded_chunks("gemini_turn2.sse") {
        stream.push(&chunk).unwrap();
    }
    let turn = stream.finish().unwrap();
    assert_eq!(turn.native.len(), 1, "{:?}", turn.native);
    assert_eq!(turn.native[0]["text"], http_support::FINAL_TEXT);
    assert!(turn.native[0]["thoughtSignature"]
        .as_str()
        .is_some_and(|s| s.starts_with("EqsFCqgFAb4")));
}
