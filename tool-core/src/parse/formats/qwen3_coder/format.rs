//! Qwen3-Coder as a [`TextFormat`].

use serde_json::{Map, Value};

use super::body::{Qwen3CoderBody, EXAMPLE};
use super::prompt::qwen3_coder_tools;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::tagged_values::{first_of, Ahead};
use crate::parse::formats::written::{
    arguments, each_call, first_tool_call, python_json, tool_response, ToolCallBody,
};
use crate::response::ToolResponse;

pub(crate) struct Qwen3Coder;

impl TextFormat for Qwen3Coder {
    fn name(&self) -> &'static str {
        "qwen3_coder"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        first_tool_call(text).and_then(|(at, body)| (body == ToolCallBody::Function).then_some(at))
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:qwen3_coder"
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        qwen3_coder_tools(definitions)
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        tool_response(response)
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "\n", out, |call, out| {
            out.push_str("<tool_call>\n<function=");
            out.push_str(&call.name);
            out.push_str(">\n");
            let parsed: Option<Map<String, Value>> = serde_json::from_str(arguments(call)).ok();
            for (key, value) in parsed.iter().flatten() {
                out.push_str("<parameter=");
                out.push_str(key);
                out.push_str(">\n");
                match value {
                    Value::String(s) => out.push_str(s),
                    // As the template's `tojson` writes it (Python's separators).
                    other => out.push_str(&python_json(other)),
                }
                out.push_str("\n</parameter>\n");
            }
            out.push_str("</function>\n</tool_call>");
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
        parameters_as_written(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Qwen3Coder(BlockParser::<Qwen3CoderBody>::new(options))
    }
}

/// Qwen3-Coder's parameters as written: an object of strings, each value without the
/// format's framing newlines, so the dispatcher can say which one has the wrong type.
fn parameters_as_written(block: &str) -> String {
    let mut object = Map::new();
    let mut rest = block;
    // Searches that go on from the last one, so that many unclosed values stay linear.
    let mut ends = ["</parameter>", "<parameter=", "</function>"].map(|m| Ahead::new(block, m));
    while let Some(at) = rest.find("<parameter=") {
        rest = rest.get(at + "<parameter=".len()..).unwrap_or_default();
        let Some(gt) = rest.find('>') else { break };
        let key = rest.get(..gt).unwrap_or_default().trim().to_string();
        rest = rest.get(gt + 1..).unwrap_or_default();
        let end = first_of(&mut ends, rest);
        let value = rest.get(..end).unwrap_or_default();
        let value = value.strip_prefix('\n').unwrap_or(value);
        let value = value.strip_suffix('\n').unwrap_or(value);
        object.insert(key, Value::String(value.to_string()));
        rest = rest.get(end..).unwrap_or_default();
    }
    Value::Object(object).to_string()
}
