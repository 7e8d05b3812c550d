//! Rendering the TOOLS section: the header, then one `<tool>` fragment per tool.

use super::escape::{escape_json, escape_text};
use crate::definition::ToolDefinition;

/// The TOOLS section text, up to and including `# Available Tools`.
///
/// ```
/// assert!(tool_core::prompt::DEFAULT_TOOLS_HEADER.ends_with("# Available Tools\n"));
/// ```
pub const DEFAULT_TOOLS_HEADER: &str = "====
TOOLS

You only have access to the tools provided below. You can only use one tool per message, and will receive the result of that tool use in the user's response. You use tools step-by-step to accomplish a given task, with each tool use informed by the result of the previous tool use.

# Tool Use Formatting
Tool use is formatted using XML-style tags. The tool use is enclosed in <use_tool></use_tool> and each parameter is similarly enclosed within its own set of tags.

Description: Tools have defined input schemas that specify required and optional parameters.

Parameters:
- tool_name: (required) The name of the tool to execute
- arguments: (required) A JSON object containing the tool's input parameters, following the tool's input schema, quotes within string must be properly escaped, ensure it's valid JSON

Usage:
<use_tool>
  <tool_name>tool name here</tool_name>
  <arguments>
    {\"param1\": \"value1\",\"param2\": \"value2 \\\"escaped string\\\"\"}
  </arguments>
</use_tool>

When using tools, the tool use must be placed at the end of your response, top level, and not nested within other tags. Do not call tools when you don't have enough information.

Always adhere to this format for the tool use to ensure proper parsing and execution.

# Available Tools
";

/// Appends one tool's `<tool>` fragment (ending in a newline).
pub(crate) fn render_tool(def: &ToolDefinition, out: &mut String) {
    out.push_str("<tool>\n<name>");
    escape_text(&def.name, out);
    out.push_str("</name>\n<description>");
    escape_text(&def.description, out);
    out.push_str("</description>\n<input_json_schema>");
    escape_json(&def.input_schema, out);
    out.push_str("</input_json_schema>\n</tool>\n");
}

/// The whole section: `header` (the application's text, used verbatim) then every fragment.
pub(crate) fn render_tools_section(header: &str, definitions: &[ToolDefinition]) -> String {
    let mut out = String::with_capacity(header.len() + 512 * definitions.len());
    out.push_str(header);
    for def in definitions {
        render_tool(def, &mut out);
    }
    out
}
