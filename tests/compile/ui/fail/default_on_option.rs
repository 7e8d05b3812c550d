use tool_core::tool;

/// Lists items.
#[tool]
fn list(#[arg(default = 10)] limit: Option<u32>) -> String {
    format!("{limit:?}")
}

fn main() {}
