//! What the model wrote as the arguments of a call the parser rejected, so the call can be
//! passed on as written and the dispatcher can answer it with its instructive error.

use serde_json::{Map, Value};

use crate::parse::ToolFormat;

/// The arguments text of a rejected call's `block` (the call's span of the reply): the
/// arguments element or value when it can be found, the block's body otherwise. Best effort:
/// the result only has to make the dispatcher say what is wrong.
pub(super) fn raw_arguments(format: ToolFormat, block: &str) -> String {
    match format {
        ToolFormat::UseTool => between(block, "<arguments>", "</arguments>")
            .unwrap_or(block)
            .trim()
            .to_string(),
        ToolFormat::Hermes => json_arguments(block, "<tool_call>", "</tool_call>"),
        ToolFormat::Mistral => match block.find("[ARGS]") {
            Some(at) => block
                .get(at + "[ARGS]".len()..)
                .unwrap_or(block)
                .trim()
                .to_string(),
            None => json_arguments(block, "[TOOL_CALLS]", ""),
        },
        ToolFormat::QwenXml => qwen_parameters(block),
        ToolFormat::Harmony => {
            let body = match block.rfind("<|message|>") {
                Some(at) => block.get(at + "<|message|>".len()..).unwrap_or(block),
                None => block,
            };
            let end = ["<|call|>", "<|end|>", "<|return|>"]
                .iter()
                .filter_map(|m| body.find(m))
                .min()
                .unwrap_or(body.len());
            body.get(..end).unwrap_or(body).trim().to_string()
        }
    }
}

/// The text between `open` and `close` (to the end when `close` is missing).
fn between<'a>(block: &'a str, open: &str, close: &str) -> Option<&'a str> {
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
fn json_arguments(block: &str, open: &str, close: &str) -> String {
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

/// Qwen3-Coder's parameters as written: an object of strings, each value without the
/// format's framing newlines, so the dispatcher can say which one has the wrong type.
fn qwen_parameters(block: &str) -> String {
    let mut object = Map::new();
    let mut rest = block;
    while let Some(at) = rest.find("<parameter=") {
        rest = rest.get(at + "<parameter=".len()..).unwrap_or_default();
        let Some(gt) = rest.find('>') else { break };
        let key = rest.get(..gt).unwrap_or_default().trim().to_string();
        rest = rest.get(gt + 1..).unwrap_or_default();
        let end = ["</parameter>", "<parameter=", "</function>"]
            .iter()
            .filter_map(|m| rest.find(m))
            .min()
            .unwrap_or(rest.len());
        let value = rest.get(..end).unwrap_or_default();
        let value = value.strip_prefix('\n').unwrap_or(value);
        let value = value.strip_suffix('\n').unwrap_or(value);
        object.insert(key, Value::String(value.to_string()));
        rest = rest.get(end..).unwrap_or_default();
    }
    Value::Object(object).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_passes_on_what_the_model_wrote_as_arguments() {
        let cases = [
            (
                ToolFormat::UseTool,
                "<use_tool><tool_name>a</tool_name><arguments> [1, 2] </arguments></use_tool>",
                "[1, 2]",
            ),
            (
                ToolFormat::UseTool,
                "<use_tool><tool_name>a</tool_name><arguments>{\"x\":",
                "{\"x\":",
            ),
            (
                ToolFormat::UseTool,
                "<use_tool>junk</use_tool>",
                "<use_tool>junk</use_tool>",
            ),
            (
                ToolFormat::Hermes,
                "<tool_call>\n{\"name\": \"a\", \"arguments\": [1]}\n</tool_call>",
                "[1]",
            ),
            (
                ToolFormat::Hermes,
                "<tool_call>\n{\"name\": \"a\", \"arguments\": {\"x\": }\n</tool_call>",
                "{\"name\": \"a\", \"arguments\": {\"x\": }",
            ),
            (
                ToolFormat::Mistral,
                "[TOOL_CALLS]nope[ARGS]{\"q\": 1}",
                "{\"q\": 1}",
            ),
            (
                ToolFormat::Mistral,
                "[TOOL_CALLS] [{\"name\": \"nope\", \"arguments\": {\"q\": 1}}]",
                "{\"q\":1}",
            ),
            (
                ToolFormat::QwenXml,
                "<tool_call>\n<function=calc>\n<parameter=n>\nfive\n</parameter>\n<parameter=s>\n two \n</function>\n</tool_call>",
                "{\"n\":\"five\",\"s\":\" two \"}",
            ),
            (
                ToolFormat::Harmony,
                "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>[1, 2]<|call|>",
                "[1, 2]",
            ),
        ];
        for (format, block, expected) in cases {
            assert_eq!(
                raw_arguments(format, block),
                expected,
                "{format:?}: {block}"
            );
        }
    }
}
