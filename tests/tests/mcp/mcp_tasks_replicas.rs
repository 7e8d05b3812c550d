//! Tasks across replicas: three `mcp_http_replica` processes with `--redis` (sessions and
//! tasks in one real `redis-server`) behind nginx (round-robin, no stickiness), driven by
//! rmcp's client on 2026-07-28 and by raw JSON-RPC on a 2025-11-25 session, the revision's
//! own tasks (every request may reach another replica). A task made on one
//! replica is polled to its result on the others; a cancel reaching another replica ends it
//! `cancelled` and stops the tool on the replica running it; after `kill -9` of the replica
//! running a task, the survivors report it `failed` with an error (on 2025-11-25, its status
//! message, and `tasks/result` the error) within 30 s and go on serving. Needs what `mcp_http_scale.rs` needs (skipped, saying so, without it).

#![cfg(feature = "mcp-redis")]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolResponse, CancelTaskParams, CreateTaskResult, GetTaskParams, ProtocolVersion,
    TaskPayload, TaskStatus,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::RoleClient;
use serde_json::json;
use tool_tests::mcp::harness::{call, text};
use tool_tests::mcp::tasks::TaskClient;

use super::mcp_http_scale::{nginx, redis, replica, scratch, tools_missing, Proc};
use super::raw_session::{task_call, Session};

type Client = RunningService<RoleClient, TaskClient>;

/// Redis, three replicas sharing it, and nginx in front; the replicas' output lines.
struct Deployment {
    _redis: Proc,
    replicas: Vec<(Proc, u16)>,
    _nginx: Proc,
    url: String,
    lines: Arc<Mutex<Vec<String>>>,
    dir: std::path::PathBuf,
}

impl Drop for Deployment {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn deploy(name: &str) -> Deployment {
    let dir = scratch(name);
    let (redis, url) = redis(&dir);
    let lines = Arc::new(Mutex::new(Vec::new()));
    let replicas: Vec<_> = (0..3)
        .map(|_| replica(&["--redis", &url], lines.clone()))
        .collect();
    let ports: Vec<u16> = replicas.iter().map(|(_, port)| *port).collect();
    let (nginx, port) = nginx(&dir, &ports);
    Deployment {
        _redis: redis,
        replicas,
        _nginx: nginx,
        url: format!("http://127.0.0.1:{port}/mcp"),
        lines,
        dir,
    }
}

impl Deployment {
    /// `kill -9` of the replica that printed a line starting with `what`; when it died.
    fn kill_replica_that(&mut self, what: &str) -> Instant {
        let runner = self.replica_that(what);
        let index = self
            .replicas
            .iter()
            .position(|(_, port)| *port == runner)
            .unwrap();
        // `Child::kill` is SIGKILL: no shutdown code runs.
        let (mut victim, _) = self.replicas.remove(index);
        victim.0.kill().unwrap();
        let _ = victim.0.wait();
        Instant::now()
    }

    /// The port of the replica that printed a line starting with `what`, once it has.
    fn replica_that(&self, what: &str) -> u16 {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let found = self.lines.lock().unwrap().iter().find_map(|line| {
                let (port, rest) = line.split_once(' ')?;
                rest.starts_with(what).then(|| port.parse().ok())?
            });
            if let Some(port) = found {
                return port;
            }
            assert!(Instant::now() < deadline, "no replica printed '{what}'");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

async fn client(url: &str) -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    TaskClient { tasks: true }
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap()
}

async fn start(client: &Client, n: u64, ms_per_step: u64) -> CreateTaskResult {
    match client
        .peer()
        .call_tool_once(call(
            "long_count",
            json!({"n": n, "ms_per_step": ms_per_step}),
        ))
        .await
        .unwrap()
    {
        CallToolResponse::Task(created) => created,
        other => panic!("expected a task, got {other:?}"),
    }
}

async fn status(client: &Client, id: &str) -> rmcp::model::DetailedTask {
    client
        .peer()
        .get_task(GetTaskParams::new(id.to_owned()))
        .await
        .unwrap()
        .task
}

#[test]
fn any_replica_polls_answers_and_cancels_a_task() {
    if tools_missing() {
        return;
    }
    let deployment = deploy("tasks-any-replica");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = client(&deployment.url).await;
        // Polled through the proxy: each request may reach any replica.
        let created = start(&client, 20, 40).await;
        let id = created.task.task_id;
        let mut polls = 0;
        let result = loop {
            polls += 1;
            match status(&client, &id).await.payload {
                TaskPayload::Working => tokio::time::sleep(Duration::from_millis(60)).await,
                TaskPayload::Completed { result } => break result,
                other => panic!("unexpected {other:?}"),
            }
        };
        assert!(polls >= 3, "polled on more than one replica: {polls}");
        assert_eq!(result["content"][0]["text"], "counted to 20", "{result:?}");

        // A cancel on whichever replica gets it stops the tool where it runs.
        let created = start(&client, 500, 20).await;
        let id = created.task.task_id;
        let runner = deployment.replica_that("started long_count 500");
        client
            .peer()
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .unwrap();
        for _ in 0..3 {
            assert_eq!(status(&client, &id).await.status(), TaskStatus::Cancelled);
        }
        assert_eq!(
            deployment.replica_that("stopped long_count"),
            runner,
            "the replica running the task stopped its tool"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(status(&client, &id).await.status(), TaskStatus::Cancelled);
        let _ = client.cancel().await;
    });
}

#[test]
fn a_task_whose_replica_is_killed_ends_failed_and_the_others_serve_on() {
    if tools_missing() {
        return;
    }
    let mut deployment = deploy("tasks-killed-replica");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = client(&deployment.url).await;
        // A minute of counting: only the replica's death ends it early.
        let created = start(&client, 3000, 20).await;
        let id = created.task.task_id;
        let killed = deployment.kill_replica_that("started long_count 3000");

        let failed = loop {
            let task = status(&client, &id).await;
            match task.payload {
                TaskPayload::Working => {
                    assert!(
                        killed.elapsed() < Duration::from_secs(30),
                        "still working 30 s after its replica died"
                    );
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                TaskPayload::Failed { error } => break error,
                other => panic!("unexpected {other:?}"),
            }
        };
        assert_eq!(failed["code"], -32603, "{failed:?}");
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .contains("stopped before it finished"),
            "{failed:?}"
        );
        // Unchanged afterwards, and the survivors serve plain calls and new tasks.
        assert_eq!(status(&client, &id).await.status(), TaskStatus::Failed);
        let sum = client
            .peer()
            .call_tool(call("add", json!({"a": 2, "b": 3})))
            .await
            .unwrap();
        assert_eq!(text(&sum), "5");
        let created = start(&client, 3, 10).await;
        let result = loop {
            match status(&client, &created.task.task_id).await.payload {
                TaskPayload::Working => tokio::time::sleep(Duration::from_millis(50)).await,
                TaskPayload::Completed { result } => break result,
                other => panic!("unexpected {other:?}"),
            }
        };
        assert_eq!(result["content"][0]["text"], "counted to 3");
        let _ = client.cancel().await;
    });
}

