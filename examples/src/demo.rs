//! The three tools the `dispatch_tour`, `mcp_server` and `mcp_client` examples share (the
//! quickstart defines its own, so it reads on its own).
//!
//! `#[tool_type]` derives serde and schemars through tool-core, so this crate needs no
//! dependency on them.

use tool_core::{tool, Json, ToolError};

/// Temperature unit.
#[tool_core::tool_type]
#[derive(Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// The weather at one place.
#[tool_core::tool_type]
pub struct Weather {
    location: String,
    temperature: f64,
    unit: Unit,
}

/// Current weather for a city. Use it when the user asks about weather right now.
#[tool(read_only, open_world)]
pub fn get_weather(
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
pub fn add(a: i64, b: i64) -> Result<i64, ToolError> {
    a.checked_add(b)
        .ok_or_else(|| ToolError::invalid_param("the sum overflows a 64-bit integer"))
}

/// Searches the document index and returns the best matches.
#[tool(read_only)]
pub async fn search(
    /// Words to look for.
    query: String,
    /// Maximum number of results.
    #[arg(default = 3)]
    limit: u32,
    /// Only documents with all of these tags.
    tags: Vec<String>,
) -> Json<Vec<String>> {
    let hits = (1..=limit.min(3))
        .map(|i| format!("{query} #{i} [{}]", tags.join(",")))
        .collect();
    Json(hits)
}
