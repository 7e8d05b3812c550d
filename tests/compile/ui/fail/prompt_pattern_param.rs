use tool_core::prompt;

/// Plans a trip.
#[prompt]
fn plan_trip((city, days): (String, u32)) -> String {
    format!("Plan {days} days in {city}.")
}

fn main() {}
