//! Arguments read as a JSON value, for tools whose parameters are a schema and not a type
//! ([`ToolFn`](crate::ToolFn)): the leniency and the errors of `decode_arguments`.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{
    array_arguments, describe_data_error, explain_failure, object_text, render_path, schema_check,
    strip_position,
};
use crate::response::{ToolErrorCode, ToolResponse};

/// Reads raw argument JSON as a JSON object, for tools whose parameters are a schema and not
/// a type: the same leniency and the same errors as [`decode_arguments`](super::decode_arguments) (empty text and
/// `null` mean `{}`, a double-encoded object is decoded once more, an array or a scalar is
/// refused).
pub(crate) fn decode_object(tool: &str, raw: &str) -> Result<Value, ToolResponse> {
    let text = object_text(raw);
    if text.starts_with('[') {
        return Err(array_arguments(tool));
    }
    let value =
        serde_json::from_str::<Value>(text).map_err(|e| explain_failure::<Value>(tool, text, e))?;
    let value = match value {
        Value::String(inner) if inner.trim_start().starts_with('{') => {
            let inner = inner.trim();
            serde_json::from_str::<Value>(inner)
                .map_err(|e| explain_failure::<Value>(tool, inner, e))?
        }
        other => other,
    };
    if value.is_object() {
        return Ok(value);
    }
    Err(ToolResponse::error(
        ToolErrorCode::InvalidParam,
        format!(
            "Invalid arguments for '{tool}': the arguments must be a JSON object of parameters, got {}.",
            schema_check::unexpected(&value)
        ),
    ))
}

/// Decodes already-parsed arguments into `T`, with the error [`decode_arguments`](super::decode_arguments) gives for
/// the same mistake (path, expected type, closest name).
pub(crate) fn decode_value<T: DeserializeOwned>(
    tool: &str,
    value: Value,
) -> Result<T, ToolResponse> {
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let path = render_path(e.path());
        let message = describe_data_error(&path, &strip_position(e.inner()));
        ToolResponse::error(
            ToolErrorCode::InvalidParam,
            format!("Invalid arguments for '{tool}': {message}"),
        )
    })
}
