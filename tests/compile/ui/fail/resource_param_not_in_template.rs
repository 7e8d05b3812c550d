use tool_core::resource;

/// Current conditions for a city.
#[resource(uri = "weather://{city}/current")]
fn current(city: String, unit: String) -> String {
    format!("{city} {unit}")
}

fn main() {}
