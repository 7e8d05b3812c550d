//! `<use_tool>` as a [`TextFormat`]: the TOOLS section, one `<tool_results>` message for a
//! turn's results, and its own call ids (`xml_call_0`) and native-content tag (`"xml"`).

use super::parser::UseToolMachine;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::{ResultRef, TextFormat};
use crate::parse::formats::written::{between, each_call};
use crate::prompt::{
    escape_text, render_tool_results, render_tools_section, ToolResultItem, DEFAULT_TOOLS_HEADER,
};
use crate::response::ToolResponse;

pub(crate) struct UseTool;

impl TextFormat for UseTool {
    fn name(&self) -> &'static str {
        "use_tool"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find("<use_tool>")
    }

    fn example(&self) -> &'static str {
        "<use_tool><tool_name>NAME</tool_name><arguments>{...}</arguments></use_tool>"
    }

    fn id_prefix(&self) -> &'static str {
        "xml_call_"
    }

    fn provider_tag(&self) -> &'static str {
        "xml"
    }

    fn streams_arguments(&self) -> bool {
        true
    }

    fn prompt_is_tools_section(&self) -> bool {
        true
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        render_tools_section(DEFAULT_TOOLS_HEADER, definitions)
    }

    fn result(&self, _id: &str, name: &str, response: &ToolResponse) -> String {
        render_tool_results(&[ToolResultItem { name, response }])
    }

    /// One `<tool_results>` message holds every result.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        let items: Vec<ToolResultItem<'_>> = results
            .iter()
            .map(|(_, name, response)| ToolResultItem { name, response })
            .collect();
        render_tool_results(&items)
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "\n", out, |call, out| {
            out.push_str("<use_tool>\n<tool_name>");
            escape_text(&call.name, out);
            out.push_str("</tool_name>\n<arguments>");
            out.push_str(&call.arguments);
            out.push_str("</arguments>\n</use_tool>");
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
        between(block, "<arguments>", "</arguments>")
            .unwrap_or(block)
            .trim()
            .to_string()
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::UseTool(UseToolMachine::new(options))
    }
}
