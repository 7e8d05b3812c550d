use tool_core::Tool;

/// A pair.
#[derive(Tool)]
struct Pair(i32, i32);

fn main() {}