/// The 2025-11-25 session of this revision's own tasks, through the proxy.
async fn handshake_session(deployment: &Deployment) -> Session {
    let (session, init) = Session::http(&deployment.url).await;
    assert_eq!(
        init["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
        json!({}),
        "{init}"
    );
    session
}

#[test]
fn any_replica_polls_answers_and_cancels_a_2025_11_25_task() {
    if tools_missing() {
        return;
    }
    let deployment = deploy("handshake-tasks-any-replica");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let session = handshake_session(&deployment).await;
        // Polled through the proxy: each request may reach any replica.
        let created = session.ok("tools/call", task_call(20, 40, "r1")).await;
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        let mut polls = 0;
        loop {
            polls += 1;
            let task = session.ok("tasks/get", json!({"taskId": id})).await;
            match task["status"].as_str() {
                Some("working") => tokio::time::sleep(Duration::from_millis(60)).await,
                Some("completed") => break,
                _ => panic!("unexpected {task}"),
            }
        }
        assert!(polls >= 3, "polled on more than one replica: {polls}");
        let result = session.ok("tasks/result", json!({"taskId": id})).await;
        assert_eq!(result["content"][0]["text"], "counted to 20", "{result}");
        assert_eq!(
            result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
            id.as_str()
        );

        // tasks/result waits on whichever replica it reaches.
        let created = session.ok("tools/call", task_call(10, 30, "r2")).await;
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        let result = session.ok("tasks/result", json!({"taskId": id})).await;
        assert_eq!(result["content"][0]["text"], "counted to 10", "{result}");

        // A cancel on whichever replica gets it stops the tool where it runs.
        let created = session.ok("tools/call", task_call(500, 20, "r3")).await;
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        let runner = deployment.replica_that("started long_count 500");
        let cancelled = session.ok("tasks/cancel", json!({"taskId": id})).await;
        assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
        for _ in 0..3 {
            let task = session.ok("tasks/get", json!({"taskId": id})).await;
            assert_eq!(task["status"], "cancelled", "{task}");
        }
        assert_eq!(
            deployment.replica_that("stopped long_count"),
            runner,
            "the replica running the task stopped its tool"
        );
        for _ in 0..3 {
            let code = session
                .error_code("tasks/cancel", json!({"taskId": id}))
                .await;
            assert_eq!(code, -32602, "a cancelled task cannot be cancelled again");
        }
    });
}

#[test]
fn a_2025_11_25_task_whose_replica_is_killed_ends_failed_and_the_others_serve_on() {
    if tools_missing() {
        return;
    }
    let mut deployment = deploy("handshake-tasks-killed-replica");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let session = handshake_session(&deployment).await;
        // A minute of counting: only the replica's death ends it early.
        let created = session.ok("tools/call", task_call(3000, 20, "k1")).await;
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        let killed = deployment.kill_replica_that("started long_count 3000");

        let failed = loop {
            let task = session.ok("tasks/get", json!({"taskId": id})).await;
            match task["status"].as_str() {
                Some("working") => {
                    assert!(
                        killed.elapsed() < Duration::from_secs(30),
                        "still working 30 s after its replica died"
                    );
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Some("failed") => break task,
                _ => panic!("unexpected {task}"),
            }
        };
        assert!(
            failed["statusMessage"]
                .as_str()
                .unwrap_or_default()
                .contains("stopped before it finished"),
            "{failed}"
        );
        // tasks/result gives the error the task ended with.
        let reply = session.request("tasks/result", json!({"taskId": id})).await;
        assert_eq!(reply["error"]["code"], -32603, "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .contains("stopped before it finished"),
            "{reply}"
        );
        // Unchanged afterwards, and the survivors serve plain calls and new tasks.
        let task = session.ok("tasks/get", json!({"taskId": id})).await;
        assert_eq!(task["status"], "failed");
        let sum = session
            .ok(
                "tools/call",
                json!({"name": "add", "arguments": {"a": 2, "b": 3}}),
            )
            .await;
        assert_eq!(sum["content"][0]["text"], "5");
        let created = session.ok("tools/call", task_call(3, 10, "k2")).await;
        let id = created["task"]["taskId"].as_str().unwrap().to_owned();
        let result = session.ok("tasks/result", json!({"taskId": id})).await;
        assert_eq!(result["content"][0]["text"], "counted to 3");
    });
}
