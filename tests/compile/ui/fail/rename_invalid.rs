use tool_core::tool;

/// Searches.
#[tool]
fn search(#[arg(rename = "the query")] query: String) -> String {
    query
}

fn main() {}
