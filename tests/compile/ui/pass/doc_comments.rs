use tool_core::{tool, tools};

/// Searches the index.
///
/// Use it for *exact* phrases:
///
///     "like this"
///
/// # Arguments
///
/// * `query` - What to find.
/// * `limit` - How many results,
///   at most 50.
#[tool]
fn search(query: String, limit: Option<u32>) -> String {
    format!("{query} {limit:?}")
}

fn main() {
    let r = tools![search];
    let def = &r.definitions()[0];
    assert_eq!(def.description, "Searches the index.\n\nUse it for *exact* phrases:\n\n    \"like this\"");
    assert_eq!(def.input_schema["properties"]["limit"]["description"], "How many results, at most 50.");
}
