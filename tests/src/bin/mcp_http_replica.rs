//! One replica of an MCP server over streamable HTTP, for the scale-out test
//! (`tests/mcp_http_scale.rs`): `mcp_http_replica --addr ADDR [--redis URL] [--stateless]`.
//! Prints `listening on URL` once ready and `served add A B` (on stdout, one line each)
//! for every call it runs, so the test can count which replica answered what.

use std::sync::Arc;

use tool_core::mcp::{HttpConfig, McpServer, RedisSessionStore};
use tool_core::{tool, tools};

/// Adds two integers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    println!("served add {a} {b}");
    a + b
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut addr = None;
    let mut redis = None;
    let mut stateless = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--addr" => addr = args.next(),
            "--redis" => redis = args.next(),
            "--stateless" => stateless = true,
            other => {
                eprintln!("mcp_http_replica: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let Some(addr) = addr else {
        eprintln!("mcp_http_replica: --addr is required");
        std::process::exit(2);
    };
    let mut config = HttpConfig::new().legacy_sessions(!stateless);
    if let Some(url) = redis {
        match RedisSessionStore::connect(&url).await {
            Ok(store) => config = config.session_store(Arc::new(store)),
            Err(e) => {
                eprintln!("mcp_http_replica: {e}");
                std::process::exit(1);
            }
        }
    }
    let serving = match McpServer::new(tools![add])
        .with_server_info("replica", "1.0.0")
        .serve_http_with(addr.as_str(), config)
        .await
    {
        Ok(serving) => serving,
        Err(e) => {
            eprintln!("mcp_http_replica: {e}");
            std::process::exit(1);
        }
    };
    println!("listening on {}", serving.url());
    if let Err(e) = serving.join().await {
        eprintln!("mcp_http_replica: {e}");
        std::process::exit(1);
    }
}
