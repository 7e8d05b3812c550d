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
//! - `--redis URL`: sessions live in that Redis, so several replicas can serve one client
//!   (needs `--features mcp-redis`).
//! - `--json-response`: plain JSON replies instead of SSE (implies `--stateless`).
//! - `--stateless`: no sessions at all; any replica serves any request without a store.
//!
//! Beside the demo tools it serves `weather_dashboard`, a tool with an interactive view (the
//! MCP Apps extension, `tool_examples::apps`): its text result stands alone, and a host that
//! renders apps shows the `ui://weather/dashboard` view it names.
//!
//! It prints `listening on http://ADDR/mcp` on stdout once ready, and shuts down gracefully
//! on Ctrl-C.

use std::process::exit;

use tool_core::mcp::auth::{Authorization, StaticTokens};
use tool_core::mcp::{HttpConfig, McpServer};
use tool_core::{tools, Principal};
use tool_examples::apps::{self, weather_dashboard};
use tool_examples::demo::{add, get_weather, search};

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

async fn config(args: &Args) -> Result<HttpConfig, String> {
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
    if let Some(url) = &args.redis {
        config = with_redis(config, url).await?;
    }
    Ok(config)
}

#[cfg(feature = "mcp-redis")]
async fn with_redis(config: HttpConfig, url: &str) -> Result<HttpConfig, String> {
    let store = tool_core::mcp::RedisSessionStore::connect(url)
        .await
        .map_err(|e| e.to_string())?;
    Ok(config.session_store(std::sync::Arc::new(store)))
}

#[cfg(not(feature = "mcp-redis"))]
async fn with_redis(_: HttpConfig, _: &str) -> Result<HttpConfig, String> {
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
    let config = match config(&args).await {
        Ok(config) => config,
        Err(why) => {
            eprintln!("mcp_http: {why}");
            exit(2);
        }
    };
    let server = McpServer::new(tools![get_weather, add, search, weather_dashboard])
        .with_catalog(apps::catalog())
        .with_server_info("quickstart", env!("CARGO_PKG_VERSION"));
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
