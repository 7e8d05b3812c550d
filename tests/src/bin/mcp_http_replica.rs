//! One replica of an MCP server over streamable HTTP, for the scale-out test
//! (`tests/mcp_http_scale.rs`): `mcp_http_replica --addr ADDR [--redis URL] [--stateless]`.
//! Prints `listening on URL` once ready and `served add A B` (on stdout, one line each)
//! for every call it runs, so the test can count which replica answered what. It also
//! serves `long_count`, which may run as a task (tasks in the same Redis with `--redis`) and
//! prints `started long_count` and `stopped long_count ..` (on cancel), for the task tests
//! (`tests/mcp_tasks_replicas.rs`).

use std::sync::Arc;

use std::time::Duration;

use tool_core::mcp::{HttpConfig, McpServer, RedisSessionStore, RedisTaskStore};
use tool_core::{tool, tools};
use tool_tests::mcp::tasks::long_count;

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
    // Short task timing, so the tests poll often and finish soon.
    let mut server = McpServer::new(tools![add, long_count])
        .with_server_info("replica", "1.0.0")
        .with_task_timing(Duration::from_secs(120), Duration::from_millis(100));
    if let Some(url) = redis {
        match RedisSessionStore::connect(&url).await {
            Ok(store) => {
                server = server.with_task_store(Arc::new(RedisTaskStore::new(&store)));
                config = config.session_store(Arc::new(store));
            }
            Err(e) => {
                eprintln!("mcp_http_replica: {e}");
                std::process::exit(1);
            }
        }
    }
    let serving = match server.serve_http_with(addr.as_str(), config).await {
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
