//! Typed final output: [`OutputSpec`], what the answer must be and how the model is asked for
//! it.

use std::fmt;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::decode_arguments;
use crate::definition::ToolDefinition;
use crate::model::JsonOutput;
use crate::provider::openai_chat::strict_schema;
use crate::schema::canonical_schema;
use crate::schema::nulls::{has_optional_without_null, strip_optional_nulls};

/// The default name of the answer's shape, and of the final-answer tool.
pub(crate) const DEFAULT_OUTPUT_NAME: &str = "final_answer";

/// The key a non-object answer is wrapped under (tools and structured outputs take objects).
const WRAP_KEY: &str = "response";

/// How the model is asked for the typed answer.
///
/// ```
/// use tool_core::runner::{OutputMode, OutputSpec};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct City { name: String }
/// let spec = OutputSpec::of::<City>().mode(OutputMode::Tool);
/// assert_eq!(spec.mode, OutputMode::Tool);
/// assert_eq!(OutputMode::default(), OutputMode::Auto);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum OutputMode {
    /// The provider's native structured output where the model has it
    /// ([`Model::native_output`](crate::model::Model::native_output)), else a final-answer
    /// tool.
    #[default]
    Auto,
    /// Always the provider's native structured output (the answer is the text of the last
    /// turn).
    Native,
    /// Always a final-answer tool: offered next to the run's tools, with `tool_choice`
    /// `required` while the model has not answered.
    Tool,
}

/// Checks an answer's JSON text against the output type and returns it as a value, or the
/// decoding error (what was wrong, and where).
type Check = fn(&str, &str) -> Result<Value, String>;

/// The typed answer a run must end with: its JSON Schema (from `T: JsonSchema`), how the
/// model is asked for it ([`OutputMode`]), and how many invalid answers go back to the model
/// with the error before the run fails with
/// [`RunError::OutputInvalid`](super::RunError::OutputInvalid).
///
/// An answer is checked by decoding it into `T`. A run restored from storage keeps the
/// schema, mode and count but checks answers only for being JSON objects until
/// [`Run::expect_output`](super::Run::expect_output) names the type again.
///
/// ```
/// use tool_core::runner::{OutputMode, OutputSpec};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Verdict { guilty: bool }
/// let spec = OutputSpec::of::<Verdict>().name("verdict").description("The jury's verdict.").max_retries(3);
/// assert_eq!(spec.format.name, "verdict");
/// assert_eq!(spec.format.schema["required"], serde_json::json!(["guilty"]));
/// assert_eq!((spec.mode, spec.max_retries), (OutputMode::Auto, 3));
/// ```
#[derive(Clone, Serialize, Deserialize)]
#[non_exhaustive]
pub struct OutputSpec {
    /// Name, description and schema of the answer (also the final-answer tool's).
    pub format: JsonOutput,
    /// How the model is asked for it.
    pub mode: OutputMode,
    /// How many invalid answers are sent back to the model before the run fails (default 2).
    pub max_retries: u32,
    /// The type is not an object: the answer is `{"response": value}`.
    #[serde(default)]
    wrapped: bool,
    #[serde(skip, default = "restored_check")]
    check: Check,
}

impl OutputSpec {
    /// The answer must decode into `T`; named `final_answer`, mode [`OutputMode::Auto`], two
    /// retries. A `T` that is not an object (a list, an enum, a number) is asked for as
    /// `{"response": T}` and unwrapped.
    ///
    /// ```
    /// let spec = tool_core::runner::OutputSpec::of::<Vec<String>>();
    /// assert_eq!(spec.format.name, "final_answer");
    /// assert_eq!(spec.format.schema["properties"]["response"]["type"], "array");
    /// ```
    pub fn of<T: DeserializeOwned + JsonSchema>() -> Self {
        let probe = canonical_probe::<T>();
        let (schema, wrapped, check): (Value, bool, Check) = if probe {
            (canonical_schema::<T>(), false, check_as::<T>)
        } else {
            (
                canonical_schema::<Wrapped<T>>(),
                true,
                check_as::<Wrapped<T>>,
            )
        };
        OutputSpec {
            format: JsonOutput::new(DEFAULT_OUTPUT_NAME, schema)
                .with_description("The final answer to the user's request."),
            mode: OutputMode::Auto,
            max_retries: 2,
            wrapped,
            check,
        }
    }

