//! The DeepSeek tool blocks, as the models' chat templates render them.

use crate::definition::ToolDefinition;
use crate::parse::formats::written::{openai_tool, python_json};

/// DeepSeek V3.1 / V3.2-Exp: the `## Tools` section of the official template (each tool's
/// name, description and parameters, then the call format).
pub(super) fn v31(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from("## Tools\nYou have access to the following tools:\n");
    for def in definitions {
        out.push_str("\n### ");
        out.push_str(&def.name);
        out.push_str("\nDescription: ");
        out.push_str(&def.description);
        out.push_str("\n\nParameters: ");
        out.push_str(&python_json(&def.input_schema));
        out.push('\n');
    }
    out.push_str(
        "\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n\
         <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments\
         <｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>\n\n\
         Where:\n\n\
         - `tool_call_name` must be an exact match to one of the available tools\n\
         - `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n\
         - For multiple tool calls, chain them directly without separators or spaces\n",
    );
    out
}

/// DeepSeek V3 / R1 / R1-0528: the tool section of the R1 tool template that vLLM and sglang
/// ship (the models' own templates render no tools), each tool as a fenced JSON object.
pub(super) fn v3(definitions: &[ToolDefinition]) -> String {
    let mut out = String::from(
        "You are a helpful assistant with tool calling capabilities. When a tool call is needed, \
         you MUST use the following format to issue the call:\n\
         <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>FUNCTION_NAME\n\
         ```json\n{\"param1\": \"value1\", \"param2\": \"value2\"}\n```<｜tool▁call▁end｜>\
         <｜tool▁calls▁end｜>\n\n\
         Make sure the JSON is valid.## Tools\n\n### Function\n\n\
         You have the following functions available:\n\n",
    );
    for def in definitions {
        out.push_str("\n```json\n");
        out.push_str(&python_json(&openai_tool(def)));
        out.push_str("\n```\n");
    }
    out
}
