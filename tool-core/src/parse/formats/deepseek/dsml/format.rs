//! DeepSeek V3.2 and V4 as [`TextFormat`]s: the tool block, results and calls in the history
//! as the models' own encoders (`encoding_dsv32.py`, `encoding_dsv4.py`) write them.

use serde_json::{Map, Value};

use super::body::{DsmlBody, EXAMPLE_V32, EXAMPLE_V4, FUNCTION_CALLS, TOOL_CALLS};
use super::read::{attribute, attributes, INVOKE, INVOKE_END, PARAMETER, PARAMETER_END};
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::parse::formats::any_parser::AnyParser;
use crate::parse::formats::blocks::BlockParser;
use crate::parse::formats::options::FormatOptions;
use crate::parse::formats::spec::{ResultRef, TextFormat};
use crate::parse::formats::tagged_values::{first_of, Ahead};
use crate::parse::formats::written::{arguments, python_json};
use crate::response::ToolResponse;

/// DeepSeek V3.2 (and V3.2-Speciale): `<｜DSML｜function_calls>` blocks.
pub(crate) struct DeepSeekV32;

/// DeepSeek V4: `<｜DSML｜tool_calls>` blocks.
pub(crate) struct DeepSeekV4;

/// V3.2's `TOOLS_SYSTEM_TEMPLATE` up to the schemas (`｜DSML｜`, `<think>`, `</think>` filled in).
const TOOLS_V32: &str = "## Tools\n\
You have access to a set of tools you can use to answer the user's question.\n\
You can invoke functions by writing a \"<｜DSML｜function_calls>\" block like the following as part of your reply to the user:\n\
<｜DSML｜function_calls>\n\
<｜DSML｜invoke name=\"$FUNCTION_NAME\">\n\
<｜DSML｜parameter name=\"$PARAMETER_NAME\" string=\"true|false\">$PARAMETER_VALUE</｜DSML｜parameter>\n\
...\n\
</｜DSML｜invoke>\n\
<｜DSML｜invoke name=\"$FUNCTION_NAME2\">\n\
...\n\
</｜DSML｜invoke>\n\
</｜DSML｜function_calls>\n\
String and scalar parameters should be specified as is without any escaping or quotes, while lists and objects should use JSON format. The \"string\" attribute should be set to \"true\" for string type parameters and \"false\" for other types (numbers, booleans, arrays, objects).\n\
If the thinking_mode is enabled, then after function results you should strongly consider outputting a thinking block. Here is an example:\n\
<｜DSML｜function_calls>\n\
...\n\
</｜DSML｜function_calls>\n\
<function_results>\n\
...\n\
</function_results>\n\
<think>...thinking about results</think>\n\
Here are the functions available in JSONSchema format:\n\
<functions>\n";

/// V4's `TOOLS_TEMPLATE` up to the schemas.
const TOOLS_V4: &str = "## Tools\n\n\
You have access to a set of tools to help answer the user's question. You can invoke tools by writing a \"<｜DSML｜tool_calls>\" block like the following:\n\n\
<｜DSML｜tool_calls>\n\
<｜DSML｜invoke name=\"$TOOL_NAME\">\n\
<｜DSML｜parameter name=\"$PARAMETER_NAME\" string=\"true|false\">$PARAMETER_VALUE</｜DSML｜parameter>\n\
...\n\
</｜DSML｜invoke>\n\
<｜DSML｜invoke name=\"$TOOL_NAME2\">\n\
...\n\
</｜DSML｜invoke>\n\
</｜DSML｜tool_calls>\n\n\
String parameters should be specified as is and set `string=\"true\"`. For all other types (numbers, booleans, arrays, objects), pass the value in JSON format and set `string=\"false\"`.\n\n\
If thinking_mode is enabled (triggered by <think>), you MUST output your complete reasoning inside <think>...</think> BEFORE any tool calls or final response.\n\n\
Otherwise, output directly after </think> with tool calls or final response.\n\n\
### Available Tool Schemas\n\n";

/// Each tool as the encoders list it: the OpenAI `function` object, `json.dumps`'d, one a line.
fn schemas(definitions: &[ToolDefinition]) -> String {
    let lines: Vec<String> = definitions
        .iter()
        .map(|def| {
            python_json(&serde_json::json!({
                "name": def.name,
                "description": def.description,
                "parameters": &*def.input_schema,
            }))
        })
        .collect();
    lines.join("\n")
}

