use tool_core::{tool, Json};

struct Report {
    lines: usize,
}

/// Counts lines.
#[tool]
fn count(text: String) -> Result<Json<Report>, String> {
    Ok(Json(Report { lines: text.lines().count() }))
}

fn main() {}
