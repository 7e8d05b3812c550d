use tool_core::tool;

/// Searches the index.
///
/// # Arguments
///
/// * `query` - What to find.
/// * `limit` - How many results.
#[tool]
fn search(query: String) -> String {
    query
}

fn main() {}
