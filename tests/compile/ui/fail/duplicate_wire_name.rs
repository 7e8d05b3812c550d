use tool_core::tool;

/// Searches.
#[tool]
fn search(query: String, #[arg(rename = "query")] q: String) -> String {
    query + &q
}

fn main() {}
