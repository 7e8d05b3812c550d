use tool_core::tool;

#[tool(description = "   ")]
fn blank() -> &'static str {
    "ok"
}

fn main() {}
