use tool_core::prompt;

/// Plans a trip.
#[prompt]
fn plan_trip(cities: Vec<String>) -> String {
    format!("Plan a trip to {cities:?}.")
}

fn main() {}
