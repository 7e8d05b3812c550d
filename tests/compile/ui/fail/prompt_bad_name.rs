use tool_core::prompt;

/// Plans a trip.
#[prompt(name = "plan trip!")]
fn plan_trip(city: String) -> String {
    format!("Plan a trip to {city}.")
}

fn main() {}
