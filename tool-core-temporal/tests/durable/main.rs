//! Durable runs end to end: a real Temporal dev server, worker processes of the
//! `durable_agent` example (killed with SIGKILL mid-run), a scripted loopback model that
//! records every request, and the ledger of the tools' effects.
//!
//! Needs the `temporal` program (see `server::temporal_program`) and the example built
//! (`cargo build -p tool-core-temporal --example durable_agent`).

mod approval;
mod cancel;
mod cli;
mod crash;
mod history;
mod model;
mod observe;
mod runs;
mod server;
mod spans;
mod turns;

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use model::{FakeModel, Reply, Seen};
use server::DevServer;

/// The tests take turns: each starts its own server and workers, and two at once on a
/// 2-core machine would make the timings the tests check meaningless.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// One test's world: a dev server, the scripted model, a ledger file, a task queue.
pub struct World {
    _turn: MutexGuard<'static, ()>,
    pub server: DevServer,
    pub model: FakeModel,
    pub ledger: PathBuf,
    pub queue: String,
    _dir: TempDir,
}

impl World {
    pub fn new(name: &str) -> World {
        let turn = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let dir = TempDir::new(name);
        World {
            _turn: turn,
            server: DevServer::start(),
            model: FakeModel::start(script),
            ledger: dir.0.join("ledger.jsonl"),
            queue: format!("agents-{name}"),
            _dir: dir,
        }
    }

    pub fn worker(&self) -> cli::WorkerProcess {
        cli::WorkerProcess::start(
            &self.server.address,
            &self.queue,
            &self.model.base_url,
            &self.ledger,
        )
    }

    pub fn address(&self) -> &str {
        &self.server.address
    }

    /// A client of this world's server, after it started run `id` on this world's queue.
    pub async fn start_run(&self, id: &str, prompt: &str) -> tool_core_temporal::DurableClient {
        let client = tool_core_temporal::DurableClient::connect(self.address(), "default")
            .await
            .expect("connect");
        client.start(&self.queue, id, prompt).await.expect("start");
        client
    }
}

/// A directory of its own under the system's temporary directory, removed at the end.
pub struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("tool-core-durable-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The final answer of every scenario: its tool results, in order.
pub fn answer(results: &[&str]) -> String {
    format!("answer: {}", results.join(" | "))
}

/// The six tool turns of the `six` scenario: parallel calls, non-ASCII and quoted arguments.
/// Call ids repeat from turn to turn (some providers number calls per turn), so only the
/// turn in the idempotency key keeps the keys apart.
pub const SIX_TURNS: [&[(&str, &str, &str)]; 6] = [
    &[
        ("call_0", "lookup", r#"{"key":"clé-ü"}"#),
        ("call_1", "lookup", r#"{"key":"日本語"}"#),
    ],
    &[("call_0", "lookup", r#"{"key":"he said \"hi\" \\ back"}"#)],
    &[
        ("call_0", "slow_step", r#"{"ms":50}"#),
        ("call_1", "lookup", r#"{"key":"emoji 🚀 and\nnewline"}"#),
    ],
    &[
        ("call_0", "lookup", r#"{"key":"a"}"#),
        ("call_1", "lookup", r#"{"key":"b"}"#),
        ("call_2", "lookup", r#"{"key":"c"}"#),
    ],
    &[("call_0", "lookup", r#"{"key":"{\"nested\": [1, 2]}"}"#)],
    &[("call_0", "lookup", r#"{"key":"tab\there 'single'"}"#)],
];

/// The model's script. The prompt's first word names the scenario, the second is the run's
/// tag; the turn is how many assistant turns the history holds.
fn script(seen: &Seen<'_>) -> Reply {
    let mut words = seen.prompt.split_whitespace();
    let scenario = words.next().unwrap_or("");
    let tag = words.next().unwrap_or("");
    let done = || Reply::text(answer(&seen.results));
    match (scenario, seen.turn) {
        ("basic", 0) => Reply::calls(&[
            ("call_a", "lookup", &format!(r#"{{"key":"{tag}"}}"#)),
            ("call_b", "slow_step", r#"{"ms":200}"#),
        ]),
        ("bad", _) => Reply::status(400),
        ("slowtool", 0) => Reply::calls(&[("call_s", "slow_step", r#"{"ms":8000}"#)]),
        ("slowtool", 1) => Reply::calls(&[("call_l", "lookup", &format!(r#"{{"key":"{tag}"}}"#))]),
        ("slowmodel", 0) => Reply::calls(&[("call_l", "lookup", &format!(r#"{{"key":"{tag}"}}"#))]),
        ("slowmodel", 1) => Reply::calls(&[("call_s", "slow_step", r#"{"ms":100}"#)])
            .slow(std::time::Duration::from_secs(8)),
        ("approve", 0) => Reply::calls(&[(
            "call_t",
            "transfer",
            r#"{"from":"acct-A","to":"acct-B","amount":25}"#,
        )]),
        ("six", turn) if turn < SIX_TURNS.len() => Reply::calls(SIX_TURNS[turn]),
        _ => done(),
    }
}
