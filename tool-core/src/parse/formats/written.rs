//! Helpers the formats share for text they write (calls of another model's turn, tool blocks)
//! and for reading back what a model wrote as a rejected call's arguments.

use serde_json::Value;

use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;

/// The call's arguments as JSON text (`{}` when empty).
pub(crate) fn arguments(call: &ToolCall) -> &str {
    match call.arguments.trim() {
        "" => "{}",
        args => args,
    }
}

/// A JSON string literal (names are written by serde_json, so they cannot break the JSON).
pub(crate) fn json_string(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// Appends each call with `write`, `separator` between them.
pub(crate) fn each_call(
    calls: &[ToolCall],
    separator: &str,
    out: &mut String,
    write: impl Fn(&ToolCall, &mut String),
) {
    for (k, call) in calls.iter().enumerate() {
        if k > 0 {
            out.push_str(separator);
        }
        write(call, out);
    }
}

/// One OpenAI-style function signature, as Hermes/Qwen and Mistral templates list them.
pub(crate) fn signature(def: &ToolDefinition) -> String {
    let value = serde_json::json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": &*def.input_schema,
        }
    });
    safe_json(&value)
}

/// Compact JSON with `<` and `>` written as escapes (they can only occur inside strings).
pub(crate) fn safe_json(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
}

/// The text between `open` and `close` (to the end when `close` is missing).
pub(crate) fn between<'a>(block: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = block.find(open)? + open.len();
    let rest = block.get(start..)?;
    let end = if close.is_empty() {
        None
    } else {
        rest.rfind(close)
    };
    rest.get(..end.unwrap_or(rest.len()))
}

/// The `arguments` (or `parameters`) of the first JSON object in the block's body; the body
/// itself when there is no such object.
pub(crate) fn json_arguments(block: &str, open: &str, close: &str) -> String {
    let body = between(block, open, close).unwrap_or(block);
    let first = body.find('{').and_then(|at| {
        let mut values = serde_json::Deserializer::from_str(body.get(at..)?).into_iter::<Value>();
        values.next()?.ok()
    });
    let arguments = first.as_ref().and_then(|call| {
        call.get("arguments")
            .or_else(|| call.get("parameters"))
            .cloned()
    });
    match arguments {
        Some(Value::String(text)) => text,
        Some(value) => value.to_string(),
        None => body.trim().to_string(),
    }
}

/// What follows the first `<tool_call>` of a reply: the three formats that open calls with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolCallBody {
    /// A JSON object (Hermes), or nothing yet.
    Json,
    /// Qwen3-Coder's `<function=`.
    Function,
    /// A tool name (GLM).
    Name,
}

/// Where the first `<tool_call>` starts, and what follows it (the first one decides between
/// Hermes, Qwen3-Coder and GLM).
pub(crate) fn first_tool_call(text: &str) -> Option<(usize, ToolCallBody)> {
    const MARKER: &str = "<tool_call>";
    let at = text.find(MARKER)?;
    let after = text
        .get(at + MARKER.len()..)
        .unwrap_or_default()
        .trim_start();
    let body = if after.starts_with("<function=") {
        ToolCallBody::Function
    } else if after
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
    {
        ToolCallBody::Name
    } else {
        ToolCallBody::Json
    };
    Some((at, body))
}

/// `<tool_response>` around the result's text, as Hermes and Qwen3-Coder templates write it.
pub(crate) fn tool_response(response: &ToolResponse) -> String {
    format!(
        "<tool_response>\n{}\n</tool_response>",
        response.model_text()
    )
}

/// JSON as Python's `json.dumps` writes it by default, which is what the `tojson` filter of
/// the Hugging Face chat templates produces: `", "` and `": "` separators, non-ASCII kept.
pub(crate) fn python_json(value: &Value) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
    if serde::Serialize::serialize(value, &mut ser).is_err() {
        return value.to_string();
    }
    String::from_utf8(out).unwrap_or_else(|_| value.to_string())
}

/// serde_json's compact output with Python's separators.
struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// The OpenAI-style tool object the chat templates are given, in its key order.
pub(crate) fn openai_tool(def: &ToolDefinition) -> Value {
    serde_json::json!({
        "type": "function",
        "function": {
            "name": def.name,
            "description": def.description,
            "parameters": &*def.input_schema,
        }
    })
}

/// JSON as the templates' `tojson(indent=4)` writes it (Python's `json.dumps(indent=4)`).
pub(crate) fn indented_json(value: &Value) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    if serde::Serialize::serialize(value, &mut ser).is_err() {
        return value.to_string();
    }
    String::from_utf8(out).unwrap_or_else(|_| value.to_string())
}
