use tool_core::tool;

/// Greets someone.
#[tool]
fn greet(name: impl Into<String>) -> String {
    name.into()
}

fn main() {}
