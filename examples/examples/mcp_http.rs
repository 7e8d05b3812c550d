//! The demo tools (`tool_examples::demo`) as an MCP server over streamable HTTP, configured
//! from the command line the way a deployment would be:
//!
//! ```text
//! cargo run --example mcp_http --features mcp-http -- --addr 127.0.0.1:8080 \
//!     [--token TOKEN]... [--allowed-origin ORIGIN]... [--allowed-host HOST]... \
//!     [--redis URL] [--json-response] [--stateless]
//! ```
//!
//! - `--token`: every request needs `Authorization: Bearer TOKEN` (one of those given).
//! - `--allowed-origin` / `--allowed-host`: replace the loopback defaults.
//! - `--redis URL`: sessions and tasks live in that Redis, so several replicas can serve one
//!   client and answer for each other's tasks (needs `--features mcp-redis`).
//! - `--json-response`: plain JSON replies instead of SSE (implies `--stateless`).
//! - `--stateless`: no sessions at all; any replica serves any request without a store.
//!
//! Beside the demo tools it serves `weather_dashboard`, a tool with an interactive view (the
//! MCP Apps extension, `tool_examples::apps`): its text result stands alone, and a host that
//! renders apps shows the `ui://weather/dashboard` view it names.
//!
//! It prints `listening on http://ADDR/mcp` on stdout once ready, and shuts down gracefully
//! on Ctrl-C.
//!
//! Beside the demo tools it serves `long_count(n, ms_per_step)`, a slow tool that may run as
//! an MCP task: a client that supports tasks gets a task handle at once and polls it (its
//! status message shows the step reached); any other client gets progress notifications for
//! its progress token and then the result.

use std::process::exit;
use std::sync::Arc;
use std::time::Duration;

use tool_core::mcp::auth::{Authorization, StaticTokens};
use tool_core::mcp::{HttpConfig, McpServer, TaskStore};
use tool_core::{tool, tools, CancelFlag, Principal, ProgressReporter};
use tool_examples::apps::{self, weather_dashboard};
use tool_examples::demo::{add, get_weather, search};

/// Counts from 1 to `n`, one step every `ms_per_step` milliseconds, and answers
/// "counted to N". Slow on purpose: it reports each step as progress and stops when
/// cancelled. MCP clients that support tasks run it as a task.
#[tool(task)]
async fn long_count(
    /// The number to count to.
    n: u64,
    /// How long each step takes, in milliseconds.
    ms_per_step: u64,
    progress: ProgressReporter,
    cancel: CancelFlag,
) -> String {
    for step in 1..=n {
        if cancel.is_cancelled() {
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

#[derive(Default)]
struct Args {
    addr: Option<String>,
    tokens: Vec<String>,
    origins: Vec<String>,
    hosts: Vec<String>,
    redis: Option<String>,
    json_response: bool,
    stateless: bool,
}

fn parse() -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--addr" => args.addr = Some(value()?),
            "--token" => args.tokens.push(value()?),
            "--allowed-origin" => args.origins.push(value()?),
            "--allowed-host" => args.hosts.push(value()?),
            "--redis" => args.redis = Some(value()?),
            "--json-response" => args.json_response = true,
            "--stateless" => args.stateless = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(args)
}

const USAGE: &str =
    "usage: mcp_http --addr HOST:PORT [--token TOKEN]... [--allowed-origin ORIGIN]... \
[--allowed-host HOST]... [--redis URL] [--json-response] [--stateless]";

/// The HTTP configuration and, with `--redis`, the task store every replica shares.
async fn config(args: &Args) -> Result<(HttpConfig, Option<Arc<dyn TaskStore>>), String> {
    let mut config = HttpConfig::new();
    if !args.tokens.is_empty() {
        let mut tokens = StaticTokens::new();
        for (i, token) in args.tokens.iter().enumerate() {
            tokens = tokens.with_token(token.clone(), Principal::new(format!("token-{}", i + 1)));
        }
        config = config.authorization(Authorization::new(tokens));
    }
    if !args.origins.is_empty() {
        config = config.allowed_origins(args.origins.clone());
    }
    if !args.hosts.is_empty() {
        config = config.allowed_hosts(args.hosts.clone());
    }
    if args.json_response || args.stateless {
        config = config
            .legacy_sessions(false)
            .json_response(args.json_response);
    }
    match &args.redis {
        Some(url) => with_redis(config, url).await,
        None => Ok((config, None)),
    }
}

#[cfg(feature = "mcp-redis")]
async fn with_redis(
    config: HttpConfig,
    url: &str,
) -> Result<(HttpConfig, Option<Arc<dyn TaskStore>>), String> {
    let sessions = tool_core::mcp::RedisSessionStore::connect(url)
        .await
        .map_err(|e| e.to_string())?;
    let tasks: Arc<dyn TaskStore> = Arc::new(tool_core::mcp::RedisTaskStore::new(&sessions));
    Ok((config.session_store(Arc::new(sessions)), Some(tasks)))
}

#[cfg(not(feature = "mcp-redis"))]
async fn with_redis(
    _: HttpConfig,
    _: &str,
) -> Result<(HttpConfig, Option<Arc<dyn TaskStore>>), String> {
    Err("--redis needs the example built with `--features mcp-redis`".to_owned())
}

#[tokio::main]
async fn main() {
    let args = match parse() {
        Ok(args) => args,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("mcp_http: {why}");
            }
            eprintln!("{USAGE}");
            exit(2);
        }
    };
    let Some(addr) = args.addr.clone() else {
        eprintln!("mcp_http: --addr is required\n{USAGE}");
        exit(2);
    };
    let (config, task_store) = match config(&args).await {
        Ok(configured) => configured,
        Err(why) => {
            eprintln!("mcp_http: {why}");
            exit(2);
        }
    };
    let mut server = McpServer::new(tools![
        get_weather,
        add,
        search,
        long_count,
        weather_dashboard
    ])
    .with_catalog(apps::catalog())
    .with_server_info("quickstart", env!("CARGO_PKG_VERSION"));
    if let Some(store) = task_store {
        server = server.with_task_store(store);
    }
    let serving = match server.serve_http_with(addr.as_str(), config).await {
        Ok(serving) => serving,
        Err(e) => {
            eprintln!("mcp_http: {e}");
            exit(1);
        }
    };
    println!("listening on {}", serving.url());
    let stop = serving.shutdown_signal();
    tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        stop.shutdown();
    });
    if let Err(e) = serving.join().await {
        eprintln!("mcp_http: {e}");
        exit(1);
    }
}
