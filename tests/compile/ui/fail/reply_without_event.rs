use tool_core::Tool;

/// Shows cards.
#[derive(Tool)]
#[tool_def(reply = "Shown.")]
struct ShowCards {
    titles: Vec<String>,
}

fn main() {}
