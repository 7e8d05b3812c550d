//! Tasks on 2025-11-25 sessions (that revision's own tasks: `params.task`, `tasks/get`,
//! `tasks/result`, `tasks/cancel`), in raw JSON-RPC (neither rmcp's nor the Python SDK's
//! client sends them), over stdio (`serve_stream`) and streamable HTTP, against a server of
//! `long_count`, `add` and a tool that runs only as a task: `initialize` advertises
//! `tasks.requests.tools.call` and `tasks.cancel`; tools/list gives `execution.taskSupport`;
//! a task-augmented call answers at once with `{task}`; `tasks/get` shows the step reached;
//! `tasks/result` waits and gives the plain call's result tied to the task; `tasks/cancel`
//! answers `cancelled` and stops the tool and its progress; the errors are the revision's.
//! The official Python SDK's wire models of 2025-11-25 (`mcp_types`) read every answer
//! (`tests/python/mcp_tasks_handshake_shapes.py`); a 2025-06-18 session sees no tasks.

#![cfg(feature = "mcp-http")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_core::mcp::McpServer;
use tool_core::{tool, tools, CancelFlag, LogLevel, ToolContext};
use tool_tests::mcp::harness::bounded;
use tool_tests::mcp::tasks::{add, long_count};
use tool_tests::mcp::CancelProbe;

use super::raw_session::{task_call, Session};

/// Runs only as a task.
#[tool(task = "required")]
async fn only_as_task(cancel: CancelFlag) -> String {
    let _ = cancel;
    "done".to_owned()
}

/// Logs one line to the client, then answers.
#[tool(task)]
fn noted(ctx: ToolContext<'_>) -> String {
    ctx.log(LogLevel::Info, "noted while running as a task");
    "noted".to_owned()
}

fn server(probe: Arc<CancelProbe>) -> McpServer {
    McpServer::new(tools![long_count, add, only_as_task, noted].with_extension(probe))
        .with_task_timing(Duration::from_secs(30), Duration::from_millis(50))
}

/// Everything a host sees on one session; returns what it was sent, by kind, for the
/// Python SDK's models to read.
async fn a_host_sees_tasks(session: Session, init: Value, probe: Arc<CancelProbe>) -> Value {
    let mut seen = serde_json::Map::new();
    seen.insert("initialize".into(), init["result"].clone());
    // initialize advertises task-augmented tools/call and tasks/cancel (not tasks/list).
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(
        init["result"]["capabilities"]["tasks"],
        json!({"requests": {"tools": {"call": {}}}, "cancel": {}}),
        "{init}"
    );

    // tools/list: `execution` on the tools that may run as tasks, only on them.
    let listed = session.ok("tools/list", json!({})).await;
    let execution = |name: &str| {
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} not listed: {listed}"))
            .get("execution")
            .cloned()
    };
    assert_eq!(
        execution("long_count"),
        Some(json!({"taskSupport": "optional"}))
    );
    assert_eq!(
        execution("only_as_task"),
        Some(json!({"taskSupport": "required"}))
    );
    assert_eq!(execution("add"), None);
    assert!(listed.get("resultType").is_none(), "{listed}");
    seen.insert("tools".into(), listed.clone());

    // A task-augmented call answers at once with the task.
    let asked = Instant::now();
    let created = session.ok("tools/call", task_call(10, 60, "p1")).await;
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "answered at once"
    );
    let task = &created["task"];
    assert_eq!(task["status"], "working", "{created}");
    assert_eq!(task["ttl"], 20_000, "{created}");
    assert_eq!(task["pollInterval"], 50, "{created}");
    for field in ["taskId", "createdAt", "lastUpdatedAt"] {
        assert!(task[field].is_string(), "{field}: {created}");
    }
    let id = task["taskId"].as_str().unwrap().to_owned();
    seen.insert("created".into(), created.clone());

    // tasks/get shows the step reached while it works.
    let mut steps = Vec::new();
    while steps.is_empty() {
        let polled = session.ok("tasks/get", json!({"taskId": id})).await;
        assert_eq!(polled["taskId"], id.as_str());
        assert_eq!(polled["status"], "working", "{polled}");
        steps.extend(polled["statusMessage"].as_str().map(str::to_owned));
        if !steps.is_empty() {
            seen.insert("get".into(), polled);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        steps[0].starts_with("step ") && steps[0].ends_with(" of 10"),
        "{steps:?}"
    );

    // tasks/result waits for the end and gives the plain call's result, tied to the task.
    let waited = Instant::now();
    let mut result = session.ok("tasks/result", json!({"taskId": id})).await;
    assert!(
        waited.elapsed() > Duration::from_millis(100),
        "it waited for the task"
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"],
        json!({"taskId": id})
    );
    seen.insert("result".into(), result.clone());
    result.as_object_mut().unwrap().remove("_meta");
    let plain = session
        .ok(
            "tools/call",
            json!({"name": "long_count", "arguments": {"n": 10, "ms_per_step": 1}}),
        )
        .await;
    assert_eq!(plain["content"][0]["text"], "counted to 10");
    assert_eq!(result, plain);
    let done = session.ok("tasks/get", json!({"taskId": id})).await;
    assert_eq!(done["status"], "completed", "{done}");

    // Progress for the call's token reached the session while the task worked.
    let progress = session.progress("p1");
    assert!(progress.len() >= 5, "{progress:?}");
    assert_eq!(progress.last().unwrap()["params"]["progress"], 10.0);
    for note in &progress {
        let related = &note["params"]["_meta"]["io.modelcontextprotocol/related-task"];
        assert_eq!(related["taskId"], id.as_str(), "{note}");
    }

    // The revision's refusals.
    assert_eq!(
        session
            .error_code("tasks/cancel", json!({"taskId": id}))
            .await,
        -32602
    );
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let code = session
            .error_code(method, json!({"taskId": "no-such-task"}))
            .await;
        assert_eq!(code, -32602, "{method}");
    }
    let required = json!({"name": "only_as_task", "arguments": {}});
    assert_eq!(session.error_code("tools/call", required).await, -32601);
    let never = json!({"name": "add", "arguments": {"a": 1, "b": 2}, "task": {}});
    assert_eq!(session.error_code("tools/call", never).await, -32601);
    let as_task = json!({"name": "only_as_task", "arguments": {}, "task": {}});
    let created = session.ok("tools/call", as_task).await;
    let id2 = created["task"]["taskId"].as_str().unwrap().to_owned();
    let result = session.ok("tasks/result", json!({"taskId": id2})).await;
    assert_eq!(result["content"][0]["text"], "done");

    // tasks/cancel answers the task already cancelled; the tool and its progress stop.
    let stopped = probe.seen.notified();
    let created = session.ok("tools/call", task_call(500, 20, "p2")).await;
    let id = created["task"]["taskId"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let cancelled = session.ok("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(cancelled["taskId"], id.as_str());
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    seen.insert("cancelled".into(), cancelled.clone());
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the tool never saw its cancel flag");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let after_cancel = session.progress("p2").len();
    assert!(after_cancel > 0, "progress came while it worked");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        session.progress("p2").len(),
        after_cancel,
        "progress stopped"
    );
    let polled = session.ok("tasks/get", json!({"taskId": id})).await;
    assert_eq!(polled["status"], "cancelled");
    assert_eq!(
        session
            .error_code("tasks/cancel", json!({"taskId": id}))
            .await,
        -32602
    );

    // A task's tool logs to the client as a plain call's does.
    let created = session
        .ok(
            "tools/call",
            json!({"name": "noted", "arguments": {}, "task": {"ttl": 20_000}}),
        )
        .await;
    let id = created["task"]["taskId"].as_str().unwrap().to_owned();
    let done = session.ok("tasks/result", json!({"taskId": id})).await;
    assert_eq!(done["content"][0]["text"], "noted", "{done}");
    let deadline = Instant::now() + Duration::from_secs(2);
    let logged = loop {
        let logs = session.logs();
        if !logs.is_empty() || Instant::now() > deadline {
            break logs;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert_eq!(logged[0]["params"]["logger"], "noted", "{logged:?}");
    assert_eq!(
        logged[0]["params"]["data"], "noted while running as a task",
        "{logged:?}"
    );
    Value::Object(seen)
}

#[tokio::test]
async fn stdio_sessions_of_2025_11_25_run_tools_as_tasks() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let (session, init) = Session::stdio(server(probe.clone())).await;
        let _ = a_host_sees_tasks(session, init, probe).await;
        other_revisions_get_no_tasks_capability_and_plain_calls().await;
    })
    .await
}

