//! GLM-4.5/4.6/4.7 as a [`TextFormat`]: the GLM template's `# Tools` block, `<tool_response>`
//! results, and calls written back as the template writes them.

use serde_json::{Map, Value};

use super::body::{GlmBody, EXAMPLE};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::tagged_values::{first_of, Ahead};
use crate::parse::formats::written::{
    arguments, each_call, first_tool_call, python_json, signature, tool_response, ToolCallBody,
};
use crate::response::ToolResponse;

pub(crate) struct Glm;

impl TextFormat for Glm {
    fn name(&self) -> &'static str {
        "glm"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        first_tool_call(text).and_then(|(at, body)| (body == ToolCallBody::Name).then_some(at))
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:glm"
    }

    /// GLM-4.5/4.6/4.7 think in a leading `<think>` section.
    fn thinks(&self) -> bool {
        true
    }

    /// As the GLM-4.5/4.6 template renders it (its `<tools>` loop, one signature per line).
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let mut out = String::from(
            "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
             You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n",
        );
        for def in definitions {
            out.push_str(&signature(def));
            out.push('\n');
        }
        out.push_str(
            "</tools>\n\nFor each function call, output the function name and arguments within \
             the following XML format:\n<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n\
             <arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n\
             <arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>",
        );
        out
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        tool_response(response)
    }

    /// As the template writes an assistant's `tool_calls`: a string value as it is, any other
    /// value as JSON.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "\n", out, |call, out| {
            out.push_str("<tool_call>");
            out.push_str(&call.name);
            out.push('\n');
            let parsed: Option<Map<String, Value>> = serde_json::from_str(arguments(call)).ok();
            for (key, value) in parsed.iter().flatten() {
                out.push_str("<arg_key>");
                out.push_str(key);
                out.push_str("</arg_key>\n<arg_value>");
                match value {
                    Value::String(s) => out.push_str(s),
                    // As the template's `tojson` writes it (Python's separators).
                    other => out.push_str(&python_json(other)),
                }
                out.push_str("</arg_value>\n");
            }
            out.push_str("</tool_call>");
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
        pairs_as_written(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Glm(BlockParser::<GlmBody>::new(options))
    }
}

/// The pairs as written: an object of strings, so the dispatcher can say which value has the
/// wrong type.
fn pairs_as_written(block: &str) -> String {
    let mut object = Map::new();
    let mut rest = block;
    // Searches that go on from the last one, so that many unclosed keys and values stay linear.
    let mut key_ends = [Ahead::new(block, "</arg_key>")];
    let mut values = Ahead::new(block, "<arg_value>");
    let mut ends = ["</arg_value>", "<arg_key>"].map(|m| Ahead::new(block, m));
    while let Some(at) = rest.find("<arg_key>") {
        rest = rest.get(at + "<arg_key>".len()..).unwrap_or_default();
        let key_end = first_of(&mut key_ends, rest);
        let key = rest.get(..key_end).unwrap_or_default().trim().to_string();
        let Some(v) = values.find(rest) else {
            break;
        };
        rest = rest.get(v + "<arg_value>".len()..).unwrap_or_default();
        let end = first_of(&mut ends, rest);
        let value = rest.get(..end).unwrap_or_default();
        object.insert(key, Value::String(value.to_string()));
        rest = rest.get(end..).unwrap_or_default();
    }
    Value::Object(object).to_string()
}
