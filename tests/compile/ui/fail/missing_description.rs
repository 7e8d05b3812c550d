use tool_core::tool;

#[tool]
fn undocumented(x: i32) -> i32 {
    x
}

fn main() {}
