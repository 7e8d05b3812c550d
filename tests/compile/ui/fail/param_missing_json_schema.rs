use tool_core::tool;

#[derive(serde::Deserialize)]
struct Filters {
    tag: String,
}

/// Searches by tag.
#[tool]
fn search(query: String, filters: Option<Filters>) -> String {
    format!("{query} {}", filters.map(|f| f.tag).unwrap_or_default())
}

fn main() {}
