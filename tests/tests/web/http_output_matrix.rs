//! Typed final output on every API in both ways of answering, each with a tool in the same run:
//! the provider's native structured output and the final-answer tool, each valid the first
//! time, invalid then fixed, and invalid until the retry limit. Whole (non-streamed) responses
//! follow each API reference's example, as in `http_whole.rs`; ids and texts are this test's.
//! `http_output.rs` checks each API's request fields in detail; this file checks that every
//! cell of the matrix behaves the same, and that every request fits the official SDK's request
//! types.

use crate::http_support;

use crate::support::forecast::{paris, Forecast, VALID, WRONG_TYPE};
use http_support::{registry, requests, server, test_endpoint};
use serde_json::{json, Value};
use tool_core::model::{Anthropic, Gemini, Model, OpenAiChat, OpenAiResponses};
use tool_core::runner::{OutputMode, OutputSpec, RunError, RunOptions, Runner};
use tool_core::ToolRegistry;
use wiremock::ResponseTemplate;

#[derive(Debug, Clone, Copy)]
enum Api {
    Chat,
    Responses,
    Anthropic,
    Gemini,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    ValidFirstTime,
    InvalidThenFixed,
    InvalidUntilTheLimit,
}

impl Api {
    const ALL: [Api; 4] = [Api::Chat, Api::Responses, Api::Anthropic, Api::Gemini];

    fn route(self) -> &'static str {
        match self {
            Api::Chat => "/v1/chat/completions",
            Api::Responses => "/v1/responses",
            Api::Anthropic => "/v1/messages",
            Api::Gemini => "/v1beta/models/gemini-2.5-flash:generateContent",
        }
    }

    /// A turn whose answer is `text`.
    fn text(self, text: &str) -> ResponseTemplate {
        let body = match self {
            Api::Chat => json!({"id": "chatcmpl-out", "object": "chat.completion",
                "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null, "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text, "refusal": null}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}}),
            Api::Responses => json!({"id": "resp_out", "object": "response",
                "status": "completed", "model": "gpt-4.1",
                "output": [{"id": "msg_out", "type": "message", "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
                "usage": {"input_tokens": 60, "output_tokens": 12, "total_tokens": 72}}),
            Api::Anthropic => json!({"id": "msg_out", "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": null,
                "usage": {"input_tokens": 300, "output_tokens": 40}}),
            Api::Gemini => gemini(json!([{"text": text}])),
        };
        ResponseTemplate::new(200).set_body_json(body)
    }

    /// A turn that calls `name` with `args`.
    fn call(self, id: &str, name: &str, args: &Value) -> ResponseTemplate {
        let body = match self {
            Api::Chat => json!({"id": "chatcmpl-call", "object": "chat.completion",
                "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "logprobs": null, "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": null, "refusal": null,
                        "tool_calls": [{"id": id, "type": "function",
                            "function": {"name": name, "arguments": args.to_string()}}]}}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}}),
            Api::Responses => json!({"id": "resp_call", "object": "response",
                "status": "completed", "model": "gpt-4.1",
                "output": [{"id": format!("fc_{id}"), "type": "function_call",
                    "status": "completed", "call_id": id, "name": name,
                    "arguments": args.to_string()}],
                "usage": {"input_tokens": 60, "output_tokens": 12, "total_tokens": 72}}),
            Api::Anthropic => json!({"id": format!("msg_{id}"), "type": "message",
                "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": id, "name": name, "input": args}],
                "stop_reason": "tool_use", "stop_sequence": null,
                "usage": {"input_tokens": 300, "output_tokens": 40}}),
            Api::Gemini => gemini(json!([{"functionCall": {"name": name, "args": args}}])),
        };
        ResponseTemplate::new(200).set_body_json(body)
    }

    /// The names of the tools a request offers.
    fn tool_names(self, body: &Value) -> Vec<String> {
        let tools = match self {
            Api::Gemini => &body["tools"][0]["function_declarations"],
            _ => &body["tools"],
        };
        let names = tools.as_array().map(Vec::as_slice).unwrap_or_default();
        names
            .iter()
            .map(|tool| match self {
                Api::Chat => tool["function"]["name"].clone(),
                _ => tool["name"].clone(),
            })
            .map(|name| name.as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Whether a request asks for the API's native structured output.
    fn asks_native(self, body: &Value) -> bool {
        match self {
            Api::Chat => body["response_format"]["type"] == "json_schema",
            Api::Responses => body["text"]["format"]["type"] == "json_schema",
            Api::Anthropic => body["output_config"]["format"]["type"] == "json_schema",
            Api::Gemini => body["generationConfig"]["responseMimeType"] == "application/json",
        }
    }
}

fn gemini(parts: Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts},
        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 12,
            "totalTokenCount": 52},
        "modelVersion": "gemini-2.5-flash"})
}

