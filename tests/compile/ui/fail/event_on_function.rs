use tool_core::tool;

/// Shows cards.
#[tool(event = "cards")]
fn show(titles: Vec<String>) -> usize {
    titles.len()
}

fn main() {}
