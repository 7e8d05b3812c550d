//! The whole agent loop in one command: three tools, a model, and the runner that sends the
//! request, streams the text, runs the calls concurrently, sends the results back and stops
//! at the final answer. The model is scripted (canned turns streamed in small chunks), so it
//! needs no network or key, and the first build compiles only the library's default features.
//!
//! `cargo run --example quickstart`
//!
//! With the `http` feature, when the environment names an endpoint (`OPENAI_BASE_URL` and/or
//! `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` or `GEMINI_API_KEY`; see `tool_core::model::from_env`),
//! the same loop runs against that API and says so:
//!
//! `OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=qwen2.5 cargo run --example quickstart --features http`
//!
//! `OPENAI_API=responses` picks OpenAI's Responses API, and `GEMINI_API=interactions` Google's
//! Interactions API instead of `generateContent`:
//!
//! `GEMINI_API_KEY=... GEMINI_API=interactions GEMINI_MODEL=gemini-3-flash-preview cargo run --example quickstart --features http`
//!
//! (`cargo run --example dispatch_tour` shows dispatch of good and bad calls and XML mode
//! step by step.)

use std::io::Write;

use tool_core::model::{Model, ModelTurn, ScriptedModel};
use tool_core::runner::{RunEvent, RunOutcome, Runner};
use tool_core::{tool, tools, Json, ToolCall, ToolError};

/// Temperature unit.
#[tool_core::tool_type]
#[derive(Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

#[tool_core::tool_type]
pub struct Weather {
    location: String,
    temperature: f64,
    unit: Unit,
}

/// Current weather for a city. Use it when the user asks about weather right now.
#[tool(read_only, open_world)]
fn get_weather(
    /// City and country, e.g. "Paris, France".
    location: String,
    /// Temperature unit; Celsius when omitted.
    unit: Option<Unit>,
) -> Result<Json<Weather>, ToolError> {
    if location.trim().is_empty() {
        return Err(ToolError::invalid_param(
            "'location' must name a city, e.g. \"Paris, France\"",
        ));
    }
    let unit = unit.unwrap_or(Unit::Celsius);
    let temperature = match unit {
        Unit::Celsius => 21.5,
        Unit::Fahrenheit => 70.7,
    };
    Ok(Json(Weather {
        location,
        temperature,
        unit,
    }))
}

/// Adds two integers and returns the sum.
#[tool(read_only, idempotent)]
fn add(a: i64, b: i64) -> Result<i64, ToolError> {
    a.checked_add(b)
        .ok_or_else(|| ToolError::invalid_param("the sum overflows a 64-bit integer"))
}

/// Searches the document index and returns the best matches.
#[tool(read_only)]
async fn search(
    /// Words to look for.
    query: String,
    /// Maximum number of results.
    #[arg(default = 3)]
    limit: u32,
) -> Json<Vec<String>> {
    Json(
        (1..=limit.min(3))
            .map(|i| format!("{query} #{i}"))
            .collect(),
    )
}

const QUESTION: &str = "What's the weather in Paris, and what is 40 + 2?";

/// The model: the endpoint the environment names (with the `http` feature), else a script of
/// what a tool-calling model answers to `QUESTION`.
fn model() -> Box<dyn Model> {
    #[cfg(feature = "http")]
    if let Some(found) = tool_core::model::from_env() {
        println!("model: {found}");
        return found.model;
    }
    #[cfg(not(feature = "http"))]
    if let Some(var) = endpoint_var() {
        println!(
            "model: scripted ({var} is set, but this build has no HTTP client; \
             `cargo run --example quickstart --features http` uses it)"
        );
        return scripted();
    }
    let how = if cfg!(feature = "http") {
        ""
    } else {
        " and add `--features http`"
    };
    println!(
        "model: scripted (set OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY or \
         GEMINI_API_KEY (GEMINI_API=interactions for the Interactions API){how} to use a real \
         one)"
    );
    scripted()
}

/// What a tool-calling model answers to `QUESTION`, streamed in small chunks.
fn scripted() -> Box<dyn Model> {
    Box::new(ScriptedModel::new([
        ModelTurn::with_calls(
            "Let me check the weather and do the sum.",
            vec![
                ToolCall::new("call_1", "get_weather", r#"{"location":"Paris, France"}"#),
                ToolCall::new("call_2", "add", r#"{"a":40,"b":2}"#),
            ],
        ),
        ModelTurn::text("It is 21.5 °C in Paris right now, and 40 + 2 = 42."),
    ]))
}

/// The first variable that would name an endpoint for `tool_core::model::from_env` (same
/// names, same rule: set and not blank). Without the `http` feature there is no client to
/// reach it, so the quickstart says so instead of ignoring it silently.
#[cfg(not(feature = "http"))]
fn endpoint_var() -> Option<&'static str> {
    [
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GEMINI_API_KEY",
    ]
    .into_iter()
    .find(|name| std::env::var(name).is_ok_and(|value| !value.trim().is_empty()))
}

fn main() {
    let runner = Runner::new(model(), tools![get_weather, add, search]);
    println!("user: {QUESTION}");
    let mut stream = runner.run_streamed(QUESTION);
    let run = async {
        while let Some(event) = stream.next_event().await {
            show(&event);
            // Flushing per delta is what shows the text while it streams.
            let _ = std::io::stdout().flush();
        }
    };
    // The HTTP adapters run on tokio; the scripted model runs on any executor, here the
    // library's own minimal one.
    #[cfg(feature = "http")]
    {
        let Ok(runtime) = tokio::runtime::Runtime::new() else {
            eprintln!("could not start a tokio runtime");
            std::process::exit(1);
        };
        runtime.block_on(run);
    }
    #[cfg(not(feature = "http"))]
    tool_core::block_on(run);
}

fn show(event: &RunEvent) {
    match event {
        RunEvent::TurnStarted { .. } => print!("assistant: "),
        RunEvent::TextDelta { text } => print!("{text}"),
        RunEvent::CallReady { call, .. } => print!("\n  -> {}({})", call.name, call.arguments),
        RunEvent::TurnFinished { .. } => println!(),
        RunEvent::ToolResult {
            call_id, response, ..
        } => println!("  <- {call_id}: {}", response.model_text()),
        RunEvent::RunFinished { outcome, turns, .. } => match outcome {
            RunOutcome::Finished { text } => {
                println!("\nanswer after {turns} model turns: {text}")
            }
            other => println!("\nthe run ended: {other:?}"),
        },
        RunEvent::RunFailed { error, .. } => println!("\nthe run failed: {error}"),
        _ => {}
    }
}
