use tool_core::tool;

/// Searches.
#[tool]
fn search(#[arg(desc = "what to find")] query: String) -> String {
    query
}

fn main() {}
