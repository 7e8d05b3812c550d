//! The task tests' peers: `long_count` (a slow tool that may run as a task, as in the
//! `mcp_http` example) reporting its stop to a [`CancelProbe`], and rmcp's client on a
//! 2026-07-28 session declaring the tasks extension or not.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ClientCapabilities, ClientConfig, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{ClientHandler, RoleClient};
use tool_core::mcp::McpServer;
use tool_core::{tool, tools, CancelFlag, Extension, ProgressReporter, ToolRegistry};

use super::CancelProbe;

/// How far the last `long_count` that saw its cancel flag had counted.
pub static STOPPED_AT: AtomicU64 = AtomicU64::new(0);

/// Counts from 1 to `n`, one step every `ms_per_step` milliseconds, and answers
/// "counted to N"; reports each step as progress and stops when cancelled.
#[tool(task)]
pub async fn long_count(
    /// The number to count to.
    n: u64,
    /// How long each step takes, in milliseconds.
    ms_per_step: u64,
    progress: ProgressReporter,
    cancel: CancelFlag,
    probe: Option<Extension<Arc<CancelProbe>>>,
) -> String {
    // The replica binary's tests read which replica runs it.
    println!("started long_count {n}");
    for step in 1..=n {
        if cancel.is_cancelled() {
            STOPPED_AT.store(step - 1, Ordering::SeqCst);
            // The replica binary's test reads which replica stopped it.
            println!("stopped long_count after {} steps", step - 1);
            if let Some(Extension(probe)) = &probe {
                probe.record();
            }
            return format!("cancelled after {} of {n} steps", step - 1);
        }
        tokio::time::sleep(Duration::from_millis(ms_per_step)).await;
        progress.report(
            step as f64,
            Some(n as f64),
            Some(&format!("step {step} of {n}")),
        );
    }
    format!("counted to {n}")
}

/// Adds two integers (a tool that never runs as a task).
#[tool]
pub fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// `long_count` and `add`, with `probe` for `long_count`'s stop.
pub fn registry(probe: Arc<CancelProbe>) -> ToolRegistry {
    tools![long_count, add].with_extension(probe)
}

/// A server of [`registry`] with short task timing (TTL 30 s, polls every 50 ms).
pub fn server(probe: Arc<CancelProbe>) -> McpServer {
    McpServer::new(registry(probe))
        .with_task_timing(Duration::from_secs(30), Duration::from_millis(50))
}

/// rmcp's client, declaring the tasks extension when `tasks`.
#[derive(Clone, Copy)]
pub struct TaskClient {
    /// Declares `io.modelcontextprotocol/tasks`.
    pub tasks: bool,
}

impl ClientHandler for TaskClient {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        if self.tasks {
            info.capabilities = ClientCapabilities::builder().enable_tasks().build();
        }
        info
    }
}

/// `server` served in memory to rmcp's client on a 2026-07-28 session.
pub async fn modern(server: McpServer, tasks: bool) -> RunningService<RoleClient, TaskClient> {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    TaskClient { tasks }
        .serve_with_lifecycle(
            near,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap()
}
