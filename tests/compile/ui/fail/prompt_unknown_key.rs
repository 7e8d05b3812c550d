use tool_core::prompt;

/// Plans a trip.
#[prompt(uri = "prompts://plan", titel = "Plan")]
fn plan_trip(city: String) -> String {
    format!("Plan a trip to {city}.")
}

fn main() {}
