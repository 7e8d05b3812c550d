//! MCP over streamable HTTP under load, on loopback, in one run: our `McpServer::serve_http`
//! beside an rmcp `#[tool_router]` server on rmcp's own `StreamableHttpService` served by a
//! default `axum::serve`, with the same `add` tool; rmcp's HTTP client drives both.
//!
//! - idle: one client, 200 sequential `tools/call`, latency p50/p99;
//! - load: 50 concurrent clients (each its own session and connection pool) x 100 calls;
//!   every reply checked, the server's own count of calls run compared with the calls sent
//!   (0 lost, 0 duplicated), latency p50/p99, throughput, process memory (clients and
//!   server share the process: resident set after the phase, and its peak so far).
//!
//! `cargo bench -p tool-core --features mcp-http --bench mcp_http_load`
//!
//! rmcp's default listener leaves Nagle's algorithm on, which costs it about 40 ms per SSE
//! reply; `scripts/mcp_http_wrk.py` compares the `mcp_http` example with a bare rmcp server
//! that sets `TCP_NODELAY` as we do (the `mcp_http_rmcp` example), each in its own process,
//! under wrk and callgrind.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{tool, tool_handler, tool_router, RoleClient, ServerHandler, ServiceExt};
use tool_core::mcp::McpServer;
use tool_core::{tool as tc_tool, tools};

const CLIENTS: usize = 50;
const CALLS: usize = 100;
const IDLE_CALLS: usize = 200;

static OURS_RAN: AtomicUsize = AtomicUsize::new(0);
static THEIRS_RAN: AtomicUsize = AtomicUsize::new(0);

/// Adds two integers.
#[tc_tool]
fn add(a: i64, b: i64) -> i64 {
    OURS_RAN.fetch_add(1, Ordering::Relaxed);
    a + b
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Clone)]
struct Baseline {
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Baseline {
    /// Adds two integers.
    #[tool]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        THEIRS_RAN.fetch_add(1, Ordering::Relaxed);
        (args.a + args.b).to_string()
    }
}

#[tool_handler]
impl ServerHandler for Baseline {}

async fn rmcp_default_server() -> String {
    let service = StreamableHttpService::new(
        || {
            Ok(Baseline {
                tool_router: Baseline::tool_router(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().route_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}

async fn client(url: &str) -> RunningService<RoleClient, ()> {
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let transport = StreamableHttpClientTransport::with_client(
        http,
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
    );
    ().serve(transport).await.expect("handshake")
}

/// One checked call; its latency.
async fn call(client: &RunningService<RoleClient, ()>, a: i64) -> Result<Duration, String> {
    let mut arguments = serde_json::Map::new();
    arguments.insert("a".into(), a.into());
    arguments.insert("b".into(), 1.into());
    let started = Instant::now();
    let result = client
        .peer()
        .call_tool(CallToolRequestParams::new("add").with_arguments(arguments))
        .await
        .map_err(|e| e.to_string())?;
    let took = started.elapsed();
    let text: String = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    if text != (a + 1).to_string() {
        return Err(format!("add({a}, 1) answered {text:?}"));
    }
    Ok(took)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_owned())
            .unwrap_or_else(|| "?".into())
    };
    format!("rss {} KiB, peak {} KiB", field("VmRSS:"), field("VmHWM:"))
}

async fn idle(name: &str, url: &str) {
    let client = client(url).await;
    let mut took = Vec::with_capacity(IDLE_CALLS);
    for i in 0..IDLE_CALLS {
        took.push(call(&client, i as i64).await.expect("idle call"));
    }
    took.sort();
    println!(
        "{name:<28} idle, {IDLE_CALLS} sequential calls: p50 {:>9.3} ms  p99 {:>9.3} ms",
        percentile(&took, 0.50).as_secs_f64() * 1e3,
        percentile(&took, 0.99).as_secs_f64() * 1e3
    );
    let _ = client.cancel().await;
}

async fn load(name: &str, url: &str, ran: &AtomicUsize) {
    let mut clients = Vec::with_capacity(CLIENTS);
    for _ in 0..CLIENTS {
        clients.push(client(url).await);
    }
    let before = ran.load(Ordering::Relaxed);
    let started = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(c, client)| {
            tokio::spawn(async move {
                let mut took = Vec::with_capacity(CALLS);
                let mut failures = Vec::new();
                for i in 0..CALLS {
                    match call(&client, (c * 1_000_000 + i) as i64).await {
                        Ok(t) => took.push(t),
                        Err(e) => failures.push(e),
                    }
                }
                let _ = client.cancel().await;
                (took, failures)
            })
        })
        .collect();
    let mut took = Vec::with_capacity(CLIENTS * CALLS);
    let mut failures = Vec::new();
    for task in tasks {
        let (t, f) = task.await.expect("client task");
        took.extend(t);
        failures.extend(f);
    }
    let elapsed = started.elapsed();
    let ran = ran.load(Ordering::Relaxed) - before;
    took.sort();
    let sent = CLIENTS * CALLS;
    println!(
        "{name:<28} load, {CLIENTS} clients x {CALLS} calls: {} answered ({} lost), server ran {ran} ({} duplicated), \
         {:.0} calls/s, p50 {:.3} ms, p99 {:.3} ms, {}",
        took.len(),
        sent - took.len(),
        ran.saturating_sub(took.len()),
        took.len() as f64 / elapsed.as_secs_f64(),
        percentile(&took, 0.50).as_secs_f64() * 1e3,
        percentile(&took, 0.99).as_secs_f64() * 1e3,
        memory()
    );
    for failure in failures.iter().take(3) {
        println!("  failure: {failure}");
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is accepted and ignored.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        println!("{}", memory());
        let ours = McpServer::new(tools![add])
            .serve_http("127.0.0.1:0")
            .await
            .expect("our server");
        let theirs = rmcp_default_server().await;
        idle("tool-core serve_http", &ours.url()).await;
        idle("rmcp #[tool_router] default", &theirs).await;
        load("tool-core serve_http", &ours.url(), &OURS_RAN).await;
        load("rmcp #[tool_router] default", &theirs, &THEIRS_RAN).await;
        ours.shutdown().await;
    });
}
