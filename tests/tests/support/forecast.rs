//! The typed answer the typed-output tests ask for, and the model answers they script.

/// A weather forecast: what a run returns instead of text.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
pub struct Forecast {
    /// The city.
    pub city: String,
    /// Temperature in degrees Celsius.
    pub temp_c: f64,
    /// Whether to take an umbrella.
    pub umbrella: bool,
}

/// A valid answer: [`paris`].
pub const VALID: &str = r#"{"city":"Paris","temp_c":15.0,"umbrella":true}"#;
/// `temp_c` is a string: decoding into `Forecast` fails.
pub const WRONG_TYPE: &str = r#"{"city":"Paris","temp_c":"fifteen","umbrella":true}"#;

/// The forecast [`VALID`] holds.
pub fn paris() -> Forecast {
    Forecast {
        city: "Paris".into(),
        temp_c: 15.0,
        umbrella: true,
    }
}
