//! Tools and helpers the tests share.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tool_core::{tool, tools, ToolCall, ToolRegistry, ToolResponse};
use tool_core_code::CodeMode;

/// Adds two integers.
#[tool(allowed_callers = "any")]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Current weather for a city.
#[tool(allowed_callers = "any")]
pub fn get_weather(city: String) -> String {
    format!(r#"{{"city":"{city}","temp_c":21,"sky":"sunny"}}"#)
}

/// A forecast.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Forecast {
    /// The city.
    pub city: String,
    /// Degrees Celsius.
    pub temp_c: f64,
    /// Rain expected.
    pub rain: bool,
}

/// Tomorrow's forecast for a city.
#[tool(allowed_callers = "program")]
pub fn forecast(city: String) -> tool_core::Json<Forecast> {
    tool_core::Json(Forecast {
        city,
        temp_c: 17.5,
        rain: true,
    })
}

/// Squares of the numbers up to `n`.
#[tool(allowed_callers = "program")]
pub fn squares(n: u32) -> tool_core::Json<Vec<u32>> {
    tool_core::Json((1..=n).map(|i| i * i).collect())
}

/// The paths `delete_file` deleted (tests use paths of their own, so they run in parallel).
pub static DELETED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// How often `wipe_database` ran: never, since only the model may call it.
pub static WIPED: AtomicUsize = AtomicUsize::new(0);

/// Whether `delete_file` ran for `path`.
pub fn deleted(path: &str) -> bool {
    DELETED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .any(|p| p == path)
}

/// Deletes a file.
#[tool(destructive, allowed_callers = "any")]
pub fn delete_file(path: String) -> String {
    DELETED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(path.clone());
    format!("deleted {path}")
}

/// Wipes the database; the model must call it itself.
#[tool]
pub fn wipe_database() -> &'static str {
    WIPED.fetch_add(1, Ordering::SeqCst);
    "wiped"
}

/// The tools the tests' programs call.
pub fn registry() -> ToolRegistry {
    tools![
        add,
        get_weather,
        delete_file,
        wipe_database,
        forecast,
        squares
    ]
}

/// Runs `code` through the code tool of `mode` and gives the response.
pub fn run_code(mode: &CodeMode, code: &str) -> ToolResponse {
    let registry = Arc::new(mode.registry());
    let arguments = serde_json::json!({ "code": code }).to_string();
    tool_core::block_on(registry.call(&ToolCall::new("prog_1", "run_code", arguments)))
}

/// Runs `code` under the default code mode over [`registry`].
pub fn run(code: &str) -> ToolResponse {
    run_code(&CodeMode::new(registry()), code)
}
