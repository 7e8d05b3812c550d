//! Harmony as a [`TextFormat`].

use super::parser::{HarmonyParser, EXAMPLE};
use super::prompt::harmony_tools;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{arguments, each_call};
use crate::response::ToolResponse;

pub(crate) struct Harmony;

impl TextFormat for Harmony {
    fn name(&self) -> &'static str {
        "harmony"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        ["<|channel|>", "<|start|>", "<|message|>"]
            .iter()
            .filter_map(|m| text.find(m))
            .min()
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:harmony"
    }

    fn streams_arguments(&self) -> bool {
        true
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        harmony_tools(definitions)
    }

    fn result(&self, _id: &str, name: &str, response: &ToolResponse) -> String {
        format!(
            "<|start|>functions.{name} to=assistant<|channel|>commentary<|message|>{}<|end|>",
            response.model_text()
        )
    }

    /// Each call is a message of its own: no separator between them.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "", out, |call, out| {
            out.push_str("<|start|>assistant<|channel|>commentary to=functions.");
            out.push_str(&call.name);
            out.push_str(" <|constrain|>json<|message|>");
            out.push_str(arguments(call));
            out.push_str("<|call|>");
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
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

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Harmony(HarmonyParser::new(options))
    }
}
