//! Reasoning through the runner, over loopback HTTP, on every API: the request asks for it in
//! the API's own fields, the reasoning streams as `RunEvent::ReasoningDelta` before the text and
//! the calls, and the next request sends the provider's reasoning content back exactly as it
//! came (thinking signatures, redacted thinking, encrypted reasoning items, thought parts).
//! Recorded streams: `tests/fixtures/http/reasoning_*.sse` and the `*_turn*.sse` files, each
//! naming its source in its header.

use serde_json::{json, Value};
use tool_core::http::Endpoint;
use tool_core::model::{
    Anthropic, Gemini, Message, Model, ModelTurn, OpenAiChat, OpenAiResponses, Reasoning,
    ReasoningEffort, ScriptedModel, TextMode, Usage,
};
use tool_core::parse::ToolFormat;
use tool_core::runner::{Run, RunEvent, RunOptions, RunOutcome, Runner};
use wiremock::Request;

use crate::http_support::{self, fixture, registry, requests, server, sse, FINAL_TEXT};

const HIGH: Reasoning = Reasoning::effort(ReasoningEffort::High);

/// Two turns through the runner: the recorded reasoning + call turn, then the final answer.
async fn run_two_turns<M: Model>(
    route: &str,
    make: impl FnOnce(String) -> M,
    base_path: &str,
    turn1: &str,
    turn2: &str,
    options: RunOptions,
    calls: usize,
) -> (Vec<RunEvent>, Run, Vec<Request>) {
    let server = server(route, vec![sse(fixture(turn1)), sse(fixture(turn2))]).await;
    let (registry, weather) = registry();
    let model = make(format!("{}{base_path}", server.uri()));
    let runner = Runner::new(model, registry).with_options(options);
    let mut stream = runner.run_streamed(http_support::USER);
    let mut events = Vec::new();
    while let Some(event) = stream.next_event().await {
        events.push(event);
    }
    let run = stream.take_run().expect("the run is handed back");
    assert!(
        matches!(events.last(), Some(RunEvent::RunFinished { .. })),
        "{:?}",
        events.last()
    );
    assert_eq!(weather.runs(), calls, "each recorded call runs once");
    let received = requests(&server).await;
    http_support::assert_sdk_accepts(route, &received);
    (events, run, received)
}

fn test_endpoint(e: Endpoint, base: String) -> Endpoint {
    http_support::test_endpoint(e, base)
}

fn body(request: &Request) -> Value {
    serde_json::from_slice(&request.body).expect("the request body is JSON")
}

/// The events of turn one, from its start to its end.
fn first_turn(events: &[RunEvent]) -> &[RunEvent] {
    let end = events
        .iter()
        .position(|e| matches!(e, RunEvent::TurnFinished { turn: 1, .. }))
        .expect("turn one finished");
    &events[..=end]
}