    /// Renames the answer (and the final-answer tool); pick a name no tool of the run has.
    ///
    /// ```
    /// let spec = tool_core::runner::OutputSpec::of::<i64>().name("total");
    /// assert_eq!(spec.format.name, "total");
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.format.name = name.into();
        self
    }

    /// Describes the answer to the model.
    ///
    /// ```
    /// let spec = tool_core::runner::OutputSpec::of::<i64>().description("The sum.");
    /// assert_eq!(spec.format.description.as_deref(), Some("The sum."));
    /// ```
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.format.description = Some(description.into());
        self
    }

    /// Sets how the model is asked for the answer.
    ///
    /// ```
    /// use tool_core::runner::{OutputMode, OutputSpec};
    /// assert_eq!(OutputSpec::of::<i64>().mode(OutputMode::Native).mode, OutputMode::Native);
    /// ```
    pub fn mode(mut self, mode: OutputMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets how many invalid answers go back to the model (0: the first invalid one fails
    /// the run).
    ///
    /// ```
    /// assert_eq!(tool_core::runner::OutputSpec::of::<i64>().max_retries(0).max_retries, 0);
    /// ```
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// Checks `text` (the answer's JSON): the value, unwrapped, or the decoding error (what
    /// was wrong, where), which names no way of answering: the retry message adds that.
    pub(crate) fn check(&self, text: &str) -> Result<Value, String> {
        // OpenAI's strict form of the schema (native output, or the final-answer tool) makes
        // optional fields nullable; a `null` there means the field was left out.
        let text = strip_fence(text);
        let stripped = strict_nulls(&self.format.schema, text);
        let text = stripped.as_deref().unwrap_or(text);
        let value = (self.check)(&self.format.name, text)?;
        if !self.wrapped {
            return Ok(value);
        }
        match value {
            Value::Object(mut map) => map
                .remove(WRAP_KEY)
                .ok_or_else(|| format!("missing field `{WRAP_KEY}`")),
            _ => Err(format!(
                "the answer must be an object with a '{WRAP_KEY}' member"
            )),
        }
    }

    /// The final-answer tool.
    pub(crate) fn tool(&self) -> ToolDefinition {
        let description = self
            .format
            .description
            .clone()
            .unwrap_or_else(|| "The final answer.".to_string());
        ToolDefinition::new(
            self.format.name.clone(),
            format!("{description} Call this tool exactly once, when you have the answer."),
            self.format.schema.clone(),
        )
    }

    /// Re-attaches the type check of `T` (lost when the spec was serialized).
    pub(crate) fn set_type<T: DeserializeOwned + JsonSchema>(&mut self) {
        self.check = OutputSpec::of::<T>().check;
    }
}

impl fmt::Debug for OutputSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputSpec")
            .field("format", &self.format)
            .field("mode", &self.mode)
            .field("max_retries", &self.max_retries)
            .finish_non_exhaustive()
    }
}

/// Two specs are equal when they ask for the same answer (the check cannot be compared).
impl PartialEq for OutputSpec {
    fn eq(&self, other: &Self) -> bool {
        self.format == other.format
            && self.mode == other.mode
            && self.max_retries == other.max_retries
            && self.wrapped == other.wrapped
    }
}

/// Whether `T`'s schema is an object at the root (so it needs no wrapper).
fn canonical_probe<T: JsonSchema>() -> bool {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let root = generator.into_root_schema_for::<T>().to_value();
    root.get("type").and_then(Value::as_str) == Some("object")
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "schemars")]
struct Wrapped<T> {
    // Read by serde only: decoding is the check.
    #[allow(dead_code)]
    response: T,
}

fn check_as<T: DeserializeOwned>(name: &str, text: &str) -> Result<Value, String> {
    let text = strip_fence(text);
    // What is accepted is what a tool accepts (a double-encoded object too); only the error
    // is worded here, since `decode_arguments` words it for a tool call.
    if decode_arguments::<T>(name, text).is_err() {
        return Err(decoding_error::<T>(text));
    }
    decode_arguments::<Value>(name, text).map_err(|_| decoding_error::<Value>(text))
}

/// Why `text` does not decode into `T`: serde's message, with the path into the answer
/// where there is one, e.g. `at 'temp_c': invalid type: string "fifteen", expected f64`.
fn decoding_error<T: DeserializeOwned>(text: &str) -> String {
    let mut de = serde_json::Deserializer::from_str(text);
    let error = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(_) => match de.end() {
            Ok(()) => return "the answer could not be decoded consistently".to_string(),
            Err(error) => return format!("the answer is not valid JSON: {error}"),
        },
        Err(error) => error,
    };
    let path = error.path().to_string();
    let inner = error.into_inner();
    if inner.is_syntax() || inner.is_eof() {
        return format!("the answer is not valid JSON: {inner}");
    }
    if path == "." {
        return inner.to_string();
    }
    // The path says where; serde's line and column would say it again.
    let message = inner.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) if inner.line() > 0 => message.get(..at).unwrap_or(&message).to_string(),
        _ => message,
    };
    format!("at '{path}': {message}")
}

/// The check of a restored spec: the answer must be a JSON object.
fn restored_check() -> Check {
    check_as::<serde_json::Map<String, Value>>
}

/// The answer without the `null`s OpenAI's strict form of `schema` let the model write for
/// optional fields that do not accept `null` (see `schema::nulls`); `None` to read it as is.
fn strict_nulls(schema: &Value, text: &str) -> Option<String> {
    memchr::memmem::find(text.as_bytes(), b"null")?;
    if !has_optional_without_null(schema) || !strict_schema(schema).strict {
        return None;
    }
    strip_optional_nulls(schema, text)
}

/// A JSON answer written in a Markdown code fence (models do that in text) without it.
fn strip_fence(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return trimmed;
    };
    let body = rest.strip_prefix("json").unwrap_or(rest);
    body.strip_suffix("```").unwrap_or(body).trim()
}

/// The message that sends an invalid answer given as text (native structured output) back to
/// the model: no tool is named, since none was offered for the answer.
pub(crate) fn native_retry(error: &str) -> String {
    format!("Your final answer is not valid: {error}. Answer again with JSON matching the schema.")
}

/// The result of an invalid call of the final-answer tool `name`.
pub(crate) fn tool_retry(name: &str, error: &str) -> String {
    format!(
        "Your final answer is not valid: {error}. Call the '{name}' tool again with arguments \
         matching its schema."
    )
}

/// What was wrong with a text answer when the final-answer tool was expected.
pub(crate) fn not_called(name: &str) -> String {
    format!("the answer was text, not a call of the '{name}' tool")
}

/// The message for a text answer when the final-answer tool was expected.
pub(crate) fn call_the_tool(name: &str) -> String {
    format!("You did not call '{name}'. Give your final answer by calling the '{name}' tool.")
}
