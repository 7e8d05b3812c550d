//! Llama 3.x JSON as a [`TextFormat`], following vLLM's `tool_chat_template_llama3.1_json.jinja`
//! with the tools in the system message (`tools_in_user_message = false`).

use serde_json::Value;

use super::call::{LlamaCall, EXAMPLE, PYTHON_TAG};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::bare::BareParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::written::{
    arguments, each_call, indented_json, json_arguments, json_string, openai_tool, python_json,
};
use crate::response::ToolResponse;

pub(crate) struct Llama;

/// The template's instructions before the tool list.
const INTRO: &str = "You have access to the following functions. To call a function, please \
                     respond with JSON for a function call. Respond in the format {\"name\": \
                     function name, \"parameters\": dictionary of argument name and its value}. \
                     Do not use variables.\n\n";

/// Where the first call of a Llama reply starts: `<|python_tag|>`, or a `{` followed by
/// whitespace and `"name"`.
fn first_call(text: &str) -> Option<usize> {
    let tag = text.find(PYTHON_TAG);
    let object = text.match_indices('{').map(|(at, _)| at).find(|&at| {
        text.get(at + 1..)
            .is_some_and(|rest| rest.trim_start().starts_with("\"name\""))
    });
    match (tag, object) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl TextFormat for Llama {
    fn name(&self) -> &'static str {
        "llama"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        first_call(text)
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:llama"
    }

    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let mut out = String::from(INTRO);
        for def in definitions {
            out.push_str(&indented_json(&openai_tool(def)));
            out.push_str("\n\n");
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// The `ipython` message's content: `{"output": TEXT}`.
    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        python_json(&serde_json::json!({"output": response.model_text()}))
    }

    /// `{"name": NAME, "parameters": {...}}` as the template writes one call; several are
    /// separated by `; ` (the template writes one per turn; the models write `;`).
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        each_call(calls, "; ", out, |call, out| {
            out.push_str("{\"name\": ");
            out.push_str(&json_string(call.name.trim()));
            out.push_str(", \"parameters\": ");
            match serde_json::from_str::<Value>(arguments(call)) {
                Ok(value) => out.push_str(&python_json(&value)),
                Err(_) => out.push_str(arguments(call)),
            }
            out.push('}');
        });
    }

    fn raw_arguments(&self, block: &str) -> String {
        json_arguments(block, "", "")
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::Llama(BareParser::<LlamaCall>::new(options))
    }
}
