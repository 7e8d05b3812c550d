//! Mistral as a [`TextFormat`].

use super::body::{MistralBody, EXAMPLE};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{
    arguments, each_call, json_arguments, json_string, signature,
};
use crate::response::ToolResponse;

pub(crate) struct Mistral;

impl TextFormat for Mistral {
    fn name(&self) -> &'static str {
        "mistral"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find("[TOOL_CALLS]")
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:mistral"
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let list: Vec<String> = definitions.iter().map(signature).collect();
        // `[/` occurs only inside JSON strings, where `\/` is the same `/`: no description can
        // write `[/AVAILABLE_TOOLS]`.
        let list = list.join(", ").replace("[/", "[\\/");
        format!("[AVAILABLE_TOOLS][{list}][/AVAILABLE_TOOLS]")
    }

    fn result(&self, id: &str, _name: &str, response: &ToolResponse) -> String {
        format!(
            "[TOOL_RESULTS]{}[/TOOL_RESULTS]",
            serde_json::json!({"call_id": id, "content": response.model_text()})
        )
    }

    /// The array form (the one that goes with `[AVAILABLE_TOOLS]`): all calls in one array.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push_str("[TOOL_CALLS][");
        each_call(calls, ", ", out, |call, out| {
            out.push_str("{\"name\": ");
            out.push_str(&json_string(&call.name));
            out.push_str(", \"arguments\": ");
            out.push_str(arguments(call));
            out.push('}');
        });
        out.push(']');
    }

    fn raw_arguments(&self, block: &str) -> String {
        match block.find("[ARGS]") {
            Some(at) => block
                .get(at + "[ARGS]".len()..)
                .unwrap_or(block)
                .trim()
                .to_string(),
            None => json_arguments(block, "[TOOL_CALLS]", ""),
        }
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Mistral(BlockParser::<MistralBody>::new(options))
    }
}
