//! Hermes as a [`TextFormat`]: the Qwen2.5/Qwen3 template's `# Tools` block with one JSON
//! signature per line, and `<tool_response>` results.

use super::body::{HermesBody, EXAMPLE};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{
    arguments, each_call, first_tool_call, json_arguments, json_string, signature, tool_response,
};
use crate::response::ToolResponse;

pub(crate) struct Hermes;

impl TextFormat for Hermes {
    fn name(&self) -> &'static str {
        "hermes"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        first_tool_call(text).and_then(|(at, qwen)| (!qwen).then_some(at))
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:hermes"
    }

    /// Qwen3 and QwQ think in a leading `<think>` section.
    fn thinks(&self) -> bool {
        true
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let mut out = String::from(
            "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
             You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
        );
        for def in definitions {
            out.push('\n');
            out.push_str(&signature(def));
        }
        out.push_str(
            "\n</tools>\n\nFor each function call, return a json object with function name and \
             arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
             {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
        );
        out
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        tool_response(response)
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "\n", out, |call, out| {
            out.push_str("<tool_call>\n{\"name\": ");
            out.push_str(&json_string(&call.name));
            out.push_str(", \"arguments\": ");
            out.push_str(arguments(call));
            out.push_str("}\n</tool_call>");
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
        json_arguments(block, "<tool_call>", "</tool_call>")
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Hermes(BlockParser::<HermesBody>::new(options))
    }
}
