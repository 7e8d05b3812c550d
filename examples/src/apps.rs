//! A tool with an interactive view (the MCP Apps extension), as the `mcp_http` example serves
//! it: `weather_dashboard` answers in text that stands alone, and names the `ui://` view a
//! host that renders apps shows beside that text.

use tool_core::catalog::Catalog;
use tool_core::{resource, resources, tool};

/// The view's URI, as the tool names it and the catalog serves it.
pub const DASHBOARD_URI: &str = "ui://weather/dashboard";

/// Shows the current weather of a city on an interactive dashboard (and in text).
#[tool(read_only, app = "ui://weather/dashboard")]
pub fn weather_dashboard(
    /// The city, e.g. "Oslo".
    city: String,
) -> String {
    format!("Weather in {city}: 21.5 °C, clear skies, light wind from the west.")
}

/// The weather dashboard: renders the `weather_dashboard` tool's result.
#[resource(
    uri = "ui://weather/dashboard",
    title = "Weather dashboard",
    app(prefers_border = true)
)]
pub fn dashboard() -> &'static str {
    DASHBOARD_HTML
}

/// The dashboard's document: it receives the tool's result from the host (the extension's
/// `ui/notifications/tool-result`) and shows its text.
const DASHBOARD_HTML: &str = r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Weather dashboard</title></head>
<body>
<h1>Weather</h1>
<p id="report">Waiting for the forecast…</p>
<script>
window.addEventListener("message", (event) => {
  const message = event.data;
  if (message && message.method === "ui/notifications/tool-result") {
    const text = (message.params.content || []).find((block) => block.type === "text");
    document.getElementById("report").textContent = text ? text.text : "";
  }
});
</script>
</body>
</html>
"#;

/// The catalog that serves the dashboard.
pub fn catalog() -> Catalog {
    resources![dashboard]
}
