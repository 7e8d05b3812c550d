use tool_core::{tool, tool_type, tools, Json, ToolCall};

/// How hot.
#[tool_type]
#[derive(Debug)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

#[tool_type]
#[derive(Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    City { name: String },
    Coordinates { lat: f64, lon: f64 },
}

#[tool_type]
#[derive(Debug)]
pub struct Report {
    target: String,
    unit: Unit,
}

/// Weather for a target.
#[tool]
fn weather(target: Target, #[arg(default = Unit::Celsius)] unit: Unit) -> Json<Report> {
    let target = match target {
        Target::City { name } => name,
        Target::Coordinates { lat, lon } => format!("{lat},{lon}"),
    };
    Json(Report { target, unit })
}

fn main() {
    let reply = tools![weather].call_blocking(&ToolCall::new("1", "weather", r#"{"target":{"kind":"city","name":"Oslo"}}"#));
    assert_eq!(reply.model_text(), r#"{"target":"Oslo","unit":"celsius"}"#);
}
