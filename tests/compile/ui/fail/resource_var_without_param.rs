use tool_core::resource;

/// Current conditions for a city.
#[resource(uri = "weather://{city}/current")]
fn current() -> String {
    String::new()
}

fn main() {}
