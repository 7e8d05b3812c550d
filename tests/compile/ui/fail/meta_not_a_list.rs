use tool_core::{resource, tool};

/// The units.
#[resource(uri = "docs://units", meta = "{\"audience\": \"users\"}")]
fn units() -> &'static str {
    "°C"
}

/// Adds two numbers.
#[tool(meta(), meta(a = 1))]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
