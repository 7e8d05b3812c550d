//! The baseline for the `mcp_http` example's figures: a bare rmcp server, its own
//! `#[tool_router]` with the same `add` tool, on rmcp's `StreamableHttpService` with its default
//! configuration (loopback `Host` check, sessions in this process) under `axum::serve`, with
//! `TCP_NODELAY` on every accepted socket as `mcp_http` has it (rmcp's default listener leaves
//! Nagle's algorithm on: about 40 ms per SSE reply). `scripts/mcp_http_wrk.py` drives both.
//!
//! ```text
//! cargo run --release --example mcp_http_rmcp --features mcp-http -- --addr 127.0.0.1:8081
//! ```
//!
//! It prints `listening on http://ADDR/mcp` on stdout once ready and serves until Ctrl-C.

use std::process::exit;
use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Clone)]
struct Baseline {
    #[allow(dead_code)] // read by the code `#[tool_handler]` writes
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Baseline {
    /// Adds two integers and returns the sum.
    #[tool]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        match args.a.checked_add(args.b) {
            Some(sum) => sum.to_string(),
            None => "the sum overflows a 64-bit integer".to_owned(),
        }
    }
}

#[tool_handler]
impl ServerHandler for Baseline {}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next()) {
        (Some("--addr"), Some(addr)) => addr,
        _ => {
            eprintln!("usage: mcp_http_rmcp --addr HOST:PORT");
            exit(2);
        }
    };
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
    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp_http_rmcp: could not listen on {addr}: {e}");
            exit(1);
        }
    };
    match listener.local_addr() {
        Ok(local) => println!("listening on http://{local}/mcp"),
        Err(e) => {
            eprintln!("mcp_http_rmcp: {e}");
            exit(1);
        }
    }
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let serve = axum::serve(listener, app)
        .with_graceful_shutdown(async { drop(tokio::signal::ctrl_c().await) });
    if let Err(e) = serve.await {
        eprintln!("mcp_http_rmcp: {e}");
        exit(1);
    }
}
