//! DeepSeek V3 / R1 and V3.1 / V3.2-Exp as [`TextFormat`]s: one parser, two ways of writing.

use super::body::{
    unfence, DeepSeekBody, CALLS_BEGIN, CALLS_END, CALL_BEGIN, CALL_END, EXAMPLE, SEP,
};
use super::prompt;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::{ResultRef, TextFormat};
use crate::parse::formats::written::{arguments, between, each_call};
use crate::response::ToolResponse;

const OUTPUTS_BEGIN: &str = "<｜tool▁outputs▁begin｜>";
const OUTPUTS_END: &str = "<｜tool▁outputs▁end｜>";
const OUTPUT_BEGIN: &str = "<｜tool▁output▁begin｜>";
const OUTPUT_END: &str = "<｜tool▁output▁end｜>";

/// DeepSeek V3, R1 and R1-0528: `function<｜tool▁sep｜>NAME` and a fenced JSON object.
pub(crate) struct DeepSeekV3;

/// DeepSeek V3.1 and V3.2-Exp: `NAME<｜tool▁sep｜>{...}`.
pub(crate) struct DeepSeekV31;

/// One result between the output tokens.
fn output(response: &ToolResponse) -> String {
    format!("{OUTPUT_BEGIN}{}{OUTPUT_END}", response.model_text())
}

/// What the model wrote as a rejected call's arguments: after `<｜tool▁sep｜>` (and the name
/// line and fence, in the V3 form).
fn raw_arguments(block: &str) -> String {
    let call = between(block, CALL_BEGIN, CALL_END).unwrap_or(block);
    let Some((head, tail)) = call.split_once(SEP) else {
        return call.trim().to_string();
    };
    let args = if head.trim() == "function" && !tail.trim_start().starts_with('{') {
        tail.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        tail
    };
    unfence(args).to_string()
}

impl TextFormat for DeepSeekV3 {
    fn name(&self) -> &'static str {
        "deepseek_v3"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find(CALLS_BEGIN)
    }

    fn example(&self) -> &'static str {
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{...}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    }

    fn provider_tag(&self) -> &'static str {
        "text:deepseek_v3"
    }

    /// R1 thinks in a leading `<think>` section (R1-0528's template opens it in the prompt).
    fn thinks(&self) -> bool {
        true
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        prompt::v3(definitions)
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        format!("{OUTPUTS_BEGIN}{}{OUTPUTS_END}", output(response))
    }

    /// The template gathers a turn's results in one `<｜tool▁outputs▁begin｜>` section, one
    /// per line.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        let outputs: Vec<String> = results.iter().map(|(_, _, r)| output(r)).collect();
        format!("{OUTPUTS_BEGIN}{}{OUTPUTS_END}", outputs.join("\n"))
    }

    /// As the template writes them, except that the arguments are the object itself (the
    /// template's `tojson` of the arguments string would quote it a second time).
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push_str(CALLS_BEGIN);
        each_call(calls, "\n", out, |call, out| {
            out.push_str(CALL_BEGIN);
            out.push_str("function");
            out.push_str(SEP);
            out.push_str(&call.name);
            out.push_str("\n```json\n");
            out.push_str(arguments(call));
            out.push_str("\n```");
            out.push_str(CALL_END);
        });
        out.push_str(CALLS_END);
    }

    fn raw_arguments(&self, block: &str) -> String {
        raw_arguments(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::DeepSeek(BlockParser::<DeepSeekBody>::new(options))
    }
}

impl TextFormat for DeepSeekV31 {
    fn name(&self) -> &'static str {
        "deepseek_v31"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find(CALLS_BEGIN)
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:deepseek_v31"
    }

    /// In thinking mode the template opens `<think>` in the generation prompt.
    fn thinks(&self) -> bool {
        true
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        prompt::v31(definitions)
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        output(response)
    }

    /// One output after the other, with nothing between them, as the template writes them.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        results.iter().map(|(_, _, r)| output(r)).collect()
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push_str(CALLS_BEGIN);
        each_call(calls, "", out, |call, out| {
            out.push_str(CALL_BEGIN);
            out.push_str(&call.name);
            out.push_str(SEP);
            out.push_str(arguments(call));
            out.push_str(CALL_END);
        });
        out.push_str(CALLS_END);
    }

    fn raw_arguments(&self, block: &str) -> String {
        raw_arguments(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::DeepSeek(BlockParser::<DeepSeekBody>::new(options))
    }
}
