//! A durable agent on Temporal: workers, and the commands that start, inspect and approve its
//! runs.
//!
//! ```text
//! durable_agent worker  --temporal HOST:PORT --task-queue Q --model-base-url URL
//! durable_agent start   --temporal HOST:PORT --task-queue Q --id RUN_ID [--wait] PROMPT
//! durable_agent status  --temporal HOST:PORT --id RUN_ID
//! durable_agent approve --temporal HOST:PORT --id RUN_ID --call CALL_ID --allow|--deny [--reason TEXT]
//! ```
//!
//! The model is OpenAI-Chat-compatible at URL (`POST URL/chat/completions`, key "test", model
//! "test-model"). The tools: `lookup` (read-only), `slow_step` (sleeps), `transfer`
//! (destructive: it runs only once a person approves it). Each tool, as it takes effect,
//! appends `{"run", "call", "tool", "key", "worker"}` to the file `DURABLE_LEDGER` names,
//! unless a line with its idempotency key is there already: the ledger shows every effect
//! once, however often the call was attempted.
//!
//! Try it (`temporal server start-dev` runs a server on 127.0.0.1:7233):
//! `cargo run -p tool-core-temporal --example durable_agent -- worker --temporal 127.0.0.1:7233
//! --task-queue agents --model-base-url http://127.0.0.1:8000/v1`.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use temporalio_client::{Client, ClientOptions, Connection, ConnectionOptions, Url};
use temporalio_sdk::{Runtime, Worker};
use tool_core::http::RetryConfig;
use tool_core::model::OpenAiChat;
use tool_core::{tool, tools, ToolContext};
use tool_core_temporal::{Decision, DurableAgent, DurableCall, DurableClient, DurableOptions};

/// Looks up the value stored under a key.
#[tool(read_only)]
fn lookup(key: String, ctx: ToolContext<'_>) -> std::io::Result<String> {
    record(&ctx)?;
    Ok(format!("value-of-{key}"))
}

/// Does a slow piece of work for `ms` milliseconds.
#[tool]
async fn slow_step(ms: u64, ctx: ToolContext<'_>) -> std::io::Result<&'static str> {
    record(&ctx)?;
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Ok("done")
}

/// Transfers an amount from one account to another.
#[tool(destructive)]
fn transfer(
    from: String,
    to: String,
    amount: i64,
    ctx: ToolContext<'_>,
) -> std::io::Result<String> {
    record(&ctx)?;
    Ok(format!("transferred {amount} from {from} to {to}"))
}

/// Appends the call's effect to the ledger unless its idempotency key is there already: what
/// a tool with an outside effect does to be exactly-once. The file lock keeps two workers
/// from both missing the key and both writing it.
fn record(ctx: &ToolContext<'_>) -> std::io::Result<()> {
    let Some(path) = std::env::var_os("DURABLE_LEDGER") else {
        return Ok(());
    };
    // Outside a durable run there is no key; the call id stands in for it.
    let key = ctx.idempotency_key().unwrap_or(ctx.call_id());
    let run = ctx
        .extension::<DurableCall>()
        .map(|c| c.run_id.as_str())
        .unwrap_or("");
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)?;
    file.lock()?;
    let mut text = String::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_string(&mut text)?;
    let seen = text.lines().any(|line| {
        serde_json::from_str::<serde_json::Value>(line)
            .is_ok_and(|entry| entry.get("key").and_then(|k| k.as_str()) == Some(key))
    });
    if !seen {
        let entry = serde_json::json!({
            "run": run,
            "call": ctx.call_id(),
            "tool": ctx.tool_name(),
            "key": key,
            "worker": std::process::id(),
        });
        writeln!(file, "{entry}")?;
    }
    file.unlock()
}

/// The command line: a command, then `--name value` options and flags, then the prompt.
struct Args {
    command: String,
    options: Vec<(String, Option<String>)>,
    rest: Vec<String>,
}

