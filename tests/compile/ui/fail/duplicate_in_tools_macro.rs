use tool_core::{tool, tools};

/// Says hi.
#[tool]
fn hi() -> &'static str {
    "hi"
}

/// Also says hi.
#[tool(name = "hi")]
fn hello() -> &'static str {
    "hello"
}

fn main() {
    let _registry = tools![hi, hello];
}
