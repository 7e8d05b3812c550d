use tool_core::tool;

/// Tomorrow's forecast.
#[tool(icon = "file:///usr/share/icons/sun.png")]
fn forecast(city: String) -> String {
    city
}

fn main() {}
