//! Small helpers every API's writer and reader share.

use std::borrow::Cow;

use serde_json::Value;

use crate::call::ToolCall;
use crate::response::{ToolErrorCode, ToolResponse};

/// Pairs each call with its response in call order. Responses are matched by position, which
/// is what [`ToolRegistry::call_all`](crate::ToolRegistry::call_all) returns; a missing
/// response becomes an `ERROR` so every call still gets exactly one result (a call without a
/// result is the most common cause of a 400 on the next request).
pub(crate) fn pairs<'a>(
    calls: &'a [ToolCall],
    responses: &'a [ToolResponse],
) -> impl Iterator<Item = (&'a ToolCall, Cow<'a, ToolResponse>)> + 'a {
    calls.iter().enumerate().map(move |(i, call)| {
        let response = match responses.get(i) {
            Some(r) => Cow::Borrowed(r),
            None => Cow::Owned(ToolResponse::error(
                ToolErrorCode::Unknown,
                format!(
                    "no result was produced for call '{}' of '{}'",
                    call.id, call.name
                ),
            )),
        };
        (call, response)
    })
}

/// Parses argument text back into a JSON value for providers that want an object; text that
/// is not JSON stays a string rather than being dropped.
pub(crate) fn arguments_value(arguments: &str) -> Value {
    let trimmed = arguments.trim();
    if trimmed.is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(trimmed).unwrap_or_else(|_| Value::String(arguments.to_string()))
}

/// Whether two call lists name the same calls: ids and names equal, arguments equal as JSON
/// values (a streamed call keeps the model's spacing, a whole response's is re-serialized).
pub(crate) fn same_calls(a: &[ToolCall], b: &[ToolCall]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.id == y.id
                && x.name == y.name
                && (x.arguments == y.arguments
                    || arguments_value(&x.arguments) == arguments_value(&y.arguments))
        })
}