const FLAGS: &[&str] = &["--wait", "--allow", "--deny"];

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
        let command = args
            .next()
            .ok_or("a command is needed: worker, start, status or approve")?;
        let mut options = Vec::new();
        let mut rest = Vec::new();
        while let Some(arg) = args.next() {
            if FLAGS.contains(&arg.as_str()) {
                options.push((arg, None));
            } else if arg.starts_with("--") {
                let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
                options.push((arg, Some(value)));
            } else {
                rest.push(arg);
            }
        }
        Ok(Args {
            command,
            options,
            rest,
        })
    }

    fn value(&self, name: &str) -> Result<&str, String> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
            .ok_or_else(|| format!("`{}` needs {name}", self.command))
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }
}

async fn worker(args: &Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let base_url = args.value("--model-base-url")?;
    let task_queue = args.value("--task-queue")?;
    // Temporal retries the model activity; the adapter's own retries would retry twice over.
    let model = OpenAiChat::compatible(base_url, "test-model", Some("test"))
        .with_endpoint(|endpoint| endpoint.with_retry(RetryConfig::default().with_max_retries(0)));
    let agent = DurableAgent::new(model, tools![lookup, slow_step, transfer]).with_durable_options(
        DurableOptions::default()
            .heartbeat_timeout(Duration::from_secs(5))
            .retry_intervals(Duration::from_millis(500), Duration::from_secs(10)),
    );
    let runtime = Runtime::from_current_tokio(Default::default())?;
    let url = Url::parse(&format!("http://{}", args.value("--temporal")?))?;
    let connection = Connection::connect(ConnectionOptions::new(url).build()).await?;
    let client = Client::new(connection, ClientOptions::new("default").build())?;
    let options = tool_core_temporal::worker_options(task_queue, Arc::new(agent))?
        .client_identity_override(format!("durable_agent-{}", std::process::id()))
        .build();
    let mut worker = Worker::new(&runtime, client, options)?;
    println!("worker ready");
    std::io::stdout().flush()?;
    worker.run().await?;
    Ok(())
}

async fn command(args: &Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    if args.command == "worker" {
        return worker(args).await;
    }
    let client = DurableClient::connect(args.value("--temporal")?, "default").await?;
    let id = args.value("--id")?;
    let line = match args.command.as_str() {
        "start" => {
            let prompt = args.rest.join(" ");
            if prompt.is_empty() {
                return Err("`start` needs a prompt".into());
            }
            client
                .start(args.value("--task-queue")?, id, &prompt)
                .await?;
            if args.flag("--wait") {
                let status = client.wait(id).await?;
                serde_json::json!({"id": id, "state": status.state, "answer": status.answer, "error": status.error})
            } else {
                serde_json::json!({"id": id, "state": "running"})
            }
        }
        "status" => {
            // The contract's fields (the library's status also has the turns and usage).
            let status = client.status(id).await?;
            let mut line = serde_json::json!({"id": id, "state": status.state, "pending_approvals": status.pending_approvals});
            if let Some(answer) = status.answer {
                line["answer"] = answer.into();
            }
            if let Some(error) = status.error {
                line["error"] = error.into();
            }
            line
        }
        "approve" => {
            let call = args.value("--call")?;
            let decision = match (args.flag("--allow"), args.flag("--deny")) {
                (true, false) => Decision::allow(call),
                (false, true) => {
                    let reason = args.value("--reason").unwrap_or("the operator denied it");
                    Decision::deny(call, reason)
                }
                _ => return Err("`approve` needs exactly one of --allow and --deny".into()),
            };
            let allow = decision.allow;
            client.decide(id, decision).await?;
            serde_json::json!({"id": id, "call": call, "allow": allow})
        }
        other => {
            return Err(
                format!("unknown command `{other}`: worker, start, status or approve").into(),
            )
        }
    };
    println!("{line}");
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("durable_agent: {message}");
            return ExitCode::from(2);
        }
    };
    match command(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("durable_agent {}: {error}", args.command);
            ExitCode::FAILURE
        }
    }
}