/// Runs one cell: a weather call first, then the answers the outcome needs. Returns the
/// request bodies sent.
async fn cell(api: Api, mode: OutputMode, outcome: Outcome) -> Vec<Value> {
    let answers: &[&str] = match outcome {
        Outcome::ValidFirstTime => &[VALID],
        Outcome::InvalidThenFixed => &[WRONG_TYPE, VALID],
        Outcome::InvalidUntilTheLimit => &[WRONG_TYPE, "{}", VALID],
    };
    let mut replies = vec![api.call("w1", "get_weather", &json!({"city": "Paris"}))];
    for (i, answer) in answers.iter().enumerate() {
        replies.push(match mode {
            OutputMode::Tool => {
                let args: Value = serde_json::from_str(answer).expect("the answers are JSON");
                api.call(&format!("a{i}"), "final_answer", &args)
            }
            _ => api.text(answer),
        });
    }
    let server = server(api.route(), replies).await;
    let (registry, weather) = registry();
    let options =
        RunOptions::new().output_spec(OutputSpec::of::<Forecast>().mode(mode).max_retries(1));
    let outcome_seen = match api {
        Api::Chat => {
            let base = format!("{}/v1", server.uri());
            let model = OpenAiChat::new("gpt-4o")
                .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
            run(model, registry, options).await
        }
        Api::Responses => {
            let base = format!("{}/v1", server.uri());
            let model = OpenAiResponses::new("gpt-4.1")
                .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
            run(model, registry, options).await
        }
        Api::Anthropic => {
            let base = format!("{}/v1", server.uri());
            let model = Anthropic::new("claude-sonnet-4-5")
                .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
            run(model, registry, options).await
        }
        Api::Gemini => {
            let base = format!("{}/v1beta", server.uri());
            let model = Gemini::new("gemini-2.5-flash")
                .with_endpoint(|e| test_endpoint(e, base).with_stream(false));
            run(model, registry, options).await
        }
    };
    let case = format!("{api:?} {mode:?} {outcome:?}");
    match (&outcome_seen, outcome) {
        (Ok(forecast), Outcome::ValidFirstTime | Outcome::InvalidThenFixed) => {
            assert_eq!(forecast, &paris(), "{case}")
        }
        // The final error is the last answer's decoding error, not the retry message.
        (
            Err(RunError::OutputInvalid {
                attempts: 2,
                message,
                ..
            }),
            Outcome::InvalidUntilTheLimit,
        ) => assert_eq!(message, EMPTY_ERROR, "{case}"),
        (other, _) => panic!("{case}: {other:?}"),
    }
    assert_eq!(weather.runs(), 1, "{case}: the run's own tool ran once");

    let bodies: Vec<Value> = requests(&server)
        .await
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("the request body is JSON"))
        .collect();
    let answered = match outcome {
        Outcome::ValidFirstTime => 1,
        _ => 2,
    };
    assert_eq!(bodies.len(), 1 + answered, "{case}: requests sent");
    for body in &bodies {
        let names = api.tool_names(body);
        match mode {
            OutputMode::Tool => {
                assert_eq!(names, ["get_weather", "final_answer"], "{case}");
                assert!(!api.asks_native(body), "{case}: {body}");
            }
            _ => {
                assert_eq!(names, ["get_weather"], "{case}");
                assert!(api.asks_native(body), "{case}: {body}");
            }
        }
    }
    if answered == 2 {
        // The invalid answer goes back with what is wrong with it, in the words of the way
        // the model answers: no tool is named under native output, where none was offered.
        let retry = bodies[2].to_string();
        let native = format!(
            "Your final answer is not valid: {WRONG_TYPE_ERROR}. Answer again with JSON \
             matching the schema."
        );
        let tool = format!(
            "Your final answer is not valid: {WRONG_TYPE_ERROR}. Call the 'final_answer' tool \
             again with arguments matching its schema."
        );
        let (sent, not_sent) = match mode {
            OutputMode::Tool => (tool, native),
            _ => (native, tool),
        };
        assert!(retry.contains(&escaped(&sent)), "{case}: {retry}");
        assert!(!retry.contains(&escaped(&not_sent)), "{case}: {retry}");
        assert!(
            retry.contains("fifteen"),
            "{case}: the invalid answer is in the history"
        );
    }
    bodies
}

/// What is wrong with `WRONG_TYPE`, as the retry message and the final error say it.
const WRONG_TYPE_ERROR: &str = r#"at 'temp_c': invalid type: string "fifteen", expected f64"#;
/// What is wrong with `{}`, the last invalid answer of the cells that reach the limit.
const EMPTY_ERROR: &str = "missing field `city` at line 1 column 2";

/// `text` as it appears inside a JSON string of a request body.
fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).expect("a string serializes");
    quoted.trim_matches('"').to_string()
}

async fn run<M: Model>(
    model: M,
    registry: ToolRegistry,
    options: RunOptions,
) -> Result<Forecast, RunError> {
    Runner::new(model, registry)
        .with_options(options)
        .run_typed::<Forecast>("Weather in Paris?")
        .await
        .map(|typed| typed.output)
}

#[tokio::test]
async fn every_api_both_ways_each_outcome_with_a_tool_in_the_run() {
    for api in Api::ALL {
        let mut sent = Vec::new();
        for mode in [OutputMode::Native, OutputMode::Tool] {
            for outcome in [
                Outcome::ValidFirstTime,
                Outcome::InvalidThenFixed,
                Outcome::InvalidUntilTheLimit,
            ] {
                sent.extend(cell(api, mode, outcome).await);
            }
        }
        // Every request of every cell is one the API's official SDK would send.
        http_support::assert_sdk_accepts_bodies(api.route(), &sent);
    }
}
