use tool_core::tool;

/// Searches the web.
#[tool(name = "web search")]
fn search(query: String) -> String {
    query
}

fn main() {}
