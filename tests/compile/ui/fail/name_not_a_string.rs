use tool_core::tool;

/// Searches.
#[tool(name = search_web)]
fn search(query: String) -> String {
    query
}

fn main() {}
