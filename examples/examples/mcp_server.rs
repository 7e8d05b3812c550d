//! Everything an MCP server built with tool-core can offer, in the spirit of the reference
//! "everything" server: the demo tools (`tool_examples::demo`), tools that reach the client
//! through their context (`count_to` logs and reports progress, `haiku` asks the client's
//! model, `ask_unit` asks the user), a resource template `weather://{city}/current`, a
//! fixed resource `docs://units`, and a prompt `plan_trip(city, days?)` with completion of
//! its `city`. Nothing here is MCP-specific except `main`: the same functions serve direct
//! model calls, and the catalog reads and renders without MCP.
//!
//! `cargo run --example mcp_server --features mcp` serves on stdio (then speak JSON-RPC on
//! stdin, or let a client start it; see `mcp_client`); `cargo run --example mcp_server
//! --features mcp-http -- --http 127.0.0.1:8080` serves streamable HTTP and prints `listening
//! on http://ADDR/mcp`. The features build the official MCP SDK (and an HTTP server), which the
//! other examples do not need. Logs go to stderr: stdout carries only the protocol.

use std::time::Duration;

use tool_core::catalog::{Catalog, CompletionTarget};
use tool_core::mcp::McpServer;
use tool_core::{
    prompt, prompts, resource, resources, tool, tool_type, tools, Elicited, Json, LogLevel,
    PeerError, SamplingRequest, ToolContext, ToolRegistry,
};
use tool_examples::demo::{add, get_weather, search};

/// Counts from 1 to `n`, logging each step at `info` and reporting progress.
#[tool(read_only)]
async fn count_to(
    /// Where to stop (at most 100).
    n: u32,
    ctx: ToolContext<'_>,
) -> String {
    let n = n.min(100);
    for i in 1..=n {
        ctx.log(LogLevel::Info, format!("step {i} of {n}"));
        ctx.report_progress(f64::from(i), Some(f64::from(n)), None);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    format!("counted to {n}")
}

/// Writes a haiku about a topic, with the client's own model.
#[tool]
async fn haiku(
    /// What the haiku is about.
    topic: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    let request = SamplingRequest::new(format!("Write a haiku about {topic}."))
        .with_max_tokens(100)
        .with_model_hint("claude");
    Ok(ctx.sample(request).await?.text)
}

/// A temperature unit.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// The question `ask_unit` asks.
#[tool_type]
struct UnitChoice {
    /// The unit to show temperatures in.
    unit: Unit,
}

/// Asks the user which temperature unit they prefer.
#[tool]
async fn ask_unit(ctx: ToolContext<'_>) -> Result<String, PeerError> {
    Ok(
        match ctx
            .elicit::<UnitChoice>("Which unit should temperatures use?")
            .await?
        {
            Elicited::Accepted(choice) => format!("using {:?}", choice.unit),
            Elicited::Declined => "the user declined; keeping Celsius".to_owned(),
            Elicited::Cancelled => "no answer; keeping Celsius".to_owned(),
        },
    )
}

/// Current conditions.
#[tool_type]
struct Conditions {
    city: String,
    temp_c: f32,
    sky: String,
}

/// The current weather in a city.
#[resource(uri = "weather://{city}/current", title = "Current weather")]
fn current_weather(city: String) -> Json<Conditions> {
    Json(Conditions {
        city,
        temp_c: 21.5,
        sky: "clear".to_owned(),
    })
}

/// The units every weather value uses.
#[resource(uri = "docs://units", mime_type = "text/markdown")]
fn units() -> &'static str {
    "# Units\n\n- temperature: degrees Celsius\n- wind: km/h\n"
}

/// Plans a trip to a city.
#[prompt(title = "Plan a trip")]
fn plan_trip(
    /// The city to visit.
    city: String,
    /// How many days (3 unless given).
    days: Option<u32>,
) -> String {
    format!(
        "Plan a {}-day trip to {city}. Read weather://{city}/current first and pack for it.",
        days.unwrap_or(3)
    )
}

const CITIES: &[&str] = &["Berlin", "Lisbon", "London", "Oslo", "Paris", "Tokyo"];

fn complete_city(typed: &str) -> Vec<String> {
    let typed = typed.to_lowercase();
    CITIES
        .iter()
        .filter(|c| c.to_lowercase().starts_with(&typed))
        .map(|c| c.to_string())
        .collect()
}

fn registry() -> ToolRegistry {
    tools![get_weather, add, search, count_to, haiku, ask_unit]
}

fn catalog() -> Catalog {
    resources![current_weather, units]
        .merge(prompts![plan_trip])
        .with_completer(
            CompletionTarget::Prompt("plan_trip".into()),
            "city",
            complete_city,
        )
        .with_completer(
            CompletionTarget::Template("weather://{city}/current".into()),
            "city",
            complete_city,
        )
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = McpServer::new(registry())
        .with_catalog(catalog())
        .with_server_info("everything", env!("CARGO_PKG_VERSION"));
    let mut args = std::env::args().skip(1);
    let outcome = match (args.next().as_deref(), args.next()) {
        (None, _) => {
            eprintln!("mcp_server: serving on stdio");
            server.serve_stdio().await
        }
        (Some("--http"), Some(addr)) => serve_http(server, &addr).await,
        _ => {
            eprintln!("usage: mcp_server [--http ADDR]");
            std::process::exit(2);
        }
    };
    if let Err(e) = outcome {
        eprintln!("mcp_server: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "mcp-http")]
async fn serve_http(server: McpServer, addr: &str) -> Result<(), tool_core::mcp::McpError> {
    let serving = server.serve_http(addr).await?;
    println!("listening on {}", serving.url());
    // Serve until interrupted (the process is stopped from outside).
    std::future::pending::<()>().await;
    serving.shutdown().await;
    Ok(())
}

#[cfg(not(feature = "mcp-http"))]
async fn serve_http(_server: McpServer, _addr: &str) -> Result<(), tool_core::mcp::McpError> {
    Err(tool_core::mcp::McpError::new(
        tool_core::mcp::McpErrorKind::Transport,
        "this build has no HTTP transport: build the example with `--features mcp-http`",
    ))
}
