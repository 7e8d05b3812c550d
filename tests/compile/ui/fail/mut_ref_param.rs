use tool_core::tool;

/// Appends.
#[tool]
fn append(buffer: &mut String) -> String {
    buffer.clone()
}

fn main() {}
