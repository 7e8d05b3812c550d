use tool_core::Tool;

/// An action.
#[derive(Tool)]
enum Action {
    Start,
    Stop,
}

fn main() {}
