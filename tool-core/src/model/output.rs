//! [`JsonOutput`]: the JSON answer a request asks for through the provider's native
//! structured output.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The shape of a JSON answer: a name, an optional description and a JSON Schema (an object
/// at the root). A [`ModelRequest`](super::ModelRequest) that carries one asks the provider
/// for an answer in that shape through its native structured output, when the adapter
/// supports it (see [`Model::native_output`](super::Model::native_output)): OpenAI Chat
/// `response_format` (`json_schema`, strict when the schema allows it), Responses
/// `text.format`, Gemini `responseMimeType` + `responseJsonSchema`, Anthropic
/// `output_config.format` (`json_schema`, the schema in the subset it takes).
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

    /// The Interactions API's `response_format`: a text format of MIME type
    /// `application/json` with the JSON Schema as is (the SDK's `TextResponseFormatParam`).
    pub(crate) fn gemini_interactions(output: &JsonOutput) -> Value {
        json!({"type": "text", "mime_type": "application/json", "schema": output.schema})
    }

    /// Anthropic's `output_config` (its `format` member): `{"type": "json_schema", schema}`,
    /// as the Anthropic SDK's `OutputConfigParam` and `JSONOutputFormatParam` type it.
    pub(crate) fn anthropic(output: &JsonOutput) -> Value {
        json!({"format": {"type": "json_schema", "schema": anthropic_schema(&output.schema)}})
    }

    /// String formats Anthropic's structured outputs accept.
    const ANTHROPIC_FORMATS: [&str; 10] = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];

    /// The schema in the subset Anthropic's structured outputs take, rewritten the way the
    /// Anthropic Python SDK's `transform_schema` (`src/anthropic/lib/_parse/_transform.py`)
    /// does: every object closed (`additionalProperties: false`), `oneOf` read as `anyOf`,
    /// and the keywords it does not take (bounds, patterns, other formats) moved into the
    /// description as `{key: value}` so the model may still follow them.
    pub(crate) fn anthropic_schema(schema: &Value) -> Value {
        let Value::Object(input) = schema else {
            return schema.clone();
        };
        let mut rest = input.clone();
        // Metadata, not a constraint.
        rest.remove("$schema");
        let mut out = Map::new();
        if let Some(defs) = rest.remove("$defs") {
            out.insert("$defs".into(), map_values(defs));
        }
        if let Some(reference) = rest.remove("$ref") {
            out.insert("$ref".into(), reference);
            return Value::Object(out);
        }
        let kind = rest.remove("type");
        let choices = ["enum", "anyOf", "oneOf", "allOf"].map(|key| (key, rest.remove(key)));
        match choices
            .into_iter()
            .find(|(_, v)| matches!(v, Some(Value::Array(_))))
        {
            Some(("enum", Some(Value::Array(values)))) => {
                let values = values.iter().map(|v| match v {
                    Value::Object(_) => anthropic_schema(v),
                    other => other.clone(),
                });
                out.insert("enum".into(), Value::Array(values.collect()));
            }
            Some((key, Some(Value::Array(variants)))) => {
                let key = if key == "oneOf" { "anyOf" } else { key };
                let variants = variants.iter().map(anthropic_schema).collect();
                out.insert(key.into(), Value::Array(variants));
            }
            _ => {
                if let Some(kind) = &kind {
                    out.insert("type".into(), kind.clone());
                }
            }
        }
        for key in ["description", "title"] {
            if let Some(value) = rest.remove(key) {
                out.insert(key.into(), value);
            }
        }
        match kind.as_ref().and_then(Value::as_str) {
            Some("object") => {
                let properties = rest.remove("properties").unwrap_or_else(|| json!({}));
                out.insert("properties".into(), map_values(properties));
                rest.remove("additionalProperties");
                out.insert("additionalProperties".into(), Value::Bool(false));
                if let Some(required) = rest.remove("required") {
                    out.insert("required".into(), required);
                }
            }
            Some("string") => {
                let known = rest
                    .get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|f| ANTHROPIC_FORMATS.contains(&f));
                if let Some(format) = rest.remove("format").filter(|_| known) {
                    out.insert("format".into(), format);
                }
            }
            Some("array") => {
                if let Some(items) = rest.remove("items") {
                    out.insert("items".into(), anthropic_schema(&items));
                }
                let small = rest
                    .get("minItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|n| n <= 1);
                if let Some(min) = rest.remove("minItems").filter(|_| small) {
                    out.insert("minItems".into(), min);
                }
            }
            _ => {}
        }
        if !rest.is_empty() {
            let extra: Vec<String> = rest
                .iter()
                .map(|(key, value)| match value {
                    Value::String(text) => format!("{key}: {text}"),
                    other => format!("{key}: {other}"),
                })
                .collect();
            let extra = format!("{{{}}}", extra.join(", "));
            let description = match out.get("description").and_then(Value::as_str) {
                Some(description) => format!("{description}\n\n{extra}"),
                None => extra,
            };
            out.insert("description".into(), Value::String(description));
        }
        Value::Object(out)
    }

    /// Each value of a map of schemas (`properties`, `$defs`) rewritten.
    fn map_values(schemas: Value) -> Value {
        match schemas {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), anthropic_schema(v)))
                    .collect(),
            ),
            other => other,
        }
    }
}
