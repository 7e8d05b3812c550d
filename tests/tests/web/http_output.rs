//! Typed final output over loopback HTTP, on each API: the request asks for the answer the
//! way the API has it (OpenAI Chat `response_format` json_schema strict, Responses
//! `text.format`, Gemini `responseMimeType` + `responseJsonSchema`, Anthropic
//! `output_config.format`; a final-answer tool for Gemini with tools and for the Claude
//! models without structured outputs), invalid answers go back to the model, the limit ends
//! the run with a typed error.
//!
//! Streamed Chat answers replay `tests/fixtures/http/openai_chat_turn2.sse` (openai-python's
//! recorded structured-output stream, see the fixtures README) with this test's JSON in the
//! content deltas. Whole responses follow each API reference's non-streamed example (as in
//! `http_whole.rs`); ids and texts are this test's.

use crate::http_support;

use crate::support::forecast::{paris, Forecast, VALID, WRONG_TYPE};
use http_support::{fixture, registry, requests, server, sse, test_endpoint};
use serde_json::{json, Value};
use tool_core::model::{Anthropic, Gemini, Model, OpenAiChat, OpenAiResponses};
use tool_core::runner::{OutputSpec, RunError, RunOptions, Runner};
use tool_core::ToolRegistry;
use wiremock::ResponseTemplate;

