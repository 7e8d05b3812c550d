//! Namespaces and allowed tools through the runner, over loopback HTTP, with every request
//! checked against the official SDK's request types: OpenAI Responses offered a `namespace`
//! tool, its namespaced calls run and go back in the history as sent; an allowed set on
//! every API; on Anthropic (no field for it) a call outside the set is refused with an error
//! result and never runs.
//!
//! Recorded streams: `tests/fixtures/http/*_turn{1,2}.sse` (each names its source in its
//! header). For the namespace test the Responses recording's two `function_call` items are
//! given `"namespace": "weather"`, the field openai-python 3.51's `ResponseFunctionToolCall`
//! carries for a call of a tool in a namespace.

use serde_json::{json, Value};
use tool_core::model::{Anthropic, Gemini, Message, Model, OpenAiChat, OpenAiResponses};
use tool_core::provider::{AllowedMode, ToolChoice};
use tool_core::runner::{RunOptions, Runner};
use tool_core::{tool, tools, Shape, ToolErrorCode, ToolNamespace, ToolRegistry};
use wiremock::Request;

use crate::http_support::{self, fixture, requests, server, sse, Weather, FINAL_TEXT, USER};

/// Finds a customer account by name.
#[tool]
fn find_account(name: String) -> String {
    format!("account of {name}")
}

/// Builds one API's model against a loopback base URL.
type MakeModel = fn(String) -> Box<dyn Model>;

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// Runs the two recorded turns of one API through the runner; the requests it sent.
async fn two_turns(
    route: &str,
    model: impl FnOnce(String) -> Box<dyn Model>,
    base_path: &str,
    turns: [String; 2],
    registry: ToolRegistry,
    options: RunOptions,
) -> (Vec<Message>, Vec<Request>) {
    let [turn1, turn2] = turns;
    let server = server(route, vec![sse(turn1), sse(turn2)]).await;
    let runner =
        Runner::new(model(format!("{}{base_path}", server.uri())), registry).with_options(options);
    let result = runner.run(USER).await.expect("the run finishes");
    let received = requests(&server).await;
    http_support::assert_sdk_accepts(route, &received);
    assert_eq!(received.len(), 2);
    (result.messages().to_vec(), received)
}

