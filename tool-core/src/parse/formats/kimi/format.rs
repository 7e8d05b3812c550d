//! Kimi K2 as a [`TextFormat`]: the tools as the template's `tool_declare` JSON list,
//! `## Return of ID` results, and calls written back as the template writes them.

use super::body::{name_of, KimiBody, ARGUMENTS, CALL, CALL_END, EXAMPLE};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{arguments, signature};
use crate::response::ToolResponse;

pub(crate) struct Kimi;

impl TextFormat for Kimi {
    fn name(&self) -> &'static str {
        "kimi_k2"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find("<|tool_calls_section_begin|>")
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:kimi_k2"
    }

    /// Kimi K2 Thinking thinks in a leading `<think>` section.
    fn thinks(&self) -> bool {
        true
    }

    /// Kimi K2 Thinking may open its tool section while thinking, without `</think>` (sglang's
    /// and llama.cpp's Kimi tests hold such replies): the section's token ends the reasoning.
    fn reasoning_ends_at(&self) -> &'static [u8] {
        b"<|tool_calls_section_begin|>"
    }

    /// The JSON list the template puts in its `tool_declare` system message.
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let list: Vec<String> = definitions.iter().map(signature).collect();
        format!("[{}]", list.join(","))
    }

    /// As the template writes a `tool` message: `## Return of ID` and the result.
    fn result(&self, id: &str, _name: &str, response: &ToolResponse) -> String {
        format!("## Return of {id}\n{}", response.model_text())
    }

    /// As the template writes an assistant's `tool_calls`; an id not in Kimi's
    /// `functions.NAME:IDX` form is written in it.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push_str("<|tool_calls_section_begin|>");
        for (k, call) in calls.iter().enumerate() {
            out.push_str(CALL);
            if call.id.contains(':') && name_of(&call.id) == call.name {
                out.push_str(&call.id);
            } else {
                out.push_str(&format!("functions.{}:{k}", call.name));
            }
            out.push_str(ARGUMENTS);
            out.push_str(arguments(call));
            out.push_str(CALL_END);
        }
        out.push_str("<|tool_calls_section_end|>");
    }

    fn raw_arguments(&self, block: &str) -> String {
        let after = block.split_once(ARGUMENTS).map_or(block, |(_, a)| a);
        let end = [CALL_END, "<|tool_calls_section_end|>"]
            .iter()
            .filter_map(|m| after.find(m))
            .min()
            .unwrap_or(after.len());
        after.get(..end).unwrap_or(after).trim().to_string()
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Kimi(BlockParser::<KimiBody>::new(options))
    }
}