#[tokio::test]
async fn http_sessions_of_2025_11_25_run_tools_as_tasks() {
    bounded(async {
        let probe = Arc::new(CancelProbe::default());
        let serving = server(probe.clone())
            .serve_http("127.0.0.1:0")
            .await
            .unwrap();
        let (session, init) = Session::http(&serving.url()).await;
        let seen = a_host_sees_tasks(session, init, probe).await;
        serving.shutdown().await;
        // The official Python SDK's models of this revision read every answer.
        let file = std::env::temp_dir().join(format!(
            "tool-core-handshake-tasks-{}.json",
            std::process::id()
        ));
        std::fs::write(&file, seen.to_string()).unwrap();
        let checked = tokio::task::spawn_blocking({
            let file = file.clone();
            move || {
                tool_tests::python_checks(
                    "the Python SDK's 2025-11-25 models",
                    "mcp_tasks_handshake_shapes.py",
                    &[file.as_os_str()],
                    6,
                )
            }
        })
        .await
        .unwrap();
        let _ = std::fs::remove_file(&file);
        let _ = checked;
    })
    .await
}

/// A 2025-06-18 session on stdio: no `tasks` capability, no `execution`, and `params.task`
/// ignored (that revision has no tasks).
async fn other_revisions_get_no_tasks_capability_and_plain_calls() {
    {
        let (client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_in) = tokio::io::duplex(1 << 16);
        let served = server(Arc::default());
        tokio::spawn(async move {
            if let Ok(running) = served.serve_stream(server_in, server_out).await {
                let _ = running.waiting().await;
            }
        });
        let mut writer = client_out;
        let mut lines = BufReader::new(client_in).lines();
        let send = |message: Value| {
            let mut line = message.to_string();
            line.push('\n');
            line
        };
        let init = send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "older", "version": "1"}}}),
        );
        writer.write_all(init.as_bytes()).await.unwrap();
        let reply: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
        assert!(
            reply["result"]["capabilities"].get("tasks").is_none(),
            "{reply}"
        );
        let initialized = send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        writer.write_all(initialized.as_bytes()).await.unwrap();
        // A revision without tasks ignores `params.task` and answers plainly.
        let call = send(
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "long_count", "arguments": {"n": 2, "ms_per_step": 1}, "task": {}}}),
        );
        writer.write_all(call.as_bytes()).await.unwrap();
        let reply: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(
            reply["result"]["content"][0]["text"], "counted to 2",
            "{reply}"
        );
        let list = send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
        writer.write_all(list.as_bytes()).await.unwrap();
        let reply: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        let tools = reply["result"]["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 4, "{reply}");
        assert!(
            tools.iter().all(|t| t.get("execution").is_none()),
            "{reply}"
        );
    }
}