/// The recorded Chat text stream with `text` as its content: the first content delta carries
/// it, the other deltas are emptied.
fn chat_stream(text: &str) -> ResponseTemplate {
    let escaped = serde_json::to_string(text).unwrap();
    let mut stream = fixture("openai_chat_turn2.sse").replacen(
        r#""content":"Paris""#,
        &format!(r#""content":{escaped}"#),
        1,
    );
    for piece in [
        ":",
        " 15 C and light",
        " rain.",
        " Tokyo",
        " 22 C and",
        " sunny.",
    ] {
        stream = stream.replace(&format!(r#""content":"{piece}""#), r#""content":"""#);
    }
    sse(stream)
}

async fn bodies(server: &wiremock::MockServer) -> Vec<Value> {
    requests(server)
        .await
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

#[tokio::test]
async fn openai_chat_native_invalid_then_fixed_streamed() {
    let server = server(
        "/v1/chat/completions",
        vec![chat_stream(WRONG_TYPE), chat_stream(VALID)],
    )
    .await;
    let base = format!("{}/v1", server.uri());
    let model = OpenAiChat::new("gpt-4o").with_endpoint(|e| test_endpoint(e, base));
    let (registry, weather) = registry();
    let runner = Runner::new(model, registry);
    let result = runner
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .unwrap();
    assert_eq!(result.output, paris());
    assert_eq!(weather.runs(), 0);

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    let format = &bodies[0]["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], "final_answer");
    assert_eq!(format["json_schema"]["strict"], true);
    let schema = &format["json_schema"]["schema"];
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["city", "temp_c", "umbrella"]));
    // Native output leaves the tools as they are.
    assert_eq!(bodies[0]["tools"][0]["function"]["name"], "get_weather");
    assert_eq!(bodies[0]["tools"].as_array().unwrap().len(), 1);
    // The second request carries the invalid answer and the error, as a user message.
    let messages = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["content"], WRONG_TYPE);
    assert_eq!(messages[2]["role"], "user");
    let error = messages[2]["content"].as_str().unwrap();
    assert!(error.contains("temp_c"), "{error}");
}

fn responses_body(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "resp_out", "object": "response",
        "status": "completed", "model": "gpt-4.1",
        "output": [{"id": "msg_out", "type": "message", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "usage": {"input_tokens": 60, "output_tokens": 12, "total_tokens": 72}}))
}

fn responses(base: String) -> OpenAiResponses {
    OpenAiResponses::new("gpt-4.1").with_endpoint(|e| test_endpoint(e, base).with_stream(false))
}

#[tokio::test]
async fn openai_responses_native_valid_first_time() {
    let server = server("/v1/responses", vec![responses_body(VALID)]).await;
    let runner = Runner::new(responses(format!("{}/v1", server.uri())), registry().0);
    let result = runner
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .unwrap();
    assert_eq!(result.output, paris());
    assert_eq!(result.usage().total(), 72);
    let bodies = bodies(&server).await;
    let format = &bodies[0]["text"]["format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["name"], "final_answer");
    assert_eq!(format["strict"], true);
    assert_eq!(
        format["schema"]["required"],
        json!(["city", "temp_c", "umbrella"])
    );
}

#[tokio::test]
async fn openai_responses_native_invalid_until_the_limit() {
    let server = server(
        "/v1/responses",
        vec![
            responses_body(WRONG_TYPE),
            responses_body("{}"),
            responses_body(VALID),
        ],
    )
    .await;
    let runner = Runner::new(responses(format!("{}/v1", server.uri())), registry().0)
        .with_options(RunOptions::new().output_spec(OutputSpec::of::<Forecast>().max_retries(1)));
    let error = runner.run_typed::<Forecast>("Weather?").await.unwrap_err();
    assert!(
        matches!(&error, RunError::OutputInvalid { attempts: 2, message, .. } if message.contains("city")),
        "{error:?}"
    );
    assert_eq!(requests(&server).await.len(), 2);
}

fn gemini_body(parts: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"candidates": [{"content": {"role": "model",
        "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 12, "totalTokenCount": 52},
        "modelVersion": "gemini-2.5-flash"}))
}

fn gemini(base: String) -> Gemini {
    Gemini::new("gemini-2.5-flash").with_endpoint(|e| test_endpoint(e, base).with_stream(false))
}

const GEMINI_ROUTE: &str = "/v1beta/models/gemini-2.5-flash:generateContent";

#[tokio::test]
async fn gemini_native_without_tools_invalid_then_fixed() {
    let server = server(
        GEMINI_ROUTE,
        vec![
            gemini_body(json!([{"text": WRONG_TYPE}])),
            gemini_body(json!([{"text": VALID}])),
        ],
    )
    .await;
    let runner = Runner::new(
        gemini(format!("{}/v1beta", server.uri())),
        ToolRegistry::new(),
    );
    let result = runner
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .unwrap();
    assert_eq!(result.output, paris());
    let bodies = bodies(&server).await;
    let config = &bodies[0]["generationConfig"];
    assert_eq!(config["responseMimeType"], "application/json");
    assert_eq!(
        config["responseJsonSchema"]["required"],
        json!(["city", "temp_c", "umbrella"])
    );
    assert!(bodies[0].get("tools").is_none());
    let contents = bodies[1]["contents"].as_array().unwrap();
    assert_eq!(contents[2]["role"], "user");
    assert!(contents[2]["parts"][0]["text"]
        .as_str()
        .unwrap()
        .contains("temp_c"));
}

#[tokio::test]
async fn gemini_with_tools_answers_through_the_final_answer_tool() {
    let server = server(
        GEMINI_ROUTE,
        vec![
            gemini_body(
                json!([{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]),
            ),
            gemini_body(json!([{"functionCall": {"name": "final_answer",
                "args": serde_json::from_str::<Value>(VALID).unwrap()}}])),
        ],
    )
    .await;
    let (registry, weather) = registry();
    let runner = Runner::new(gemini(format!("{}/v1beta", server.uri())), registry);
    let result = runner
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .unwrap();
    assert_eq!(result.output, paris());
    assert_eq!(weather.runs(), 1);
    let bodies = bodies(&server).await;
    assert!(bodies[0].get("generationConfig").is_none());
    let names: Vec<&str> = bodies[0]["tools"][0]["function_declarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_weather", "final_answer"]);
    assert_eq!(
        bodies[0]["toolConfig"]["function_calling_config"]["mode"],
        "ANY"
    );
}

fn anthropic_tool_use(id: &str, name: &str, input: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": format!("msg_{id}"), "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": id, "name": name, "input": input}],
        "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 300, "output_tokens": 40}}))
}

#[tokio::test]
async fn anthropic_final_answer_tool_with_tools_invalid_then_fixed() {
    let server = server(
        "/v1/messages",
        vec![
            anthropic_tool_use("toolu_1", "get_weather", json!({"city": "Paris"})),
            anthropic_tool_use(
                "toolu_2",
                "final_answer",
                serde_json::from_str(WRONG_TYPE).unwrap(),
            ),
            anthropic_tool_use(
                "toolu_3",
                "final_answer",
                serde_json::from_str(VALID).unwrap(),
            ),
        ],
    )
    .await;
    let base = format!("{}/v1", server.uri());
    // Claude Sonnet 4 has no structured outputs: the final-answer tool stands in.
    let model = Anthropic::new("claude-sonnet-4-20250514")
        .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
    assert!(!model.native_output(false));
    let (registry, weather) = registry();
    let runner = Runner::new(model, registry);
    let result = runner
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .unwrap();
    assert_eq!(result.output, paris());
    assert_eq!(weather.runs(), 1);

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    assert!(bodies.iter().all(|b| b.get("output_config").is_none()));
    let names: Vec<&str> = bodies[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_weather", "final_answer"]);
    assert_eq!(bodies[0]["tool_choice"]["type"], "any");
    assert_eq!(
        bodies[0]["tools"][1]["input_schema"]["required"],
        json!(["city", "temp_c", "umbrella"])
    );
    // The invalid answer's tool_result is an error naming the field.
    let last = bodies[2]["messages"].as_array().unwrap().last().unwrap();
    let block = &last["content"][0];
    assert_eq!(block["type"], "tool_result");
    assert_eq!(block["tool_use_id"], "toolu_2");
    assert_eq!(block["is_error"], true);
    assert!(block["content"].to_string().contains("temp_c"), "{block}");
}

/// A whole Messages response with these content blocks, in the shape of the Messages API
/// reference's example response; ids and texts are this test's.
fn anthropic_message(id: &str, content: Value, stop_reason: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": format!("msg_{id}"), "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5", "content": content,
        "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": 300, "output_tokens": 40}}))
}

