//! Elicitation on the client side: the application's callback answers a server's question,
//! and an accepted answer is checked against the form the server asked for before it goes
//! back (a server should never receive a form it did not ask for).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::peer::Elicited;

/// A server's question to the user (`elicitation/create`, form mode): the message to show
/// and the form to fill in, a flat JSON Schema object of strings, numbers, integers,
/// booleans and enums.
///
/// ```
/// use serde_json::json;
/// use tool_core::mcp::ElicitationRequest;
///
/// let request = ElicitationRequest::new(
///     "weather",
///     "Which unit?",
///     json!({"type": "object", "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}),
/// );
/// assert_eq!(request.server, "weather");
/// assert!(request.check(&json!({"unit": "celsius"})).is_ok());
/// assert!(request.check(&json!({"unit": "kelvin"})).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ElicitationRequest {
    /// The name of the server asking (from its `initialize` or `server/discover` answer).
    pub server: String,
    /// What to ask the user.
    pub message: String,
    /// The form: `{"type": "object", "properties": {...}, "required": [...]}`.
    pub schema: Value,
}

impl ElicitationRequest {
    /// A question from `server`.
    pub fn new(server: impl Into<String>, message: impl Into<String>, schema: Value) -> Self {
        ElicitationRequest {
            server: server.into(),
            message: message.into(),
            schema,
        }
    }

    /// Whether `content` fills the form in: an object with every required field, no field
    /// the form does not have, and each value of its field's type, within its bounds and
    /// among its choices. The error says which field is wrong and why.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::mcp::ElicitationRequest;
    ///
    /// let form = json!({
    ///     "type": "object",
    ///     "properties": {"name": {"type": "string", "minLength": 1}, "age": {"type": "integer", "minimum": 0}},
    ///     "required": ["name"]
    /// });
    /// let request = ElicitationRequest::new("s", "Who are you?", form);
    /// assert!(request.check(&json!({"name": "Ada", "age": 36})).is_ok());
    /// assert!(request.check(&json!({"age": 36})).unwrap_err().contains("name"));
    /// assert!(request.check(&json!({"name": "Ada", "age": -1})).is_err());
    /// ```
    pub fn check(&self, content: &Value) -> Result<(), String> {
        check(&self.schema, content)
    }
}

/// The application's answer to one question.
pub(crate) type ElicitFuture = Pin<Box<dyn Future<Output = Elicited<Value>> + Send>>;

/// The application's elicitation callback.
pub(crate) type Elicit = Arc<dyn Fn(ElicitationRequest) -> ElicitFuture + Send + Sync>;

/// Checks `content` against a flat elicitation form.
pub(crate) fn check(schema: &Value, content: &Value) -> Result<(), String> {
    let Some(content) = content.as_object() else {
        return Err("the answer must be a JSON object of the form's fields".to_owned());
    };
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if !content.contains_key(name) {
                return Err(format!("the required field `{name}` is missing"));
            }
        }
    }
    for (name, value) in content {
        let Some(property) = properties.get(name) else {
            return Err(format!("the form has no field `{name}`"));
        };
        check_field(property, value).map_err(|why| format!("field `{name}`: {why}"))?;
    }
    Ok(())
}

/// The string choices of an enum field (`enum`, or `oneOf`/`anyOf` of `const`s).
fn choices(property: &Value) -> Option<Vec<&str>> {
    if let Some(list) = property.get("enum").and_then(Value::as_array) {
        return Some(list.iter().filter_map(Value::as_str).collect());
    }
    let variants = property
        .get("oneOf")
        .or_else(|| property.get("anyOf"))?
        .as_array()?;
    Some(
        variants
            .iter()
            .filter_map(|v| v.get("const").and_then(Value::as_str))
            .collect(),
    )
}

fn bound(property: &Value, key: &str) -> Option<f64> {
    property.get(key).and_then(Value::as_f64)
}

fn check_field(property: &Value, value: &Value) -> Result<(), String> {
    let kind = match property.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match kind {
        "string" => {
            let Some(text) = value.as_str() else {
                return Err(format!("expected a string, got {value}"));
            };
            if let Some(options) = choices(property) {
                if !options.contains(&text) {
                    return Err(format!("'{text}' is not one of {options:?}"));
                }
            }
            let length = text.chars().count() as f64;
            if bound(property, "minLength").is_some_and(|min| length < min) {
                return Err(format!("'{text}' is shorter than minLength"));
            }
            if bound(property, "maxLength").is_some_and(|max| length > max) {
                return Err(format!("'{text}' is longer than maxLength"));
            }
            Ok(())
        }
        "number" | "integer" => {
            let Some(number) = value.as_f64() else {
                return Err(format!("expected a number, got {value}"));
            };
            if kind == "integer" && number.fract() != 0.0 {
                return Err(format!("expected an integer, got {value}"));
            }
            if bound(property, "minimum").is_some_and(|min| number < min) {
                return Err(format!("{value} is below the minimum"));
            }
            if bound(property, "maximum").is_some_and(|max| number > max) {
                return Err(format!("{value} is above the maximum"));
            }
            Ok(())
        }
        "boolean" if value.is_boolean() => Ok(()),
        "boolean" => Err(format!("expected true or false, got {value}")),
        // A multi-select enum: an array of the item choices.
        "array" => {
            let Some(items) = value.as_array() else {
                return Err(format!("expected a list of choices, got {value}"));
            };
            let options = property.get("items").and_then(choices);
            for item in items {
                let chosen = item.as_str();
                if let (Some(options), Some(chosen)) = (&options, chosen) {
                    if !options.contains(&chosen) {
                        return Err(format!("'{chosen}' is not one of {options:?}"));
                    }
                } else if chosen.is_none() {
                    return Err(format!("expected strings in the list, got {item}"));
                }
            }
            let count = items.len() as f64;
            if bound(property, "minItems").is_some_and(|min| count < min) {
                return Err("too few choices".to_owned());
            }
            if bound(property, "maxItems").is_some_and(|max| count > max) {
                return Err("too many choices".to_owned());
            }
            Ok(())
        }
        other => Err(format!(
            "the form asks for a `{other}`, which an elicitation form may not"
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::check;

    #[test]
    fn answers_are_checked_field_by_field() {
        let form = json!({
            "type": "object",
            "properties": {
                "unit": {"type": "string", "oneOf": [{"const": "c"}, {"const": "f"}]},
                "count": {"type": "integer", "minimum": 1, "maximum": 3},
                "ok": {"type": "boolean"},
                "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2}
            },
            "required": ["unit"]
        });
        assert!(check(
            &form,
            &json!({"unit": "c", "count": 2, "ok": true, "tags": ["a"]})
        )
        .is_ok());
        for (bad, why) in [
            (json!([]), "JSON object"),
            (json!({}), "`unit` is missing"),
            (json!({"unit": "k"}), "not one of"),
            (json!({"unit": "c", "count": 2.5}), "integer"),
            (json!({"unit": "c", "count": 4}), "above"),
            (json!({"unit": "c", "ok": "yes"}), "true or false"),
            (json!({"unit": "c", "tags": ["a", "z"]}), "not one of"),
            (json!({"unit": "c", "tags": ["a", "b", "a"]}), "too many"),
            (json!({"unit": "c", "extra": 1}), "no field `extra`"),
        ] {
            let error = check(&form, &bad).unwrap_err();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }
}
