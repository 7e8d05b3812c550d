//! `run_streamed`: the order and content of run events, and text handed out before any call
//! of the same turn runs.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};

use tool_core::model::{ModelTurn, ScriptedModel, Stream, Usage};
use tool_core::runner::{RunEvent, RunOutcome, Runner};
use tool_core::{block_on, tool, tools, ToolCall, ToolEvent, ToolResponse};

static EXECUTED: AtomicBool = AtomicBool::new(false);

/// Finds books and shows them as cards.
#[tool(read_only)]
fn find_books(
    /// Topic.
    topic: String,
) -> ToolResponse {
    EXECUTED.store(true, Ordering::SeqCst);
    ToolResponse::success(format!("2 books on {topic}")).with_event(ToolEvent::new(
        "cards",
        serde_json::json!([{"title": format!("{topic} 101")}]),
    ))
}

/// Shows one card (no side effects to observe).
#[tool(read_only)]
fn show_card(
    /// Topic.
    topic: String,
) -> ToolResponse {
    ToolResponse::success(format!("2 books on {topic}")).with_event(ToolEvent::new(
        "cards",
        serde_json::json!([{"title": format!("{topic} 101")}]),
    ))
}

fn label(event: &RunEvent) -> String {
    match event {
        RunEvent::TurnStarted { turn } => format!("turn_started {turn}"),
        RunEvent::TextDelta { text } => format!("text {text:?}"),
        RunEvent::CallStarted { index, id, name } => format!("call_started {index} {id} {name}"),
        RunEvent::ArgumentsDelta { index, delta } => format!("args {index} {delta}"),
        RunEvent::CallReady { index, call } => format!("call_ready {index} {}", call.id),
        RunEvent::TurnFinished {
            turn,
            stop_reason,
            usage,
        } => format!("turn_finished {turn} {stop_reason:?} {usage:?}"),
        RunEvent::ToolEvent { call_id, event } => {
            format!("tool_event {call_id} {} {}", event.kind, event.data)
        }
        RunEvent::ToolResult {
            call_id, response, ..
        } => format!("tool_result {call_id} {}", response.model_text()),
        RunEvent::ApprovalRequired { calls } => format!("approval {}", calls.len()),
        RunEvent::RunFinished {
            outcome,
            usage,
            turns,
        } => {
            format!("run_finished {outcome:?} {} {turns}", usage.total())
        }
        RunEvent::RunFailed { error, usage } => format!("run_failed {error} {}", usage.total()),
        other => format!("{other:?}"),
    }
}

