use tool_core::tool;

/// Searches.
#[tool]
fn search(#[arg(rename = "q")] #[arg(default = "rust")] query: String) -> String {
    query
}

fn main() {}
