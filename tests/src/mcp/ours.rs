//! The fixture tools as `#[tool]` functions, served by `tool_core::mcp::McpServer`.

use std::sync::Arc;
use std::time::Duration;

use tool_core::{
    tool, tool_type, tools, CancelFlag, Extension, Json, ProgressReporter, ToolError, ToolRegistry,
};

use super::CancelProbe;

/// The structured result of `forecast`.
#[tool_type]
#[derive(Debug, Clone, PartialEq)]
pub struct Forecast {
    /// The city asked about.
    pub city: String,
    /// Temperature in degrees Celsius.
    pub temp_c: f64,
}

/// Adds two integers.
#[tool(read_only, idempotent)]
pub fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Tomorrow's forecast for a city.
#[tool(read_only, title = "Weather forecast")]
pub fn forecast(
    /// City name, e.g. "Paris".
    city: String,
) -> Json<Forecast> {
    Json(Forecast { city, temp_c: 21.5 })
}

/// Always fails, with the reason given.
#[tool]
pub fn fail(
    /// What to say went wrong.
    reason: String,
) -> Result<String, ToolError> {
    Err(ToolError::not_found(reason))
}

/// Works through `steps` steps of 20 ms, reporting progress after each; stops early when
/// cancelled.
#[tool]
pub async fn slow(
    /// How many steps to take.
    steps: u32,
    progress: ProgressReporter,
    cancel: CancelFlag,
    probe: Option<Extension<Arc<CancelProbe>>>,
) -> String {
    for step in 1..=steps {
        if cancel.is_cancelled() {
            if let Some(Extension(probe)) = &probe {
                probe.record();
            }
            return format!("cancelled after {} steps", step - 1);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        progress.report(f64::from(step), Some(f64::from(steps)), Some("working"));
    }
    format!("{steps} steps done")
}

/// The four tools, with a probe `slow` records cancellations in.
pub fn registry(probe: Arc<CancelProbe>) -> ToolRegistry {
    tools![add, forecast, fail, slow].with_extension(probe)
}
