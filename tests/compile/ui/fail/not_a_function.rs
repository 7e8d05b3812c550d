use tool_core::tool;

/// A struct is not a tool.
#[tool]
struct Search {
    query: String,
}

fn main() {}