fn responses(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiResponses::new("gpt-4.1")
            .with_api_key("sk-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn chat(base: String) -> Box<dyn Model> {
    Box::new(
        OpenAiChat::new("gpt-4o")
            .with_api_key("sk-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn anthropic(base: String) -> Box<dyn Model> {
    Box::new(
        Anthropic::new("claude-sonnet-4-20250514")
            .with_api_key("sk-ant-test")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn gemini(base: String) -> Box<dyn Model> {
    Box::new(
        Gemini::new("gemini-2.5-flash")
            .with_api_key("test-key")
            .with_endpoint(|e| http_support::test_endpoint(e, base)),
    )
}

fn recorded(api: &str) -> [String; 2] {
    [
        fixture(&format!("{api}_turn1.sse")),
        fixture(&format!("{api}_turn2.sse")),
    ]
}

#[tokio::test]
async fn responses_offers_a_namespace_runs_its_calls_and_keeps_them_in_the_history() {
    let weather = Weather::default();
    let registry = tools![find_account]
        .merge(
            &ToolRegistry::new().with(weather.clone()),
            Shape::new().namespace(ToolNamespace::new("weather", "Weather reports by city.")),
        )
        .unwrap();
    let [turn1, turn2] = recorded("openai_responses");
    let turn1 = turn1.replace(
        r#""type":"function_call","#,
        r#""type":"function_call","namespace":"weather","#,
    );
    let options = RunOptions::new().tool_choice(ToolChoice::tool("weather__get_weather"));
    let (messages, received) = two_turns(
        "/v1/responses",
        responses,
        "/v1",
        [turn1, turn2],
        registry,
        options,
    )
    .await;
    assert_eq!(weather.runs(), 2, "both namespaced calls ran");

    let first = body(&received[0]);
    assert_eq!(first["tools"][0]["name"], "find_account");
    assert_eq!(first["tools"][1]["type"], "namespace");
    assert_eq!(first["tools"][1]["name"], "weather");
    assert_eq!(first["tools"][1]["description"], "Weather reports by city.");
    assert_eq!(first["tools"][1]["tools"][0]["name"], "get_weather");
    assert_eq!(
        first["tool_choice"],
        json!({"type": "allowed_tools", "mode": "required",
               "tools": [{"type": "function", "name": "get_weather", "namespace": "weather"}]})
    );
    // The forced choice is reset after the turn; the tools are the same bytes.
    let second = body(&received[1]);
    assert_eq!(second["tool_choice"], "auto");
    assert_eq!(second["tools"], first["tools"]);
    // The calls go back as the server sent them: own name and namespace.
    let calls: Vec<&Value> = second["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["type"] == "function_call")
        .collect();
    assert_eq!(calls.len(), 2);
    for call in calls {
        assert_eq!(call["name"], "get_weather");
        assert_eq!(call["namespace"], "weather");
    }
    let Some(Message::Tool { results }) = messages.get(2) else {
        panic!("the results follow the calls: {messages:?}")
    };
    assert_eq!(results[0].name, "weather__get_weather");
    assert_eq!(results[0].response.model_text(), "15 C, light rain");
    assert!(matches!(messages.last(), Some(Message::Assistant(t)) if t.text == FINAL_TEXT));
}

/// The recorded turns of each API, allowed only `get_weather` of the two tools sent: the
/// request carries the API's own restriction, the tools part is unchanged, the calls run.
#[tokio::test]
async fn an_allowed_set_goes_out_in_each_apis_shape_and_its_calls_run() {
    let cases: [(&str, MakeModel, &str, &str, &str); 4] = [
        (
            "/v1/chat/completions",
            chat,
            "/v1",
            "openai_chat",
            "/tool_choice",
        ),
        (
            "/v1/responses",
            responses,
            "/v1",
            "openai_responses",
            "/tool_choice",
        ),
        (
            "/v1/messages",
            anthropic,
            "/v1",
            "anthropic",
            "/tool_choice",
        ),
        (
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
            gemini,
            "/v1beta",
            "gemini",
            "/toolConfig",
        ),
    ];
    for (route, model, base_path, api, choice_at) in cases {
        let weather = Weather::default();
        let registry = ToolRegistry::new()
            .with(weather.clone())
            .with(find_account {});
        let options = RunOptions::new().allowed_tools(["get_weather"], AllowedMode::Required);
        let (_, received) =
            two_turns(route, model, base_path, recorded(api), registry, options).await;
        assert_eq!(weather.runs(), 2, "{api}: the allowed calls ran");
        let first = body(&received[0]);
        let expected = match api {
            "openai_chat" => json!({"type": "allowed_tools", "allowed_tools": {"mode": "required",
                "tools": [{"type": "function", "function": {"name": "get_weather"}}]}}),
            "openai_responses" => json!({"type": "allowed_tools", "mode": "required",
                "tools": [{"type": "function", "name": "get_weather"}]}),
            "anthropic" => json!({"type": "tool", "name": "get_weather"}),
            _ => json!({"function_calling_config": {"mode": "ANY",
                "allowed_function_names": ["get_weather"]}}),
        };
        assert_eq!(first.pointer(choice_at), Some(&expected), "{api}");
        let second = body(&received[1]);
        assert_eq!(second["tools"], first["tools"], "{api}: the same tools");
        // After the turn the restriction stays but no call is required any more.
        let relaxed = second.pointer(choice_at).unwrap();
        match api {
            "openai_chat" => assert_eq!(relaxed["allowed_tools"]["mode"], "auto"),
            "openai_responses" => assert_eq!(relaxed["mode"], "auto"),
            "anthropic" => assert_eq!(relaxed["type"], "auto"),
            _ => assert_eq!(relaxed["function_calling_config"]["mode"], "VALIDATED"),
        }
    }
}

#[tokio::test]
async fn anthropic_refuses_a_call_outside_the_allowed_set_with_an_error_result() {
    let weather = Weather::default();
    let registry = ToolRegistry::new()
        .with(weather.clone())
        .with(find_account {});
    let options = RunOptions::new().allowed_tools(["find_account"], AllowedMode::Auto);
    let (messages, received) = two_turns(
        "/v1/messages",
        anthropic,
        "/v1",
        recorded("anthropic"),
        registry,
        options,
    )
    .await;
    assert_eq!(
        weather.runs(),
        0,
        "a call outside the allowed set never runs"
    );
    let Some(Message::Tool { results }) = messages.get(2) else {
        panic!("the results follow the calls: {messages:?}")
    };
    assert_eq!(results.len(), 2);
    for result in results {
        assert_eq!(
            result.response.error_code(),
            Some(ToolErrorCode::PermissionDenied)
        );
        assert!(result
            .response
            .model_text()
            .contains("may not be called in this turn; call only 'find_account'"));
    }
    // The model reads the refusals as error results of its calls.
    let second = body(&received[1]);
    let last = second["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["role"], "user");
    assert_eq!(last["content"][0]["type"], "tool_result");
    assert_eq!(last["content"][0]["is_error"], true);
}

/// The recorded Responses turn one with `"namespace": "weather"` on its two calls: in every
/// event that carries the item (`everywhere`), or only in `response.output_item.added`.
fn namespaced_turn1(everywhere: bool) -> String {
    let [turn1, _] = recorded("openai_responses");
    let plain = r#""type":"function_call","#;
    let namespaced = r#""type":"function_call","namespace":"weather","#;
    let lines: Vec<String> = turn1
        .lines()
        .map(|line| {
            if everywhere || line.contains("response.output_item.added") {
                line.replace(plain, namespaced)
            } else {
                line.to_string()
            }
        })
        .collect();
    let turn1 = lines.join("\n") + "\n";
    assert_eq!(
        turn1.matches(namespaced).count(),
        if everywhere { 6 } else { 2 }
    );
    turn1
}

#[tokio::test]
async fn responses_streamed_namespaced_calls_start_under_their_full_name_and_run_once() {
    use tool_core::runner::RunEvent;
    for everywhere in [true, false] {
        for plain_too in [false, true] {
            let case =
                format!("namespace everywhere: {everywhere}, plain get_weather: {plain_too}");
            let weather = Weather::default();
            let plain = Weather::default();
            let mut registry = tools![find_account]
                .merge(
                    &ToolRegistry::new().with(weather.clone()),
                    Shape::new().namespace(ToolNamespace::new("weather", "Weather by city.")),
                )
                .unwrap();
            if plain_too {
                registry = registry.with(plain.clone());
            }
            let [_, turn2] = recorded("openai_responses");
            let route = "/v1/responses";
            let server = server(route, vec![sse(namespaced_turn1(everywhere)), sse(turn2)]).await;
            let runner = Runner::new(responses(format!("{}/v1", server.uri())), registry);
            let events = runner.run_streamed(USER).collect_events().await;
            assert!(
                matches!(events.last(), Some(RunEvent::RunFinished { .. })),
                "{case}: {:?}",
                events.last()
            );
            // The namespaced tool ran once per call; the plain one never.
            assert_eq!(weather.runs(), 2, "{case}");
            assert_eq!(plain.runs(), 0, "{case}");
            // Named in full from the first event on.
            for event in &events {
                match event {
                    RunEvent::CallStarted { name, .. } => {
                        assert_eq!(name, "weather__get_weather", "{case}")
                    }
                    RunEvent::CallReady { call, .. } => {
                        assert_eq!(call.name, "weather__get_weather", "{case}")
                    }
                    _ => {}
                }
            }
            // Exactly one result per call id, the tool's own.
            let results: Vec<(&str, &str, String)> = events
                .iter()
                .filter_map(|event| match event {
                    RunEvent::ToolResult {
                        call_id,
                        name,
                        response,
                    } => Some((
                        call_id.as_str(),
                        name.as_str(),
                        response.model_text().into_owned(),
                    )),
                    _ => None,
                })
                .collect();
            assert_eq!(results.len(), 2, "{case}: {results:?}");
            assert_ne!(results[0].0, results[1].0, "{case}");
            for (_, name, text) in &results {
                assert_eq!(*name, "weather__get_weather", "{case}");
                assert!(
                    text == "15 C, light rain" || text == "22 C, sunny",
                    "{case}: {text}"
                );
            }
            // The calls go back with their namespace, however the stream gave it.
            let received = requests(&server).await;
            http_support::assert_sdk_accepts(route, &received);
            let second = body(&received[1]);
            let calls: Vec<&Value> = second["input"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|item| item["type"] == "function_call")
                .collect();
            assert_eq!(calls.len(), 2, "{case}");
            for call in calls {
                assert_eq!(
                    (&call["name"], &call["namespace"]),
                    (&json!("get_weather"), &json!("weather")),
                    "{case}"
                );
            }
        }
    }
}
