use tool_core::resource;

/// Current conditions for a city.
#[resource(uri = "weather://{city}/current")]
fn current(city: Option<String>) -> String {
    city.unwrap_or_default()
}

fn main() {}
