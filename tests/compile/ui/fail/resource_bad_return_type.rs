use tool_core::resource;

/// A number.
#[resource(uri = "numbers://answer")]
fn answer() -> u32 {
    42
}

fn main() {}
