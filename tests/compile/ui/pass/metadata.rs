//! `icon` and `meta` on every item that takes them: a `#[tool]` function, a `#[toolbox]`
//! method, a `#[derive(Tool)]` struct, a `#[resource]` and a `#[prompt]`.

use std::sync::Arc;

use tool_core::{
    prompt, prompts, resource, resources, tool, toolbox, tools, IconTheme, ToolRegistry,
};

/// Tomorrow's forecast.
#[tool(
    icon = "https://example.com/sun.png",
    icon(src = "data:image/png;base64,iVBORw0KGgo=", mime_type = "image/png", sizes = "16x16, 32x32", theme = "light"),
    meta(r#type = "weather", "com.example/cost" = 1.5, negative = -2, flags = [true, false])
)]
fn forecast(city: String) -> String {
    city
}

struct Notes;

#[toolbox]
impl Notes {
    /// Lists the notes.
    #[tool(read_only, icon(src = "https://example.com/notes.svg", sizes = "any", theme = "dark"))]
    fn list(&self) -> String {
        String::new()
    }
}

/// Shows a chart.
#[derive(tool_core::Tool)]
#[tool_def(event = "chart", icon = "https://example.com/chart.png", meta(kind = "chart"))]
struct ShowChart {
    series: Vec<f64>,
}

/// The units.
#[resource(uri = "docs://units", icon = "https://example.com/ruler.png", meta(audience = "users"))]
fn units() -> &'static str {
    "°C"
}

/// Says hello.
#[prompt(icon(src = "https://example.com/wave.png"), meta(tone = "warm"))]
fn hello() -> &'static str {
    "Hello!"
}

fn main() {
    let registry = tools![forecast, ShowChart];
    let forecast = registry.definition("forecast").unwrap();
    assert_eq!(forecast.icons.len(), 2);
    assert_eq!(forecast.icons[1].sizes, ["16x16", "32x32"]);
    let meta = forecast.meta.as_ref().unwrap();
    assert_eq!(meta["type"], "weather");
    assert_eq!(meta["com.example/cost"], 1.5);
    assert_eq!(meta["negative"], -2);
    assert_eq!(meta["flags"][1], false);
    let chart = registry.definition("show_chart").unwrap();
    assert_eq!(chart.meta.as_ref().unwrap()["kind"], "chart");

    let notes = ToolRegistry::new().with_all(Arc::new(Notes));
    let list = notes.definition("list").unwrap();
    assert_eq!(list.icons[0].theme, Some(IconTheme::Dark));
    assert!(list.meta.is_none());

    let catalog = resources![units].merge(prompts![hello]);
    let units = catalog.resources().next().unwrap();
    assert_eq!(units.icons[0].src, "https://example.com/ruler.png");
    assert_eq!(units.meta.as_ref().unwrap()["audience"], "users");
    let hello = catalog.prompt("hello").unwrap();
    assert_eq!(hello.meta.as_ref().unwrap()["tone"], "warm");
}
