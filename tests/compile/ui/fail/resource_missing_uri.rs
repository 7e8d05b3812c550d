use tool_core::resource;

/// The units.
#[resource(name = "units")]
fn units() -> &'static str {
    "celsius"
}

fn main() {}