/// Appends `calls` as the encoders write an assistant's `tool_calls`: after a blank line, one
/// block of invokes, a string value as it is (`string="true"`), any other as JSON.
fn write_block(block: &str, calls: &[ToolCall], out: &mut String) {
    // The encoders write `{content}\n\n{block}`, with the blank line when there is no content.
    if out.is_empty() {
        out.push_str("\n\n");
    } else if !out.ends_with("\n\n") {
        out.push_str(if out.ends_with('\n') { "\n" } else { "\n\n" });
    }
    out.push('<');
    out.push_str(block);
    out.push_str(">\n");
    for (k, call) in calls.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(INVOKE);
        out.push_str(" name=\"");
        out.push_str(&call.name);
        out.push_str("\">\n");
        // Arguments that are not an object go in one `arguments` string, as V4's encoder does.
        let parsed: Map<String, Value> =
            serde_json::from_str(arguments(call)).unwrap_or_else(|_| {
                Map::from_iter([("arguments".into(), call.arguments.clone().into())])
            });
        for (i, (key, value)) in parsed.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(PARAMETER);
            out.push_str(" name=\"");
            out.push_str(key);
            match value {
                Value::String(s) => {
                    out.push_str("\" string=\"true\">");
                    out.push_str(s);
                }
                other => {
                    out.push_str("\" string=\"false\">");
                    out.push_str(&python_json(other));
                }
            }
            out.push_str(PARAMETER_END);
        }
        out.push('\n');
        out.push_str(INVOKE_END);
    }
    out.push_str("\n</");
    out.push_str(block);
    out.push('>');
}

/// The parameters as written: an object of their texts, so that the dispatcher can say which
/// value has the wrong type.
fn parameters_as_written(block: &str) -> String {
    let mut object = Map::new();
    let mut rest = block;
    // Searches that go on from the last one, so that many unclosed values stay linear.
    let mut ends = [PARAMETER_END, PARAMETER, INVOKE_END].map(|m| Ahead::new(block, m));
    while let Some(at) = rest.find(PARAMETER) {
        rest = rest.get(at + PARAMETER.len()..).unwrap_or_default();
        let Some((attrs, body)) = attributes(rest) else {
            break;
        };
        let key = attribute(&attrs, "name").unwrap_or_default().to_string();
        let end = first_of(&mut ends, body);
        object.insert(
            key,
            Value::String(body.get(..end).unwrap_or_default().to_string()),
        );
        rest = body.get(end..).unwrap_or_default();
    }
    Value::Object(object).to_string()
}

impl TextFormat for DeepSeekV32 {
    fn name(&self) -> &'static str {
        "deepseek_v32"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find(FUNCTION_CALLS)
    }

    fn example(&self) -> &'static str {
        EXAMPLE_V32
    }

    fn provider_tag(&self) -> &'static str {
        "text:deepseek_v32"
    }

    /// In thinking mode the encoder opens `<think>` in the generation prompt.
    fn thinks(&self) -> bool {
        true
    }

    /// As the encoder renders it after the system message.
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        format!("{TOOLS_V32}{}\n</functions>\n", schemas(definitions))
    }

    fn result(&self, id: &str, name: &str, response: &ToolResponse) -> String {
        self.results(&[(id, name, response)])
    }

    /// The encoder's `<function_results>` section: one `<result>` per call, in call order.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        let mut out = String::from("<function_results>");
        for (_, _, response) in results {
            out.push_str("\n<result>");
            out.push_str(&response.model_text());
            out.push_str("</result>");
        }
        out.push_str("\n</function_results>");
        out
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        write_block("｜DSML｜function_calls", calls, out);
    }

    fn raw_arguments(&self, block: &str) -> String {
        parameters_as_written(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::DeepSeekV32(BlockParser::<DsmlBody<false>>::new(options))
    }
}

impl TextFormat for DeepSeekV4 {
    fn name(&self) -> &'static str {
        "deepseek_v4"
    }

    fn find_marker(&self, text: &str) -> Option<usize> {
        text.find(TOOL_CALLS)
    }

    fn example(&self) -> &'static str {
        EXAMPLE_V4
    }

    fn provider_tag(&self) -> &'static str {
        "text:deepseek_v4"
    }

    /// In thinking mode the encoder opens `<think>` in the generation prompt.
    fn thinks(&self) -> bool {
        true
    }

    /// V4 may open its tool block while thinking, without `</think>` (llama.cpp's DeepSeek-V4
    /// template tests hold such a reply): the block's special token ends the reasoning.
    fn reasoning_ends_at(&self) -> &'static [u8] {
        TOOL_CALLS.as_bytes()
    }

    /// As the encoder renders it after the system message.
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String {
        format!(
            "{TOOLS_V4}{}\n\nYou MUST strictly follow the above defined tool name and parameter \
             schemas to invoke tool calls.\n",
            schemas(definitions)
        )
    }

    fn result(&self, _id: &str, _name: &str, response: &ToolResponse) -> String {
        format!("<tool_result>{}</tool_result>", response.model_text())
    }

    /// The encoder gathers a turn's results into one user message, a blank line between them.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        let parts: Vec<String> = results
            .iter()
            .map(|(id, name, response)| self.result(id, name, response))
            .collect();
        parts.join("\n\n")
    }

    fn write_calls(&self, calls: &[ToolCall], out: &mut String) {
        write_block("｜DSML｜tool_calls", calls, out);
    }

    fn raw_arguments(&self, block: &str) -> String {
        parameters_as_written(block)
    }

    fn parser(&self, options: FormatOptions) -> AnyParser {
        AnyParser::DeepSeekV4(BlockParser::<DsmlBody<true>>::new(options))
    }
}
