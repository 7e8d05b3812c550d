//! MiniMax-M2 as a [`TextFormat`]: the template's `# Tools` block of `<tool>` elements,
//! `<response>` results, and calls written back as the template writes them.

use serde_json::{Map, Value};

use super::body::{MiniMaxBody, EXAMPLE};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::TextFormat;
use crate::parse::formats::tagged_values::{first_of, Ahead};
use crate::parse::formats::written::{arguments, python_json, safe_json};
use crate::response::ToolResponse;

pub(crate) struct MiniMax;

impl TextFormat for MiniMax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find("<minimax:tool_call>")
    }

    fn example(&self) -> &'static str {
        EXAMPLE
    }

    fn provider_tag(&self) -> &'static str {
        "text:minimax"
    }

    /// MiniMax-M2 thinks in a leading `<think>` section (its template opens it in the generation prompt).
    fn thinks(&self) -> bool {
        true
    }

    /// As the MiniMax-M2 template renders it after the system message.
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        let mut out = String::from(
            "# Tools\nYou may call one or more tools to assist with the user query.\n\
             Here are the tools available in JSONSchema format:\n\n<tools>\n",
        );
        for def in definitions {
            let function = serde_json::json!({
                "name": def.name,
                "description": def.description,
                "parameters": &*def.input_schema,
            });
            out.push_str("<tool>");
            out.push_str(&safe_json(&function));
            out.push_str("</tool>\n");
        }
        out.push_str(
            "</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass \
             parameters:\n\n<minimax:tool_call>\n<invoke name=\"tool-name-1\">\n\
             <parameter name=\"param-key-1\">param-value-1</parameter>\n\
             <parameter name=\"param-key-2\">param-value-2</parameter>\n...\n</invoke>\n\
             </minimax:tool_call>",
        );
        out
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        format!("<response>{}</response>", response.model_text())
    }

    /// All calls in one block, as the template writes an assistant's `tool_calls`: a string
    /// value as it is, any other value as JSON.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        out.push_str("<minimax:tool_call>\n");
        for call in calls {
            out.push_str("<invoke name=\"");
            out.push_str(&call.name);
            out.push_str("\">\n");
            let parsed: Option<Map<String, Value>> = serde_json::from_str(arguments(call)).ok();
            for (key, value) in parsed.iter().flatten() {
                out.push_str("<parameter name=\"");
                out.push_str(key);
                out.push_str("\">");
                match value {
                    Value::String(s) => out.push_str(s),
                    // As the template's `tojson` writes it (Python's separators).
                    other => out.push_str(&python_json(other)),
                }
                out.push_str("</parameter>\n");
            }
            out.push_str("</invoke>\n");
        }
        out.push_str("</minimax:tool_call>");
    }

    fn raw_arguments(&self, block: &str) -> String {
        parameters_as_written(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::MiniMax(BlockParser::<MiniMaxBody>::new(options))
    }
}

/// The parameters as written: an object of strings, so the dispatcher can say which value
/// has the wrong type.
fn parameters_as_written(block: &str) -> String {
    let mut object = Map::new();
    let mut rest = block;
    // Searches that go on from the last one, so that many unclosed values stay linear.
    let mut ends = ["</parameter>", "<parameter name=", "</invoke>"].map(|m| Ahead::new(block, m));
    while let Some(at) = rest.find("<parameter name=") {
        rest = rest
            .get(at + "<parameter name=".len()..)
            .unwrap_or_default();
        let Some(gt) = rest.find('>') else { break };
        let key = rest.get(..gt).unwrap_or_default().trim().trim_matches('"');
        let key = key.to_string();
        rest = rest.get(gt + 1..).unwrap_or_default();
        let end = first_of(&mut ends, rest);
        let value = rest.get(..end).unwrap_or_default();
        object.insert(key, Value::String(value.trim_matches('\n').to_string()));
        rest = rest.get(end..).unwrap_or_default();
    }
    Value::Object(object).to_string()
}