fn reasoning_of(events: &[RunEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::ReasoningDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn text_of(events: &[RunEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Every reasoning delta of the turn comes before its first text delta and its first call
/// event, and there are several (it streamed).
fn assert_reasoning_first(turn: &[RunEvent]) {
    let is_reasoning = |e: &RunEvent| matches!(e, RunEvent::ReasoningDelta { .. });
    let last_reasoning = turn.iter().rposition(is_reasoning).expect("reasoning");
    let first_other = turn
        .iter()
        .position(|e| {
            matches!(
                e,
                RunEvent::TextDelta { .. }
                    | RunEvent::CallStarted { .. }
                    | RunEvent::CallReady { .. }
            )
        })
        .expect("text or a call");
    assert!(last_reasoning < first_other, "{turn:?}");
    assert!(
        turn.iter().filter(|e| is_reasoning(e)).count() > 1,
        "{turn:?}"
    );
}

fn assistant_turn(run: &Run, at: usize) -> &ModelTurn {
    match &run.messages()[at] {
        Message::Assistant(turn) => turn,
        other => panic!("message {at} is not the assistant's: {other:?}"),
    }
}

/// The `data:` JSON values of a recorded stream.
fn recorded_events(name: &str) -> Vec<Value> {
    fixture(name)
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d.trim_end()).ok())
        .collect()
}

fn sum_usage(run: &Run) -> Usage {
    run.messages()
        .iter()
        .filter_map(|m| match m {
            Message::Assistant(turn) => turn.usage,
            _ => None,
        })
        .fold(Usage::default(), |a, b| a + b)
}

#[tokio::test]
async fn anthropic_thinking_is_requested_streamed_and_sent_back_in_place() {
    let (events, run, received) = run_two_turns(
        "/v1/messages",
        |base| {
            Anthropic::new("claude-sonnet-4-5")
                .with_api_key("sk-ant-test")
                .with_endpoint(|e| test_endpoint(e, base))
        },
        "/v1",
        "reasoning_anthropic_turn1.sse",
        "anthropic_turn2.sse",
        RunOptions::new().reasoning(HIGH),
        1,
    )
    .await;

    let first = body(&received[0]);
    assert_eq!(
        first["thinking"],
        json!({"type": "enabled", "budget_tokens": 16384})
    );
    assert_eq!(
        first["max_tokens"], 20480,
        "max_tokens is raised above the budget"
    );

    let thinking = "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, \
                    applying successive division until I reach a remainder of zero, which gives \
                    me 21 as the greatest common divisor.";
    let turn = first_turn(&events);
    assert_eq!(reasoning_of(turn), thinking);
    assert_eq!(text_of(turn), "Let me check.");
    assert_reasoning_first(turn);
    assert_eq!(assistant_turn(&run, 1).reasoning, thinking);
    assert_eq!(assistant_turn(&run, 1).usage.unwrap().reasoning_tokens, 62);

    // The blocks as recorded: thinking with its signature and the redacted block, unchanged,
    // before the text and the tool_use.
    let recorded = recorded_events("reasoning_anthropic_turn1.sse");
    let signature = recorded
        .iter()
        .find_map(|e| e.pointer("/delta/signature").and_then(Value::as_str))
        .unwrap();
    let redacted = recorded
        .iter()
        .find_map(|e| e.pointer("/content_block/data").and_then(Value::as_str))
        .unwrap();
    let second = body(&received[1]);
    assert_eq!(second["thinking"], first["thinking"]);
    assert_eq!(
        second["messages"][1],
        json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": thinking, "signature": signature},
            {"type": "redacted_thinking", "data": redacted},
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_01Ni1uw4HXYxUhc4iFMqx7yY", "name": "get_weather",
             "input": {"city": "San Francisco"}, "caller": {"type": "direct"}},
        ]})
    );
    assert_eq!(
        second["messages"][2]["content"][0]["tool_use_id"],
        "toolu_01Ni1uw4HXYxUhc4iFMqx7yY"
    );
    assert_eq!(run.usage(), sum_usage(&run));
}

