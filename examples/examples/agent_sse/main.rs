//! An agent behind a web page: an axum server runs the agent loop per message and streams
//! the run's events to the page as server-sent events. The page shows the text as it streams
//! and renders the cards the tools send through the side channel. The model is scripted (no
//! network, no key), paced so the streaming is visible.
//!
//! `cargo run --example agent_sse --features sse`, then open http://127.0.0.1:3000
//! (`AGENT_SSE_ADDR=127.0.0.1:8080` picks another address). The `sse` feature builds the web
//! server, axum, which the other examples do not need.

mod app;

use std::sync::Arc;
use std::time::Duration;

use tool_core::runner::Runner;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let model = app::Paced {
        inner: app::scripted_model(),
        delay: Duration::from_millis(60),
    };
    let runner = Arc::new(Runner::new(model, app::registry()));
    let addr = std::env::var("AGENT_SSE_ADDR").unwrap_or_else(|_| "127.0.0.1:3000".into());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("agent_sse: open http://{}", listener.local_addr()?);
    axum::serve(listener, app::router(runner)).await
}
