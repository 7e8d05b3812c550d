//! The server of the resources/prompts/peer tests: tools that log, sample, elicit and read
//! roots through their context, and a catalog with a resource template, fixed resources and
//! prompts. Served in-process by `tests/mcp_peer.rs` and as `mcp_catalog_peer` on stdio for
//! the official Python client (`tests/mcp_python.rs`).

use std::sync::OnceLock;

use tool_core::catalog::{Blob, Catalog, CompletionTarget, PromptMessage};
use tool_core::mcp::{McpServer, ServerHandle};
use tool_core::{
    prompt, prompts, resource, resources, tool, tool_type, tools, Elicited, Json, LogLevel,
    PeerError, SamplingRequest, ToolContext, ToolRegistry,
};

/// Counts from 1 to `n`, logging each step at `info` and a summary at `debug`.
#[tool]
pub async fn count_to(
    /// Where to stop.
    n: u32,
    ctx: ToolContext<'_>,
) -> String {
    for i in 1..=n {
        ctx.log(LogLevel::Info, format!("step {i}"));
    }
    ctx.log(LogLevel::Debug, "done counting");
    format!("counted to {n}")
}

/// Writes a haiku about a topic with the client's model.
#[tool]
pub async fn haiku(
    /// What the haiku is about.
    topic: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    let request = SamplingRequest::new(format!("A haiku about {topic}"))
        .with_model_hint("claude")
        .with_max_tokens(50);
    let reply = ctx.sample(request).await?;
    Ok(format!("{} (by {})", reply.text, reply.model))
}

/// A temperature unit.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// The form `ask_unit` shows.
#[tool_type]
#[derive(Debug)]
pub struct UnitChoice {
    /// The unit to show temperatures in.
    pub unit: Unit,
}

/// Asks the user which unit to use.
#[tool]
pub async fn ask_unit(ctx: ToolContext<'_>) -> Result<String, PeerError> {
    Ok(match ctx.elicit::<UnitChoice>("Which unit?").await? {
        Elicited::Accepted(choice) => format!("{:?}", choice.unit),
        Elicited::Declined => "declined".to_owned(),
        Elicited::Cancelled => "cancelled".to_owned(),
    })
}

/// Lists the client's roots.
#[tool]
pub async fn where_am_i(ctx: ToolContext<'_>) -> Result<String, PeerError> {
    let roots = ctx.roots().await?;
    Ok(roots
        .iter()
        .map(|r| format!("{} ({})", r.uri, r.name.as_deref().unwrap_or("-")))
        .collect::<Vec<_>>()
        .join(", "))
}

/// The answer, as structured output of an integer.
#[tool(
    icon(src = "https://example.com/answer.png", mime_type = "image/png", sizes = "48x48", theme = "dark"),
    meta("com.example/source" = "deep-thought", seconds = 7500000)
)]
pub fn answer() -> Json<i64> {
    Json(42)
}

/// The running server's handle, for `touch`, `add_prompt` and `add_tool`.
pub static HANDLE: OnceLock<ServerHandle> = OnceLock::new();

/// Says that a resource changed (its subscribers are told).
#[tool]
pub async fn touch(
    /// The resource's URI.
    uri: String,
) -> String {
    let told = match HANDLE.get() {
        Some(handle) => handle.resource_updated(&uri).await,
        None => 0,
    };
    format!("told {told}")
}

/// Adds the `packing` prompt while serving.
#[tool]
pub async fn add_prompt() -> String {
    match HANDLE.get() {
        Some(handle) => {
            let added = handle
                .update_catalog(|c| c.register_prompt(std::sync::Arc::new(packing {})))
                .await;
            format!("{added:?}")
        }
        None => "no handle".to_owned(),
    }
}

/// Shouts the text back.
#[tool]
pub fn shout(
    /// What to shout.
    text: String,
) -> String {
    text.to_uppercase()
}

/// Adds the `shout` tool while serving.
#[tool]
pub async fn add_tool() -> String {
    match HANDLE.get() {
        Some(handle) => format!("{:?}", handle.add_tool(shout {}).await),
        None => "no handle".to_owned(),
    }
}

/// Weather readings.
#[tool_type]
pub struct Weather {
    city: String,
    temp_c: f32,
}

/// Current conditions for a city.
#[resource(
    uri = "weather://{city}/current",
    title = "Current weather",
    icon = "https://example.com/cloud.png"
)]
pub fn current(city: String) -> Json<Weather> {
    Json(Weather { city, temp_c: 21.5 })
}

/// The units every value uses.
#[resource(
    uri = "docs://units",
    mime_type = "text/markdown",
    icon = "https://example.com/ruler.svg",
    meta(audience = "users")
)]
pub fn units() -> &'static str {
    "# Units\nCelsius."
}

/// The logo.
#[resource(uri = "images://logo")]
pub fn logo() -> Blob {
    Blob::new(*b"foobar", "image/png")
}

/// Plans a trip.
#[prompt(
    title = "Plan a trip",
    icon(src = "https://example.com/plane.png", sizes = "any"),
    meta(version = 2)
)]
pub fn plan_trip(
    /// Where to go.
    city: String,
    /// How many days (3 unless given).
    days: Option<u32>,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Plan {} days in {city}.", days.unwrap_or(3))),
        PromptMessage::assistant("Gladly."),
    ]
}

/// Asks for a packing list.
#[prompt]
pub fn packing(
    /// Where to.
    city: String,
) -> String {
    format!("What should I pack for {city}?")
}

fn cities(typed: &str) -> Vec<String> {
    ["Lisbon", "London", "Oslo"]
        .iter()
        .filter(|c| c.to_lowercase().starts_with(&typed.to_lowercase()))
        .map(|c| c.to_string())
        .collect()
}

/// The tools.
pub fn registry() -> ToolRegistry {
    tools![count_to, haiku, ask_unit, where_am_i, touch, add_prompt, add_tool, answer]
}

/// The resources, prompts and completers.
pub fn catalog() -> Catalog {
    resources![current, units, logo]
        .merge(prompts![plan_trip])
        .with_completer(CompletionTarget::Prompt("plan_trip".into()), "city", cities)
}

/// The whole server; its handle is stored in [`HANDLE`] (the first server made wins).
pub fn server() -> McpServer {
    let server = McpServer::new(registry())
        .with_catalog(catalog())
        .with_server_info("catalog", "1.0.0");
    let _ = HANDLE.set(server.handle());
    server
}