#[tokio::test]
async fn responses_reasoning_summary_streams_and_encrypted_items_go_back_when_not_stored() {
    let (events, run, received) = run_two_turns(
        "/v1/responses",
        |base| {
            OpenAiResponses::new("gpt-5.1-codex-max")
                .with_api_key("sk-test")
                .with_endpoint(|e| test_endpoint(e, base).with_fields(json!({"store": false})))
        },
        "/v1",
        "openai_responses_turn1.sse",
        "openai_responses_turn2.sse",
        RunOptions::new().reasoning(HIGH),
        2,
    )
    .await;

    let first = body(&received[0]);
    assert_eq!(
        first["reasoning"],
        json!({"effort": "high", "summary": "auto"})
    );
    assert_eq!(first["store"], false);
    assert_eq!(first["include"], json!(["reasoning.encrypted_content"]));

    let recorded = recorded_events("openai_responses_turn1.sse");
    let summary: String = recorded
        .iter()
        .filter(|e| e["type"] == "response.reasoning_summary_text.done")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(!summary.is_empty());
    let turn = first_turn(&events);
    assert_eq!(reasoning_of(turn), summary);
    assert_reasoning_first(turn);
    assert_eq!(assistant_turn(&run, 1).reasoning, summary);

    // The reasoning item goes back exactly as the API sent it, encrypted content included.
    let item = recorded
        .iter()
        .filter(|e| e["type"] == "response.output_item.done")
        .map(|e| &e["item"])
        .find(|item| item["type"] == "reasoning")
        .unwrap();
    assert!(item["encrypted_content"].as_str().unwrap().len() > 100);
    let second = body(&received[1]);
    let sent: Vec<&Value> = second["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["type"] == "reasoning")
        .collect();
    assert_eq!(sent, [item]);
    assert_eq!(second["include"], first["include"]);
    assert_eq!(run.usage(), sum_usage(&run));
}

/// DeepSeek (and vLLM, llama.cpp) stream `reasoning_content`; OpenRouter and newer vLLM
/// `reasoning`. Both are reasoning, never text, and go back in the field they came in.
#[tokio::test]
async fn compatible_servers_reasoning_content_and_reasoning_are_reasoning_deltas() {
    let expected =
        "The user asks about the weather in San Francisco. I should use the weather tool.";
    for turn1 in [
        "reasoning_openai_chat_turn1.sse",
        "reasoning_openrouter_turn1.sse",
    ] {
        let (events, run, received) = run_two_turns(
            "/v1/chat/completions",
            |base| {
                OpenAiChat::compatible(base, "deepseek-v4-flash", Some("sk-test"))
                    .with_endpoint(|e| test_endpoint(e.clone(), e.base_url))
            },
            "/v1",
            turn1,
            "openai_chat_turn2.sse",
            RunOptions::new().reasoning(Reasoning::budget(1000)),
            1,
        )
        .await;
        let first = body(&received[0]);
        assert_eq!(first["reasoning_effort"], "low", "{turn1}");
        assert_eq!(
            received[0].headers.get("authorization").unwrap(),
            "Bearer sk-test"
        );
        let turn = first_turn(&events);
        assert_eq!(reasoning_of(turn), expected, "{turn1}");
        assert_eq!(text_of(turn), "", "{turn1}: reasoning leaked into the text");
        assert_reasoning_first(turn);
        let usage = assistant_turn(&run, 1).usage.unwrap();
        assert_eq!(
            (usage.reasoning_tokens, usage.cached_input_tokens),
            (17, 256)
        );
        // The call turn's reasoning goes back whole on its assistant message, in the field
        // it came in (DeepSeek refuses a later request without it), and only there.
        let (field, other) = if turn1.contains("openrouter") {
            ("reasoning", "reasoning_content")
        } else {
            ("reasoning_content", "reasoning")
        };
        let second = body(&received[1]);
        let assistant = &second["messages"][1];
        assert_eq!(assistant["role"], "assistant");
        assert_eq!(
            assistant["tool_calls"][0]["id"],
            "call_00_IhCAliIHtM9gKpgfqbBV9873"
        );
        assert_eq!(assistant[field], expected, "{turn1}");
        assert!(assistant.get(other).is_none(), "{turn1}");
        assert_eq!(text_of(&events), FINAL_TEXT);
    }
}

#[tokio::test]
async fn gemini_thought_parts_stream_and_go_back_with_their_signatures() {
    let (events, run, received) = run_two_turns(
        "/v1beta/models/gemini-3-pro-preview:streamGenerateContent",
        |base| {
            // Set on the model: every request of every run asks for it.
            Gemini::new("gemini-3-pro-preview")
                .with_api_key("test-key")
                .with_reasoning(Reasoning::budget(2048))
                .with_endpoint(|e| {
                    test_endpoint(e, base)
                        .with_fields(json!({"generationConfig": {"temperature": 1.0}}))
                })
        },
        "/v1beta",
        "reasoning_gemini_turn1.sse",
        "gemini_turn2.sse",
        RunOptions::new(),
        2,
    )
    .await;

    let first = body(&received[0]);
    assert_eq!(
        first["generationConfig"],
        json!({"thinkingConfig": {"thinkingBudget": 2048, "includeThoughts": true}, "temperature": 1.0}),
        "extra fields merge into the adapter's objects"
    );
    let thought = "**Checking the weather**\n\nThe user wants the weather in Paris and Tokyo; I \
                   will call get_weather for each city.";
    let turn = first_turn(&events);
    assert_eq!(reasoning_of(turn), thought);
    assert_eq!(text_of(turn), "Let me check both cities.");
    assert!(
        turn.iter()
            .position(|e| matches!(e, RunEvent::ReasoningDelta { .. }))
            < turn
                .iter()
                .position(|e| matches!(e, RunEvent::TextDelta { .. }))
    );
    assert_eq!(assistant_turn(&run, 1).reasoning, thought);

    let recorded = recorded_events("reasoning_gemini_turn1.sse");
    let signature = recorded
        .iter()
        .flat_map(|c| {
            c.pointer("/candidates/0/content/parts")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .find_map(|p| {
            p.get("thoughtSignature")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap();
    let second = body(&received[1]);
    let parts = second["contents"][1]["parts"].as_array().unwrap();
    assert_eq!(parts[0], json!({"text": thought, "thought": true}));
    let call = parts
        .iter()
        .find(|p| p["functionCall"]["args"]["city"] == "Paris")
        .unwrap();
    assert_eq!(call["thoughtSignature"], signature.as_str());
    assert_eq!(second["generationConfig"], first["generationConfig"]);
}

/// A Qwen3 model behind a server without reasoning or tool parser: the reply's `<think>`
/// block is reasoning, the Hermes call runs, and the reply goes back verbatim.
#[tokio::test]
async fn text_mode_think_block_is_reasoning_and_the_reply_goes_back_verbatim() {
    let (events, run, received) = run_two_turns(
        "/v1/chat/completions",
        |base| {
            TextMode::new(
                OpenAiChat::compatible(base, "Qwen/Qwen3-8B", None)
                    .with_endpoint(|e| test_endpoint(e.clone(), e.base_url)),
                ToolFormat::Hermes,
            )
        },
        "/v1",
        "reasoning_text_think_turn1.sse",
        "openai_chat_turn2.sse",
        RunOptions::new(),
        1,
    )
    .await;
    let turn = first_turn(&events);
    assert_eq!(
        reasoning_of(turn),
        "\nThe user asks for the weather; I will call get_weather.\n"
    );
    assert!(!text_of(turn).contains("think"), "{turn:?}");
    // What follows `</think>` is text as written, its blank line included (as vLLM's
    // reasoning parsers give it).
    assert!(text_of(turn).starts_with("\n\nChecking."), "{turn:?}");
    assert_reasoning_first(turn);
    assert!(received[0].headers.get("authorization").is_none());
    let reply: String = recorded_events("reasoning_text_think_turn1.sse")
        .iter()
        .filter_map(|c| {
            c.pointer("/choices/0/delta/content")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .collect();
    let second = body(&received[1]);
    assert_eq!(second["messages"][2]["content"], reply.as_str());
    assert!(matches!(
        run.messages().last(),
        Some(Message::Assistant(t)) if t.text == FINAL_TEXT
    ));
    // The inner model's response id stays on the text-mode turn.
    assert_eq!(
        assistant_turn(&run, 1).response_id.as_deref(),
        Some("chatcmpl-qwen3")
    );
}

/// Harmony's analysis channel is reasoning too.
#[tokio::test]
async fn text_mode_harmony_analysis_is_reasoning() {
    let inner = ScriptedModel::new([ModelTurn::text(
        "<|channel|>analysis<|message|>The user greets me.<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>",
    )]);
    let runner = Runner::new(
        TextMode::new(inner, ToolFormat::Harmony),
        tool_core::ToolRegistry::new(),
    );
    let events = runner.run_streamed("Hi").collect_events().await;
    assert_eq!(reasoning_of(&events), "The user greets me.");
    assert_eq!(text_of(&events), "Hello!");
    assert!(matches!(
        events.last(),
        Some(RunEvent::RunFinished { outcome: RunOutcome::Finished { text }, .. }) if text == "Hello!"
    ));
}
