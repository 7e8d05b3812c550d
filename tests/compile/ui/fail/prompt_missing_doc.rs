use tool_core::prompt;

#[prompt]
fn plan_trip(city: String) -> String {
    format!("Plan a trip to {city}.")
}

fn main() {}
