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

/// A tree node: its schema refers to itself, which the `parameters` subset can only unroll.
#[derive(Clone)]
struct Outline;

impl tool_core::Tool for Outline {
    fn name(&self) -> &str {
        "save_outline"
    }
    fn description(&self) -> &str {
        "Saves a document outline."
    }
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "required": ["root"],
            "additionalProperties": false,
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                },
                "required": ["title"]
            }}
        })
    }
    fn call<'a>(
        &'a self,
        _arguments: &'a str,
        _ctx: tool_core::ToolContext<'a>,
    ) -> tool_core::CallFuture<'a> {
        tool_core::CallFuture::ready(tool_core::ToolResponse::success("saved"))
    }
}

/// `Gemini::with_json_schema(true)` declares each tool's schema unchanged as
/// `parametersJsonSchema` (the recursion and `$defs` kept), and python-genai's request types
/// accept the body; without it the tools go as `parameters`, recursion unrolled.
#[tokio::test]
async fn with_json_schema_sends_parameters_json_schema() {
    use tool_core::model::Message;

    let route = "/v1beta/models/gemini-2.5-flash:streamGenerateContent";
    let (weather_registry, _) = http_support::registry();
    let registry = weather_registry.with(Outline);
    let mut bodies = Vec::new();
    for json_schema in [true, false] {
        let server = http_support::server(
            route,
            vec![http_support::sse(http_support::fixture("gemini_turn2.sse"))],
        )
        .await;
        let model = Gemini::new("gemini-2.5-flash")
            .with_api_key("test-key")
            .with_json_schema(json_schema)
            .with_endpoint(|e| http_support::test_endpoint(e, format!("{}/v1beta", server.uri())));
        let messages = [Message::user(http_support::USER)];
        let (_, turn) = http_support::one_turn(&model, &messages, &registry).await;
        assert_eq!(turn.unwrap().text, http_support::FINAL_TEXT);
        let received = http_support::requests(&server).await;
        http_support::assert_sdk_accepts(route, &received);
        bodies.push(serde_json::from_slice::<serde_json::Value>(&received[0].body).unwrap());
    }

    let declarations = &bodies[0]["tools"][0]["function_declarations"];
    for (i, definition) in registry.definitions().iter().enumerate() {
        let declaration = &declarations[i];
        assert_eq!(declaration["name"], definition.name.as_str());
        assert_eq!(
            declaration["parametersJsonSchema"],
            *definition.input_schema
        );
        assert!(declaration.get("parameters").is_none(), "{declaration}");
    }
    assert_eq!(
        declarations[1]["parametersJsonSchema"]["$defs"]["Node"]["properties"]["children"]["items"]
            ["$ref"],
        "#/$defs/Node"
    );
    assert_eq!(
        bodies[0]["toolConfig"],
        serde_json::json!({"function_calling_config": {"mode": "AUTO"}})
    );
    // The default: the subset, without `$ref` or `$defs`.
    let subset = &bodies[1]["tools"][0]["function_declarations"][1];
    assert!(subset.get("parametersJsonSchema").is_none(), "{subset}");
    assert!(
        !subset["parameters"].to_string().contains("$ref"),
        "{subset}"
    );
    assert_eq!(bodies[1]["toolConfig"], bodies[0]["toolConfig"]);
}
