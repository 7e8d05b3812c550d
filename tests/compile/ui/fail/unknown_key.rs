use tool_core::tool;

/// Searches the web.
#[tool(readonly)]
fn search(query: String) -> String {
    query
}

fn main() {}
