//! Name and description rules per API, checked before a definition is sent.

use serde_json::Value;

use super::Api;
use crate::definition::ToolDefinition;

/// The longest description OpenAI accepts for a function (the issue's rule; the API reference
/// documents 1024 characters for tool descriptions).
pub(crate) const OPENAI_MAX_DESCRIPTION: usize = 1024;

/// Problems with a definition's name, description or parameter names for one provider; empty
/// when it is fine.
///
/// - OpenAI and Anthropic: name `^[a-zA-Z0-9_-]{1,64}$` (API references); OpenAI description
///   at most 1024 characters.
/// - Gemini (both APIs): name starts with a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, at
///   most 64 (API reference, `FunctionDeclaration.name`); parameter names start with a letter
///   or `_` and hold only letters, digits and `_`, at most 64.
/// - MCP: name 1 to 128 characters of letters, digits, `_`, `-` and `.` (specification,
///   tool names).
///
/// ```
/// use tool_core::provider::{check_definition, Api};
/// use tool_core::ToolDefinition;
/// let def = ToolDefinition::new(
///     "get_weather",
///     "x".repeat(2000),
///     serde_json::json!({"type": "object", "properties": {}}),
/// );
/// assert_eq!(check_definition(Api::OpenAiChat, &def).len(), 1);
/// assert!(check_definition(Api::Anthropic, &def).is_empty());
/// ```
pub fn check_definition(api: Api, def: &ToolDefinition) -> Vec<String> {
    let mut out = Vec::new();
    let name = def.name.as_str();
    let chars = name.chars().count();
    let ok = match api {
        Api::OpenAiChat | Api::OpenAiResponses | Api::Anthropic => {
            (1..=64).contains(&chars)
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }
        Api::Gemini | Api::GeminiInteractions => {
            (1..=64).contains(&chars)
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
        }
        Api::Mcp => {
            (1..=128).contains(&chars)
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        }
    };
    if !ok {
        out.push(format!(
            "{}: tool name '{name}' is not valid for this provider",
            api.rules_name()
        ));
    }
    if matches!(api, Api::OpenAiChat | Api::OpenAiResponses)
        && def.description.chars().count() > OPENAI_MAX_DESCRIPTION
    {
        out.push(format!(
            "openai: the description of '{name}' has {} characters; at most {OPENAI_MAX_DESCRIPTION} are accepted",
            def.description.chars().count()
        ));
    }
    if api.rules_name() == "gemini" {
        if let Some(Value::Object(props)) = def.input_schema.get("properties") {
            for key in props.keys() {
                let valid = key.len() <= 64
                    && key
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    out.push(format!(
                        "gemini: parameter name '{key}' of '{name}' is not valid"
                    ));
                }
            }
        }
    }
    out
}
