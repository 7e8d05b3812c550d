use tool_core::{tools, Tool};

/// Reverses a word.
#[derive(Tool)]
struct Reverse {
    word: String,
}

fn main() {
    let _registry = tools![Reverse];
}
