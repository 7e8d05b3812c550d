use tool_core::tool;

/// Tomorrow's forecast.
#[tool(icon(
    src = "https://example.com/sun.png",
    mime_type = "text/html",
    sizes = "48 96x96",
    theme = "blue",
    alt = "a sun"
))]
fn forecast(city: String) -> String {
    city
}

fn main() {}
