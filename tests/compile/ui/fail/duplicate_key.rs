use tool_core::tool;

/// Searches the web.
#[tool(name = "a", name = "b")]
fn search(query: String) -> String {
    query
}

fn main() {}
