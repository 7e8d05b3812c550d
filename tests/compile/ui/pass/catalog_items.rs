//! `#[resource]` and `#[prompt]` on every supported shape, used through a catalog.

use tool_core::catalog::{Blob, Catalog, PromptArguments, PromptMessage, ResourceBody, Role};
use tool_core::{prompt, prompts, resource, resources, Json};

#[derive(serde::Serialize)]
struct Weather {
    city: String,
    temp_c: f32,
}

/// Current conditions for a city.
#[resource(uri = "weather://{city}/current", title = "Current weather")]
fn current(city: String) -> Json<Weather> {
    Json(Weather { city, temp_c: 21.5 })
}

/// A day's forecast.
#[resource(uri = "forecast://{city}/{day}", name = "forecast")]
async fn forecast_for(city: String, day: u8) -> Result<String, String> {
    if day > 7 {
        return Err(format!("no forecast {day} days ahead"));
    }
    Ok(format!("{city}: sunny on day {day}"))
}

/// The units every value uses.
#[resource(uri = "docs://units", mime_type = "text/markdown")]
fn units() -> &'static str {
    "# Units\n°C"
}

/// The logo.
#[resource(uri = "images://logo")]
fn logo() -> Blob {
    Blob::new(vec![1, 2, 3], "image/png")
}

/// A note whose parameter is a keyword.
#[resource(uri = "notes://{type}")]
fn note(r#type: String) -> String {
    r#type
}

/// Plans a trip.
#[prompt(title = "Plan a trip")]
fn plan_trip(
    /// Where to go.
    city: String,
    /// How many days.
    days: Option<u32>,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Plan {} days in {city}.", days.unwrap_or(3))),
        PromptMessage::assistant("Sure."),
    ]
}

/// Says hello, asynchronously.
#[prompt(name = "hello")]
async fn greet() -> Result<String, std::fmt::Error> {
    Ok("Hello!".to_string())
}

fn main() {
    let catalog: Catalog = resources![current, forecast_for, units, logo, note].merge(prompts![plan_trip, greet]);
    assert_eq!(catalog.fixed_resources().count(), 2);
    assert_eq!(catalog.templates().count(), 3);

    let read = tool_core::block_on(catalog.read("weather://Oslo/current")).unwrap();
    assert_eq!(read.text(), Some(r#"{"city":"Oslo","temp_c":21.5}"#));
    let read = tool_core::block_on(catalog.read("forecast://Oslo/2")).unwrap();
    assert_eq!(read.text(), Some("Oslo: sunny on day 2"));
    assert!(tool_core::block_on(catalog.read("forecast://Oslo/9")).is_err());
    assert!(tool_core::block_on(catalog.read("forecast://Oslo/x")).is_err());
    let read = tool_core::block_on(catalog.read("docs://units")).unwrap();
    assert_eq!(read.mime_type.as_deref(), Some("text/markdown"));
    let read = tool_core::block_on(catalog.read("images://logo")).unwrap();
    assert_eq!(read.body, ResourceBody::Blob(vec![1, 2, 3]));
    let read = tool_core::block_on(catalog.read("notes://x")).unwrap();
    assert_eq!(read.text(), Some("x"));

    let args = PromptArguments::from([("city".to_string(), "Rome".to_string())]);
    let messages = tool_core::block_on(catalog.render("plan_trip", &args)).unwrap();
    assert_eq!(messages[1].role, Role::Assistant);
    let messages = tool_core::block_on(catalog.render("hello", &PromptArguments::new())).unwrap();
    assert_eq!(messages[0].text, "Hello!");
}