fn anthropic_text(id: &str, text: &str) -> ResponseTemplate {
    anthropic_message(id, json!([{"type": "text", "text": text}]), "end_turn")
}

/// What is wrong with an `output_config` against the Anthropic SDK's types
/// (anthropic-sdk-python `src/anthropic/types/output_config_param.py`: `effort`, `format`;
/// `json_output_format_param.py`: `format` is `{type: "json_schema", schema}`, both required)
/// and with its schema against the subset the SDK's `transform_schema` produces (every object
/// closed with `additionalProperties: false`, no keyword outside that subset).
fn anthropic_output_config(config: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(config) = config.as_object() else {
        return vec!["output_config is not an object".into()];
    };
    for key in config.keys() {
        if !["effort", "format"].contains(&key.as_str()) {
            problems.push(format!("output_config has an unknown field {key}"));
        }
    }
    let format = &config["format"];
    let mut keys: Vec<&str> = format
        .as_object()
        .map(|f| f.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    if keys != ["schema", "type"] || format["type"] != "json_schema" {
        problems.push(format!(
            "format is not {{type: json_schema, schema}}: {format}"
        ));
    }
    check_anthropic_schema(&format["schema"], "schema", &mut problems);
    problems
}

fn check_anthropic_schema(schema: &Value, at: &str, problems: &mut Vec<String>) {
    const TAKEN: [&str; 14] = [
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "enum",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "format",
    ];
    let Some(map) = schema.as_object() else {
        return problems.push(format!("{at} is not an object"));
    };
    for key in map.keys() {
        if !TAKEN.contains(&key.as_str()) {
            problems.push(format!(
                "{at} has {key}, outside the structured-output subset"
            ));
        }
    }
    if map.get("type") == Some(&json!("object"))
        && map.get("additionalProperties") != Some(&json!(false))
    {
        problems.push(format!(
            "{at} is an object without additionalProperties: false"
        ));
    }
    for (key, sub) in map
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        check_anthropic_schema(sub, &format!("{at}.properties.{key}"), problems);
    }
    if let Some(items) = map.get("items") {
        check_anthropic_schema(items, &format!("{at}.items"), problems);
    }
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Trip {
    /// Where to.
    city: String,
    /// Nights, at least one.
    #[schemars(range(min = 1))]
    nights: u8,
    /// Forecasts per day.
    days: Vec<Forecast>,
}

#[test]
fn the_anthropic_schema_fits_the_structured_output_subset() {
    let output = tool_core::model::JsonOutput::new(
        "final_answer",
        serde_json::to_value(schemars::schema_for!(Trip)).unwrap(),
    );
    let messages = [tool_core::model::Message::user("Plan a trip")];
    let request =
        tool_core::model::ModelRequest::new(&messages, tool_core::model::OfferedTools::none())
            .with_output(&output);
    let body = Anthropic::new("claude-sonnet-4-5").request_body(&request);
    let config = &body["output_config"];
    assert_eq!(
        anthropic_output_config(config),
        Vec::<String>::new(),
        "{config:#}"
    );
    // The bound the subset lacks is kept for the model in the description.
    let nights = &config["format"]["schema"]["properties"]["nights"];
    assert!(
        nights["description"]
            .as_str()
            .unwrap()
            .contains("minimum: 1"),
        "{nights}"
    );
}

/// Anthropic's structured outputs (`output_config.format`), with a tool in the same run:
/// valid first time, invalid then fixed, invalid until the retry limit. The answers are text
/// blocks; an invalid one goes back as a user message.
#[tokio::test]
async fn anthropic_native_output_each_outcome_with_a_tool_in_the_run() {
    let tool_turn = || {
        anthropic_message(
            "tool",
            json!([{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]),
            "tool_use",
        )
    };
    // (answers after the tool turn, whether the run ends with the Forecast)
    let cases: [(&[&str], bool); 3] = [
        (&[VALID], true),
        (&[WRONG_TYPE, VALID], true),
        (&[WRONG_TYPE, "{}", VALID], false),
    ];
    for (answers, succeeds) in cases {
        let mut replies = vec![tool_turn()];
        replies.extend(answers.iter().map(|a| anthropic_text("answer", a)));
        let server = server("/v1/messages", replies).await;
        let base = format!("{}/v1", server.uri());
        let model = Anthropic::new("claude-sonnet-4-5")
            .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
        let (registry, weather) = registry();
        let runner = Runner::new(model, registry).with_options(
            RunOptions::new().output_spec(OutputSpec::of::<Forecast>().max_retries(1)),
        );
        let outcome = runner.run_typed::<Forecast>("Weather in Paris?").await;
        match (&outcome, succeeds) {
            (Ok(result), true) => assert_eq!(result.output, paris()),
            (Err(RunError::OutputInvalid { attempts: 2, .. }), false) => {}
            other => panic!("{answers:?}: {other:?}"),
        }
        assert_eq!(weather.runs(), 1, "{answers:?}");
        let bodies = bodies(&server).await;
        let sent = if succeeds { answers.len() + 1 } else { 3 };
        assert_eq!(bodies.len(), sent, "{answers:?}");
        for body in &bodies {
            assert_eq!(
                anthropic_output_config(&body["output_config"]),
                Vec::<String>::new()
            );
            // Native output leaves the tools and the tool choice as they are.
            assert_eq!(body["tools"].as_array().map(Vec::len), Some(1));
            assert_ne!(body["tool_choice"]["type"], "any");
        }
        if answers.len() > 1 {
            let messages = bodies[2]["messages"].as_array().unwrap();
            let back = &messages[messages.len() - 1];
            assert_eq!(back["role"], "user");
            assert!(back["content"].to_string().contains("temp_c"), "{back}");
        }
    }
}
