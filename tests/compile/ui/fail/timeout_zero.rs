use tool_core::tool;

/// Waits.
#[tool(timeout_ms = 0)]
async fn wait() -> &'static str {
    "ok"
}

fn main() {}
