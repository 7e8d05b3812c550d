use tool_core::tool;

/// Adds two numbers.
#[tool(meta(built = std::env::var("USER")))]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
