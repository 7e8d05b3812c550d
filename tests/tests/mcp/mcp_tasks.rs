//! Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28) with rmcp's client:
//! `server/discover` offers the extension; a call of `long_count` from a client that declares
//! it answers at once with the task, `tasks/get` follows it (the step reached while working,
//! the plain call's result when completed), `tasks/cancel` ends it `cancelled` for good and
//! stops the tool; an unknown task is `-32602`, `tasks/get` without the extension `-32021`,
//! and a client without it gets the plain result. Our own client (`McpClient`) follows a
//! remote task to an ordinary response and cancels it with the caller's flag.

#![cfg(feature = "mcp")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResponse, CancelTaskParams, GetTaskParams, TaskPayload, TaskStatus};
use rmcp::service::{RunningService, ServiceError};
use rmcp::RoleClient;
use serde_json::json;
use tool_tests::mcp::harness::{bounded, call, text};
use tool_tests::mcp::tasks::{modern, server, TaskClient};
use tool_tests::mcp::CancelProbe;

type Client = RunningService<RoleClient, TaskClient>;

async fn start(client: &Client, n: u64, ms_per_step: u64) -> rmcp::model::CreateTaskResult {
    let response = client
        .peer()
        .call_tool_once(call(
            "long_count",
            json!({"n": n, "ms_per_step": ms_per_step}),
        ))
        .await
        .unwrap();
    match response {
        CallToolResponse::Task(created) => created,
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn get(client: &Client, id: &str) -> rmcp::model::GetTaskResult {
    client
        .peer()
        .get_task(GetTaskParams::new(id.to_owned()))
        .await
        .unwrap()
}

fn error_code(error: ServiceError) -> i32 {
    match error {
        ServiceError::McpError(e) => e.code.0,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_task_answers_at_once_and_tasks_get_follows_it_to_the_plain_result() {
    bounded(async {
        let client = modern(server(Arc::default()), true).await;
        let info = client.peer().peer_info().unwrap();
        assert!(
            info.capabilities.supports_tasks(),
            "discover offers the tasks extension: {:?}",
            info.capabilities
        );

        let asked = Instant::now();
        let created = start(&client, 10, 60).await;
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "answered at once"
        );
        let wire = serde_json::to_value(&created).unwrap();
        assert_eq!(wire["resultType"], "task", "{wire}");
        assert_eq!(wire["status"], "working", "{wire}");
        assert_eq!(wire["ttlMs"], 30_000, "{wire}");
        assert_eq!(wire["pollIntervalMs"], 50, "{wire}");
        for field in ["taskId", "createdAt", "lastUpdatedAt"] {
            assert!(wire[field].is_string(), "{field}: {wire}");
        }
        let id = created.task.task_id.clone();

        // While working, the status message shows the step reached.
        let mut steps = Vec::new();
        let result = loop {
            let polled = get(&client, &id).await;
            assert!(polled.result_type.is_complete());
            match polled.task.payload {
                TaskPayload::Working => {
                    if let Some(message) = polled.task.task.status_message {
                        steps.push(message);
                    }
                }
                TaskPayload::Completed { result } => break result,
                other => panic!("unexpected {other:?}"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(
            steps
                .iter()
                .any(|s| s.starts_with("step ") && s.ends_with(" of 10")),
            "{steps:?}"
        );

        // The result is the plain call's, and stays readable.
        let plain = modern(server(Arc::default()), false).await;
        let expected = plain
            .peer()
            .call_tool(call("long_count", json!({"n": 10, "ms_per_step": 1})))
            .await
            .unwrap();
        assert_eq!(text(&expected), "counted to 10");
        assert_eq!(
            serde_json::Value::Object(result.clone()),
            serde_json::to_value(&expected).unwrap()
        );
        let again = get(&client, &id).await;
        assert_eq!(again.task.status(), TaskStatus::Completed);
        plain.cancel().await.unwrap();
        client.cancel().await.unwrap();
    })
    .await
}

#[tokio::test]
async fn tasks_cancel_ends_the_task_cancelled_for_good_and_stops_the_tool() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let client = modern(server(probe.clone()), true).await;
        // 500 steps of 20 ms: ten seconds unless the cancel stops it.
        let created = start(&client, 500, 20).await;
        let id = created.task.task_id.clone();
        tokio::time::sleep(Duration::from_millis(150)).await;
        let stopped = probe.seen.notified();
        client
            .peer()
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .unwrap();
        assert_eq!(get(&client, &id).await.task.status(), TaskStatus::Cancelled);
        tokio::time::timeout(Duration::from_secs(5), stopped)
            .await
            .expect("the tool never saw its cancel flag");
        assert!(probe.was_cancelled());
        // Unchanged after the tool has returned.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(get(&client, &id).await.task.status(), TaskStatus::Cancelled);
        client.cancel().await.unwrap();
    })
    .await
}

#[tokio::test]
async fn unknown_tasks_and_clients_without_the_extension_are_refused() {
    bounded(async {
        let client = modern(server(Arc::default()), true).await;
        let unknown = client
            .peer()
            .get_task(GetTaskParams::new("no-such-task"))
            .await
            .unwrap_err();
        assert_eq!(error_code(unknown), -32602);
        let cancel_unknown = client
            .peer()
            .cancel_task(CancelTaskParams::new("no-such-task"))
            .await
            .unwrap_err();
        assert_eq!(error_code(cancel_unknown), -32602);
        // A tool that never runs as a task answers plainly even to a task client.
        let sum = client
            .peer()
            .call_tool_once(call("add", json!({"a": 2, "b": 3})))
            .await
            .unwrap();
        assert!(matches!(sum, CallToolResponse::Complete(_)), "{sum:?}");
        let created = start(&client, 1, 1).await;
        client.cancel().await.unwrap();

        let plain = modern(server(Arc::default()), false).await;
        let refused = plain
            .peer()
            .get_task(GetTaskParams::new(created.task.task_id))
            .await
            .unwrap_err();
        assert_eq!(error_code(refused), -32021);
        let result = plain
            .peer()
            .call_tool_once(call("long_count", json!({"n": 2, "ms_per_step": 1})))
            .await
            .unwrap();
        match result {
            CallToolResponse::Complete(result) => assert_eq!(text(&result), "counted to 2"),
            other => panic!("a client without the extension gets the plain result: {other:?}"),
        }
        plain.cancel().await.unwrap();
    })
    .await
}

/// Our client on a 2026-07-28 session with the task server, its tools in a registry.
async fn imported(probe: Arc<CancelProbe>) -> (tool_core::mcp::McpClient, tool_core::ToolRegistry) {
    use tool_core::mcp::{McpClient, ProtocolEra};
    let (near, far) = tokio::io::duplex(1 << 16);
    let served = server(probe);
    tokio::spawn(async move {
        if let Ok(running) = served.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    let client = McpClient::builder()
        .protocol(ProtocolEra::Discover)
        .connect(near)
        .await
        .unwrap();
    let mut registry = tool_core::ToolRegistry::new();
    client
        .register_into(&mut registry, Some("remote_"))
        .unwrap();
    (client, registry)
}

#[tokio::test]
async fn our_client_follows_a_remote_task_to_an_ordinary_result() {
    use tool_core::{CallContext, ProgressReporter, ToolCall};
    bounded(async {
        let (_client, registry) = imported(Arc::default()).await;
        let statuses = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let seen = statuses.clone();
        let progress = ProgressReporter::new(move |update| {
            seen.lock().unwrap().extend(update.message);
        });
        let call = ToolCall::new("c1", "remote_long_count", r#"{"n": 8, "ms_per_step": 60}"#);
        let reply = registry
            .call_in(&call, &CallContext::new().with_progress(progress))
            .await;
        assert!(!reply.is_error(), "{}", reply.model_text());
        assert_eq!(reply.model_text(), "counted to 8");
        // The task's status messages reached the caller as progress while it polled.
        let statuses = statuses.lock().unwrap().clone();
        assert!(
            statuses
                .iter()
                .any(|s| s.starts_with("step ") && s.ends_with(" of 8")),
            "{statuses:?}"
        );
    })
    .await
}

#[tokio::test]
async fn the_callers_cancel_flag_cancels_a_remote_task_and_stops_the_tool() {
    use tool_core::{CallContext, CancelFlag, ToolCall};
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let (_client, registry) = imported(probe.clone()).await;
        let cancel = CancelFlag::new();
        let stopped = probe.seen.notified();
        let raise = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            raise.cancel();
        });
        let call = ToolCall::new(
            "c2",
            "remote_long_count",
            r#"{"n": 500, "ms_per_step": 20}"#,
        );
        let started = Instant::now();
        let reply = registry
            .call_in(&call, &CallContext::new().with_cancel(cancel))
            .await;
        assert!(started.elapsed() < Duration::from_secs(3), "stopped early");
        assert!(reply.is_error());
        assert!(
            reply.model_text().contains("was cancelled"),
            "{}",
            reply.model_text()
        );
        tokio::time::timeout(Duration::from_secs(5), stopped)
            .await
            .expect("the remote tool never saw its cancel flag");
    })
    .await
}
