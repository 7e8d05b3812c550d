//! The sans-IO run, stepped by hand with no async runtime and no executor at all: the test
//! plays the model and runs the tools itself (synchronous tool functions called directly),
//! checking every step of a two-turn conversation with parallel calls.

use tool_core::model::{Message, ModelTurn, StopReason, ToolResult, Usage};
use tool_core::provider::ToolChoice;
use tool_core::runner::{Run, RunError, RunOptions, RunOutcome, Step};
use tool_core::{tool, tools, ToolCall, ToolErrorCode, ToolResponse};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 21 C")
}

/// Local time in a city.
#[tool(read_only)]
fn get_time(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 10:00")
}

fn weather_call(id: &str, city: &str) -> ToolCall {
    ToolCall::new(id, "get_weather", format!(r#"{{"city":"{city}"}}"#))
}

/// Serializes and restores the run, so every step also proves the state survives storage.
fn round_trip(run: &Run) -> Run {
    let json = serde_json::to_string(run).unwrap();
    serde_json::from_str(&json).unwrap()
}

#[test]
fn two_turns_with_parallel_calls_step_by_step() {
    let registry = tools![get_weather, get_time];
    let mut run = Run::new(
        "Weather in Paris and Tokyo?",
        RunOptions::new().instructions("Be brief."),
    );

    // Step 1: a model turn is due; the request carries the conversation and every tool.
    match run.step(&registry).unwrap() {
        Step::CallModel(request) => {
            assert_eq!(request.instructions, Some("Be brief."));
            assert_eq!(
                request.messages,
                &[Message::user("Weather in Paris and Tokyo?")]
            );
            let names: Vec<&str> = request
                .tools
                .definitions()
                .iter()
                .map(|d| d.name.as_str())
                .collect();
            assert_eq!(names, ["get_weather", "get_time"]);
            assert_eq!(request.tool_choice, &ToolChoice::Auto);
            assert!(request.parallel_tool_calls);
        }
        other => panic!("expected a model call, got {other:?}"),
    }
    // Asking again before answering repeats the same step.
    assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(_)));

    // The model answers with text and two parallel calls.
    let mut first = ModelTurn::with_calls(
        "Checking both.",
        vec![weather_call("c1", "Paris"), weather_call("c2", "Tokyo")],
    );
    first.usage = Some(Usage::new(100, 20));
    run.record_turn(first, &registry).unwrap();
    let mut run = round_trip(&run);
    assert_eq!(run.turns(), 1);

    // Step 2: both calls are to be run, in call order, none held for approval.
    let responses = match run.step(&registry).unwrap() {
        Step::RunTools(batch) => {
            let ids: Vec<&str> = batch.calls.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, ["c1", "c2"]);
            assert!(batch.approved.is_empty() && batch.denied.is_empty());
            assert_eq!(batch.offered, None);
            // Run them in reverse order (as a concurrent runtime might finish them); the
            // responses are still reported in call order.
            let tokyo = get_weather("Tokyo".into());
            let paris = get_weather("Paris".into());
            vec![ToolResponse::success(paris), ToolResponse::success(tokyo)]
        }
        other => panic!("expected tools to run, got {other:?}"),
    };
    // A model turn now would be out of order and changes nothing.
    let early = run.record_turn(ModelTurn::text("too early"), &registry);
    assert_eq!(
        early,
        Err(RunError::OutOfOrder {
            given: "a model turn",
            expected: "tool results"
        })
    );
    run.record_results(responses).unwrap();
    let mut run = round_trip(&run);

    // Step 3: the second request carries the assistant turn (text before its calls) and
    // one results message in call order.
    match run.step(&registry).unwrap() {
        Step::CallModel(request) => {
            assert_eq!(request.messages.len(), 3);
            let Message::Assistant(turn) = &request.messages[1] else {
                panic!("expected the assistant turn, got {:?}", request.messages[1]);
            };
            assert_eq!(turn.text, "Checking both.");
            assert_eq!(turn.calls.len(), 2);
            assert_eq!(
                request.messages[2],
                Message::Tool {
                    results: vec![
                        ToolResult::new("c1", "get_weather", ToolResponse::success("Paris: 21 C")),
                        ToolResult::new("c2", "get_weather", ToolResponse::success("Tokyo: 21 C")),
                    ]
                }
            );
        }
        other => panic!("expected a model call, got {other:?}"),
    }
    let mut last = ModelTurn::text("Paris and Tokyo are both at 21 C.");
    last.usage = Some(Usage::new(150, 12));
    run.record_turn(last, &registry).unwrap();

    // Step 4: done, with the final text, two turns and the summed usage.
    let run = round_trip(&run);
    let mut run = run;
    match run.step(&registry).unwrap() {
        Step::Done(RunOutcome::Finished { text }) => {
            assert_eq!(text, "Paris and Tokyo are both at 21 C.")
        }
        other => panic!("expected the end, got {other:?}"),
    }
    assert_eq!(run.turns(), 2);
    assert_eq!(run.usage(), Usage::new(250, 32));
    assert_eq!(run.messages().len(), 4);
}

#[test]
fn missing_responses_become_errors_so_every_call_has_one_result() {
    let registry = tools![get_weather, get_time];
    let mut run = Run::new("x", RunOptions::default());
    run.record_turn(
        ModelTurn::with_calls(
            "",
            vec![weather_call("c1", "Paris"), weather_call("c2", "Rome")],
        ),
        &registry,
    )
    .unwrap();
    assert!(matches!(run.step(&registry).unwrap(), Step::RunTools(_)));
    run.record_results(vec![ToolResponse::success("Paris: 21 C")])
        .unwrap();
    let Some(Message::Tool { results }) = run.messages().last() else {
        panic!("expected results");
    };
    assert_eq!(results.len(), 2);
    assert_eq!(results[1].call_id, "c2");
    assert_eq!(
        results[1].response.error_code(),
        Some(ToolErrorCode::Unknown)
    );
}

#[test]
fn offered_subset_is_what_the_request_carries_and_unknown_names_are_errors() {
    let registry = tools![get_weather, get_time];
    let mut run = Run::new("x", RunOptions::new().offer(["get_time"]));
    match run.step(&registry).unwrap() {
        Step::CallModel(request) => {
            assert_eq!(request.tools.definitions().len(), 1);
            assert_eq!(request.tools.definitions()[0].name, "get_time");
        }
        other => panic!("{other:?}"),
    }
    let mut bad = Run::new("x", RunOptions::new().offer(["get_tiem"]));
    assert_eq!(
        bad.step(&registry).unwrap_err(),
        RunError::UnknownOfferedTool {
            name: "get_tiem".into()
        }
    );
}

#[test]
fn a_turn_cut_by_the_token_limit_without_calls_finishes_with_its_text() {
    let registry = tools![get_weather];
    let mut run = Run::new("x", RunOptions::default());
    let mut turn = ModelTurn::text("The answer is");
    turn.stop_reason = StopReason::MaxTokens;
    run.record_turn(turn, &registry).unwrap();
    assert_eq!(
        run.outcome(),
        Some(&RunOutcome::Finished {
            text: "The answer is".into()
        })
    );
    let Some(Message::Assistant(recorded)) = run.messages().last() else {
        panic!()
    };
    assert_eq!(recorded.stop_reason, StopReason::MaxTokens);
}
