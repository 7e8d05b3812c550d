use tool_core::prompt;

/// Plans a trip.
#[prompt]
fn plan_trip(city: String) -> usize {
    city.len()
}

fn main() {}
