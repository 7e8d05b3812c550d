//! 100,000 calls from 64 concurrent tasks on a two-worker runtime over a mix of good, failing,
//! panicking (sync and async), slow and hanging tools: every call gets exactly one response,
//! for its own id, with the right code; nothing is lost.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tool_core::{
    CallFuture, Tool, ToolCall, ToolContext, ToolErrorCode, ToolRegistry, ToolResponse,
};

const TASKS: usize = 64;
const CALLS_PER_TASK: usize = 100_000 / TASKS + 1;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Good,
    Failing,
    Panicking,
    AsyncPanicking,
    Slow,
    Hanging,
}

impl Kind {
    const ALL: [Kind; 6] = [
        Kind::Good,
        Kind::Failing,
        Kind::Panicking,
        Kind::AsyncPanicking,
        Kind::Slow,
        Kind::Hanging,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Good => "good",
            Kind::Failing => "failing",
            Kind::Panicking => "panicking",
            Kind::AsyncPanicking => "async_panicking",
            Kind::Slow => "slow",
            Kind::Hanging => "hanging",
        }
    }

    /// Mostly good calls, as in real traffic, but every failure kind in every task.
    fn for_call(i: usize) -> Kind {
        match i % 16 {
            0..=6 => Kind::Good,
            7..=9 => Kind::Failing,
            10 | 11 => Kind::Panicking,
            12 => Kind::AsyncPanicking,
            13 | 14 => Kind::Slow,
            _ => Kind::Hanging,
        }
    }

    fn expected_code(self) -> Option<ToolErrorCode> {
        match self {
            Kind::Good | Kind::Slow => None,
            Kind::Failing => Some(ToolErrorCode::RateLimit),
            Kind::Panicking | Kind::AsyncPanicking => Some(ToolErrorCode::ExecutionError),
            Kind::Hanging => Some(ToolErrorCode::Timeout),
        }
    }
}

struct Behaving(Kind);

impl Tool for Behaving {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn description(&self) -> &str {
        "Behaves as its kind says."
    }
    fn timeout_ms(&self) -> Option<u64> {
        matches!(self.0, Kind::Hanging).then_some(2)
    }
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {}})
    }
    fn call<'a>(&'a self, _arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        let id = ctx.call_id();
        match self.0 {
            Kind::Good => CallFuture::ready(ToolResponse::success(id)),
            Kind::Failing => CallFuture::ready(ToolResponse::error(ToolErrorCode::RateLimit, id)),
            Kind::Panicking => panic!("sync panic in {id}"),
            Kind::AsyncPanicking => CallFuture::new(async move {
                tokio::task::yield_now().await;
                panic!("async panic in {id}")
            }),
            Kind::Slow => CallFuture::new(async move {
                for _ in 0..3 {
                    tokio::task::yield_now().await;
                }
                ToolResponse::success(id)
            }),
            Kind::Hanging => CallFuture::new(async move {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                ToolResponse::success(id)
            }),
        }
    }
}

fn check(kind: Kind, id: &str, response: &ToolResponse) {
    assert_eq!(
        response.error_code(),
        kind.expected_code(),
        "{id} ({kind:?})"
    );
    let message = response.error_message().unwrap_or_default();
    match kind {
        Kind::Good | Kind::Slow => assert_eq!(response.text, id),
        Kind::Failing => assert_eq!(message, id),
        Kind::Panicking | Kind::AsyncPanicking => {
            assert!(message.ends_with(&format!("panic in {id}). This is a fault in the tool, not in your arguments; do not retry the same call, try another approach.")), "{message}")
        }
        Kind::Hanging => assert!(message.contains("'hanging' did not finish within 2 ms")),
    }
}

#[test]
fn one_hundred_thousand_concurrent_calls_each_get_exactly_one_right_response() {
    // Thousands of deliberate panics, on this thread and the runtime's workers: keep the
    // output readable.
    crate::quiet_panics::quiet_panics();
    let mut registry = ToolRegistry::new();
    for kind in Kind::ALL {
        registry.register(Behaving(kind)).unwrap();
    }
    let registry = Arc::new(registry);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .on_thread_start(crate::quiet_panics::quiet_panics)
        .enable_time()
        .build()
        .unwrap();
    let answered: Vec<String> = runtime.block_on(async {
        let mut handles = Vec::new();
        for task in 0..TASKS {
            let registry = Arc::clone(&registry);
            handles.push(tokio::spawn(async move {
                let calls: Vec<(Kind, ToolCall)> = (0..CALLS_PER_TASK)
                    .map(|i| {
                        let kind = Kind::for_call(i + task);
                        (
                            kind,
                            ToolCall::new(format!("t{task}-{i}"), kind.name(), "{}"),
                        )
                    })
                    .collect();
                let mut ids = Vec::with_capacity(calls.len());
                if task % 2 == 0 {
                    // Half the tasks call one at a time...
                    for (kind, call) in &calls {
                        let response = registry.call(call).await;
                        check(*kind, &call.id, &response);
                        ids.push(call.id.clone());
                    }
                } else {
                    // ...half in parallel batches, as a model's parallel tool calls arrive.
                    for batch in calls.chunks(8) {
                        let just_calls: Vec<ToolCall> =
                            batch.iter().map(|(_, c)| c.clone()).collect();
                        let responses = registry.call_all(&just_calls).await;
                        assert_eq!(responses.len(), batch.len());
                        for ((kind, call), response) in batch.iter().zip(&responses) {
                            check(*kind, &call.id, response);
                            ids.push(call.id.clone());
                        }
                    }
                }
                ids
            }));
        }
        let mut all = Vec::new();
        for handle in handles {
            all.extend(handle.await.expect("a task died"));
        }
        all
    });

    assert_eq!(answered.len(), TASKS * CALLS_PER_TASK);
    assert!(answered.len() >= 100_000);
    let unique: HashSet<&String> = answered.iter().collect();
    assert_eq!(
        unique.len(),
        answered.len(),
        "every id answered exactly once"
    );
}
