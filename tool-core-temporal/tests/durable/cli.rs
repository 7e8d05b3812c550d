//! The `durable_agent` example as separate processes: workers (killed with SIGKILL when
//! dropped or told to) and the start / status / approve commands.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// The example's program, built by `cargo build -p tool-core-temporal --example durable_agent`
/// (`cargo test --test durable` builds no examples; .ci/run builds it first).
pub fn program() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/debug/deps/durable-HASH -> target/debug/examples/durable_agent
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("examples").join("durable_agent"))
        .expect("the target directory");
    assert!(
        path.is_file(),
        "{} is missing: build the example first with `cargo build -p tool-core-temporal --example durable_agent`",
        path.display()
    );
    path
}

/// A worker process of the example.
pub struct WorkerProcess {
    child: Child,
}

impl WorkerProcess {
    /// Starts a worker and waits for its `worker ready`.
    pub fn start(temporal: &str, queue: &str, model_url: &str, ledger: &Path) -> WorkerProcess {
        let mut child = Command::new(program())
            .args([
                "worker",
                "--temporal",
                temporal,
                "--task-queue",
                queue,
                "--model-base-url",
                model_url,
            ])
            .env("DURABLE_LEDGER", ledger)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start a worker");
        let stdout = child.stdout.take().expect("the worker's stdout");
        let (ready, wait) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.trim() == "worker ready" {
                    let _ = ready.send(());
                }
            }
        });
        let mut worker = WorkerProcess { child };
        if wait.recv_timeout(Duration::from_secs(60)).is_err() {
            worker.kill();
            panic!("the worker did not print `worker ready` within 60 s");
        }
        worker
    }

    /// `kill -9`.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs a command of the example and reads the JSON line it prints.
pub fn run(args: &[&str]) -> Value {
    let output = Command::new(program())
        .args(args)
        .output()
        .expect("run durable_agent");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "durable_agent {args:?} failed: {}{}",
        stdout,
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout.lines().last().unwrap_or("");
    serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("durable_agent {args:?} printed {line:?}: {e}"))
}

/// Starts a run without waiting.
pub fn start(temporal: &str, queue: &str, id: &str, prompt: &str) {
    run(&[
        "start",
        "--temporal",
        temporal,
        "--task-queue",
        queue,
        "--id",
        id,
        prompt,
    ]);
}

/// Starts a run in a thread that waits for its end; join it for the final JSON line.
pub fn start_waiting(
    temporal: &str,
    queue: &str,
    id: &str,
    prompt: &str,
) -> std::thread::JoinHandle<Value> {
    let (temporal, queue, id, prompt) = (
        temporal.to_string(),
        queue.to_string(),
        id.to_string(),
        prompt.to_string(),
    );
    std::thread::spawn(move || {
        run(&[
            "start",
            "--temporal",
            &temporal,
            "--task-queue",
            &queue,
            "--id",
            &id,
            "--wait",
            &prompt,
        ])
    })
}

pub fn status(temporal: &str, id: &str) -> Value {
    run(&["status", "--temporal", temporal, "--id", id])
}

/// Polls `status` until `check` holds (at most `within`).
pub fn status_until(
    temporal: &str,
    id: &str,
    within: Duration,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = std::time::Instant::now() + within;
    loop {
        let status = status(temporal, id);
        if check(&status) {
            return status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "run {id} never reached the expected state: {status}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}
