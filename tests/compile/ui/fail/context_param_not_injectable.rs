use tool_core::tool;

/// Greets the caller.
#[tool]
fn greet(#[context] user: String) -> String {
    user
}

fn main() {}
