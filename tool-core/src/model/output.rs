//! [`JsonOutput`]: the JSON answer a request asks for through the provider's native
//! structured output.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The shape of a JSON answer: a name, an optional description and a JSON Schema (an object
/// at the root). A [`ModelRequest`](super::ModelRequest) that carries one asks the provider
/// for an answer in that shape through its native structured output, when the adapter
/// supports it (see [`Model::native_output`](super::Model::native_output)): OpenAI Chat
/// `response_format` (`json_schema`, strict when the schema allows it), Responses
/// `text.format`, Gemini `responseMimeType` + `responseJsonSchema`.
///
/// ```
/// use tool_core::model::JsonOutput;
/// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
/// let output = JsonOutput::new("city_answer", schema).with_description("The city the user means.");
/// assert_eq!(output.name, "city_answer");
/// assert_eq!(output.description.as_deref(), Some("The city the user means."));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JsonOutput {
    /// The name of the answer's shape (OpenAI requires one; `[a-zA-Z0-9_-]`, at most 64).
    pub name: String,
    /// What the answer is, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema the answer must match (an object at the root).
    pub schema: Value,
}

impl JsonOutput {
    /// A shape named `name` with this schema and no description.
    ///
    /// ```
    /// let output = tool_core::model::JsonOutput::new("answer", serde_json::json!({"type": "object"}));
    /// assert_eq!(output.schema["type"], "object");
    /// ```
    pub fn new(name: impl Into<String>, schema: Value) -> Self {
        JsonOutput {
            name: name.into(),
            description: None,
            schema,
        }
    }

    /// Sets the description.
    ///
    /// ```
    /// let output = tool_core::model::JsonOutput::new("answer", serde_json::json!({"type": "object"})).with_description("The answer.");
    /// assert_eq!(output.description.as_deref(), Some("The answer."));
    /// ```
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// The wire forms of a [`JsonOutput`] in each API that has native structured output.
#[cfg(feature = "http")]
pub(crate) mod wire {
    use serde_json::{json, Map, Value};

    use super::JsonOutput;
    use crate::provider::openai_chat::strict_schema;

    /// The schema in OpenAI's strict subset when it fits (then `strict: true`), else as is.
    fn openai_schema(output: &JsonOutput) -> (Value, bool) {
        let strict = strict_schema(&output.schema);
        if strict.strict {
            (strict.schema, true)
        } else {
            (output.schema.clone(), false)
        }
    }

    /// Chat Completions `response_format`.
    pub(crate) fn openai_chat(output: &JsonOutput) -> Value {
        let (schema, strict) = openai_schema(output);
        let mut format = Map::new();
        format.insert("name".into(), json!(output.name));
        if let Some(description) = &output.description {
            format.insert("description".into(), json!(description));
        }
        format.insert("schema".into(), schema);
        format.insert("strict".into(), json!(strict));
        json!({"type": "json_schema", "json_schema": format})
    }

    /// Responses `text` (its `format` member).
    pub(crate) fn openai_responses(output: &JsonOutput) -> Value {
        let (schema, strict) = openai_schema(output);
        let mut format = Map::new();
        format.insert("type".into(), json!("json_schema"));
        format.insert("name".into(), json!(output.name));
        if let Some(description) = &output.description {
            format.insert("description".into(), json!(description));
        }
        format.insert("schema".into(), schema);
        format.insert("strict".into(), json!(strict));
        json!({ "format": format })
    }

    /// Adds Gemini's `responseMimeType` and `responseJsonSchema` (which takes the JSON Schema
    /// as is: `$ref`, `$defs`, `anyOf`) to `generationConfig`, keeping what is already there.
    pub(crate) fn gemini(output: &JsonOutput, body: &mut Map<String, Value>) {
        let config = body
            .entry("generationConfig")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(config) = config {
            config.insert("responseMimeType".into(), json!("application/json"));
            config.insert("responseJsonSchema".into(), output.schema.clone());
        }
    }
}
