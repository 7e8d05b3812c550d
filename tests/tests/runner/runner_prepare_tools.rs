//! The per-turn hook (`RunOptions::prepare_tools`, as pydantic-ai's `prepare_tools` and the
//! AI SDK's `prepareStep`): it sees the turn and the tools the run would offer and decides
//! which are sent; calls of a tool it left out are refused, never run.

use std::sync::{Arc, Mutex};

use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::runner::{Run, RunOptions, Runner};
use tool_core::{block_on, tool, tools, ToolCall, ToolErrorCode};

/// The ids refunded so far, by every test here (they run in parallel, so each test counts
/// only its own order ids).
static REFUNDS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn refunds_of(id: &str) -> usize {
    REFUNDS
        .lock()
        .map(|ids| ids.iter().filter(|i| *i == id).count())
        .unwrap_or(0)
}

/// Look up an order by id.
#[tool(read_only)]
fn get_order(
    /// Order id.
    id: String,
) -> String {
    format!("order {id}: 2 items, paid")
}

/// Refund an order in full.
#[tool]
fn refund_order(
    /// Order id.
    id: String,
) -> String {
    if let Ok(mut ids) = REFUNDS.lock() {
        ids.push(id.clone());
    }
    format!("refunded {id}")
}

/// Send an email message to a recipient.
#[tool(defer_loading)]
fn send_email(
    /// Recipient address.
    to: String,
) -> String {
    format!("sent to {to}")
}

/// A turn number and the names of the tools the hook was given.
type Seen = (u32, Vec<String>);

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

fn first_result(message: &Message) -> (Option<ToolErrorCode>, String) {
    match message {
        Message::Tool { results } => (
            results[0].response.error_code(),
            results[0].response.model_text().into_owned(),
        ),
        other => panic!("expected tool results, got {other:?}"),
    }
}

/// Refunds only once the order has been looked up (from turn 2 on).
fn refunds_after_lookup() -> RunOptions {
    RunOptions::new().prepare_tools(|turn, mut tools| {
        if turn < 2 {
            tools.retain(|t| t.name != "refund_order");
        }
        tools
    })
}

#[test]
fn a_tool_left_out_is_not_offered_and_its_call_is_refused() {
    let before = refunds_of("A1");
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![call("r1", "refund_order", r#"{"id":"A1"}"#)]),
        ModelTurn::with_calls("", vec![call("g1", "get_order", r#"{"id":"A1"}"#)]),
        ModelTurn::with_calls("", vec![call("r2", "refund_order", r#"{"id":"A1"}"#)]),
        ModelTurn::text("Refunded."),
    ]);
    let runner = Runner::new(model.clone(), tools![get_order, refund_order])
        .with_options(refunds_after_lookup());
    let result = block_on(runner.run("Refund A1")).unwrap();
    let requests = model.requests();
    assert_eq!(requests[0].tools, ["get_order"]);
    assert_eq!(requests[1].tools, ["get_order", "refund_order"]);

    let (code, text) = first_result(&result.messages()[2]);
    assert_eq!(code, Some(ToolErrorCode::PermissionDenied));
    assert!(
        text.contains("`refund_order` is not available on this turn"),
        "{text}"
    );
    assert_eq!(
        first_result(&result.messages()[6]),
        (None, "refunded A1".into())
    );
    assert_eq!(refunds_of("A1") - before, 1, "only the offered call ran");
}

#[test]
fn the_hook_sees_each_turn_and_the_tools_the_run_would_send() {
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let record = Arc::clone(&seen);
    let options = RunOptions::new().prepare_tools(move |turn, tools| {
        let names = tools.iter().map(|t| t.name.clone()).collect();
        record.lock().unwrap().push((turn, names));
        tools
    });
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![call("s1", "search_tools", r#"{"query":"email"}"#)]),
        ModelTurn::with_calls(
            "",
            vec![call("e1", "send_email", r#"{"to":"ann@example.com"}"#)],
        ),
        ModelTurn::text("Sent."),
    ]);
    let runner = Runner::new(model.clone(), tools![get_order, send_email]).with_options(options);
    let result = block_on(runner.run("Email Ann")).unwrap();
    assert_eq!(result.final_text().unwrap(), "Sent.");
    // Once per request, with the run's own search and the tools it found.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            (1, vec!["get_order".into(), "search_tools".into()]),
            (
                2,
                vec![
                    "get_order".into(),
                    "search_tools".into(),
                    "send_email".into()
                ]
            ),
            (
                3,
                vec![
                    "get_order".into(),
                    "search_tools".into(),
                    "send_email".into()
                ]
            ),
        ]
    );
}

#[test]
fn the_hook_may_reorder_and_the_order_is_the_same_on_every_run() {
    let reversed = || {
        RunOptions::new().prepare_tools(|_, mut tools| {
            tools.reverse();
            tools
        })
    };
    let requests = |options: RunOptions| {
        let model = ScriptedModel::new([
            ModelTurn::with_calls("", vec![call("g1", "get_order", r#"{"id":"B2"}"#)]),
            ModelTurn::text("ok"),
        ]);
        let runner =
            Runner::new(model.clone(), tools![get_order, refund_order]).with_options(options);
        block_on(runner.run("Check B2")).unwrap();
        model
            .requests()
            .into_iter()
            .map(|r| r.tools)
            .collect::<Vec<_>>()
    };
    let first = requests(reversed());
    assert_eq!(first[0], ["refund_order", "get_order"]);
    assert_eq!(first, requests(reversed()));
    // Without a hook, registry order.
    assert_eq!(
        requests(RunOptions::new())[0],
        ["get_order", "refund_order"]
    );
}

#[test]
fn a_resumed_run_gets_the_runner_s_hook_again() {
    /// Cancel an order; it cannot be undone.
    #[tool(destructive)]
    fn cancel_order(id: String) -> String {
        format!("cancelled {id}")
    }
    let model = ScriptedModel::new([
        ModelTurn::with_calls("", vec![call("c1", "cancel_order", r#"{"id":"C3"}"#)]),
        ModelTurn::with_calls("", vec![call("r1", "refund_order", r#"{"id":"C3"}"#)]),
        ModelTurn::text("Done."),
    ]);
    let runner = Runner::new(model.clone(), tools![get_order, refund_order, cancel_order])
        .with_options(refunds_after_lookup());
    let paused = block_on(runner.run("Cancel and refund C3")).unwrap();
    let stored = serde_json::to_string(&paused.run).unwrap();
    let mut run: Run = serde_json::from_str(&stored).unwrap();
    run.approve("c1").unwrap();
    let done = block_on(runner.resume(run)).unwrap();
    // Turn 2 offers refunds again, through the hook the restored run got from the runner.
    assert_eq!(
        model.requests()[1].tools,
        ["get_order", "refund_order", "cancel_order"]
    );
    assert_eq!(
        first_result(&done.messages()[4]),
        (None, "refunded C3".into())
    );
}
