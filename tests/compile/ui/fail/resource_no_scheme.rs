use tool_core::resource;

/// The units.
#[resource(uri = "units.txt")]
fn units() -> &'static str {
    "celsius"
}

fn main() {}