#[test]
fn events_arrive_in_order_with_text_before_calls_and_side_channel_before_results() {
    let mut first = ModelTurn::with_calls(
        "Looking up.",
        vec![
            ToolCall::new("c1", "find_books", r#"{"topic":"rust"}"#),
            ToolCall::new("c2", "find_books", r#"{"topic":"go"}"#),
        ],
    );
    first.usage = Some(Usage::new(10, 5));
    let model = ScriptedModel::new([first, ModelTurn::text("Two topics.")]).with_chunk_size(6);
    let runner = Runner::new(model, tools![find_books]);

    // Poll by hand: while turn 1's text streams out, the tools have not run.
    let mut stream = runner.run_streamed("Books on rust and go?");
    let mut events = Vec::new();
    block_on(async {
        while let Some(event) = std::future::poll_fn(|cx| Pin::new(&mut stream).poll_next(cx)).await
        {
            if matches!(
                event,
                RunEvent::TextDelta { .. } | RunEvent::CallReady { .. }
            ) && events
                .iter()
                .all(|e| !matches!(e, RunEvent::ToolResult { .. }))
            {
                assert!(
                    !EXECUTED.load(Ordering::SeqCst),
                    "a tool ran before {event:?} was handed out"
                );
            }
            events.push(event);
        }
    });
    let labels: Vec<String> = events.iter().map(label).collect();
    let expected = [
        "turn_started 1",
        "text \"Lookin\"",
        "text \"g up.\"",
        "call_started 0 c1 find_books",
        "args 0 {\"topi",
        "args 0 c\":\"ru",
        "args 0 st\"}",
        "call_ready 0 c1",
        // Each call starts as soon as it is complete, while the model streams on.
        "tool_event c1 cards [{\"title\":\"rust 101\"}]",
        "tool_result c1 2 books on rust",
        "call_started 1 c2 find_books",
        "args 1 {\"topi",
        "args 1 c\":\"go",
        "args 1 \"}",
        "call_ready 1 c2",
        "tool_event c2 cards [{\"title\":\"go 101\"}]",
        "tool_result c2 2 books on go",
        "turn_finished 1 ToolUse Some(Usage { input_tokens: 10, output_tokens: 5, cached_input_tokens: 0, reasoning_tokens: 0 })",
        "turn_started 2",
        "text \"Two to\"",
        "text \"pics.\"",
        "turn_finished 2 EndTurn None",
        "run_finished Finished { text: \"Two topics.\" } 15 2",
    ];
    assert_eq!(labels, expected);

    // The run comes back after the stream ends.
    let run = stream.take_run().expect("the run after the last event");
    assert_eq!(
        run.outcome(),
        Some(&RunOutcome::Finished {
            text: "Two topics.".into()
        })
    );
}

#[test]
fn events_serialize_as_tagged_json_for_event_streams() {
    let runner = Runner::new(
        ScriptedModel::new([ModelTurn::with_calls(
            "",
            vec![ToolCall::new("c1", "show_card", r#"{"topic":"x"}"#)],
        )]),
        tools![show_card],
    );
    let events = block_on(runner.run_streamed("x").collect_events());
    let json: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert_eq!(json[0], r#"{"type":"turn_started","turn":1}"#);
    assert!(json.contains(&r#"{"type":"tool_event","call_id":"c1","event":{"kind":"cards","data":[{"title":"x 101"}]}}"#.to_string()));
    // The response as the protocol spells it; `stats.time_ms` varies, so it is checked apart.
    let result = json
        .iter()
        .find(|j| j.starts_with(r#"{"type":"tool_result""#))
        .unwrap();
    let mut result: serde_json::Value = serde_json::from_str(result).unwrap();
    let stats = result["response"]
        .as_object_mut()
        .unwrap()
        .remove("stats")
        .unwrap();
    assert!(stats["time_ms"].is_u64());
    assert_eq!(
        result.to_string(),
        r#"{"type":"tool_result","call_id":"c1","name":"show_card","response":{"status":"SUCCESS","text":"2 books on x","events":[{"kind":"cards","data":[{"title":"x 101"}]}]}}"#
    );
    // The script has no second turn: the run fails, and says so as its last event.
    assert_eq!(
        json.last().unwrap(),
        r#"{"type":"run_failed","error":{"kind":"model","message":"model request failed (other): the script has no turn 2 (it has 1)","retryable":false,"model_kind":"other"},"usage":{"input_tokens":0,"output_tokens":0,"cached_input_tokens":0,"reasoning_tokens":0}}"#
    );
}

/// Deletes a draft.
#[tool(destructive)]
fn delete_draft(
    /// Draft id.
    id: u32,
) -> String {
    format!("deleted draft {id}")
}

#[test]
fn a_streamed_run_pauses_for_approval_and_resumes_from_the_stored_run() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "Deleting it.",
            vec![ToolCall::new("c1", "delete_draft", r#"{"id":7}"#)],
        ),
        ModelTurn::text("Draft 7 is gone."),
    ]);
    let runner = Runner::new(model, tools![delete_draft]);

    let mut stream = runner.run_streamed("Delete draft 7");
    let events = block_on(async {
        let mut events = Vec::new();
        while let Some(event) = stream.next_event().await {
            events.push(label(&event));
        }
        events
    });
    assert_eq!(&events[events.len() - 2..], [
        "approval 1",
        "run_finished AwaitingApproval { calls: [ToolCall { id: \"c1\", name: \"delete_draft\", arguments: \"{\\\"id\\\":7}\", caller: None, namespace: None }] } 0 1",
    ]);
    assert!(!events.iter().any(|e| e.starts_with("tool_result")));

    let stored = serde_json::to_string(&stream.take_run().unwrap()).unwrap();
    let mut run: tool_core::runner::Run = serde_json::from_str(&stored).unwrap();
    run.approve("c1").unwrap();
    let events: Vec<String> = block_on(
        runner
            .resume_streamed(run, tool_core::CancelFlag::new())
            .collect_events(),
    )
    .iter()
    .map(label)
    .collect();
    assert_eq!(events[0], "tool_result c1 deleted draft 7");
    assert_eq!(
        events.last().unwrap(),
        "run_finished Finished { text: \"Draft 7 is gone.\" } 0 2"
    );
}
