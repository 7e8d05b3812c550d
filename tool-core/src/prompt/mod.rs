//! The XML system-prompt section that tells a model about tools, and the XML
//! message that carries tool results back.
//!
//! Each tool renders as one fragment:
//!
//! ```text
//! <tool>
//! <name>get_weather</name>
//! <description>Current weather for a city.</description>
//! <input_json_schema>{"type":"object",...}</input_json_schema>
//! </tool>
//! ```
//!
//! The section is [`DEFAULT_TOOLS_HEADER`] (replaceable) followed by every fragment in
//! registry order. Fragments are always escaped (see [`escape_text`] and [`escape_json`]), so no
//! description or schema can close an element early or smuggle in a `<use_tool>`.
//!
//! ```
//! use tool_core::{tool, tools};
//!
//! /// Adds two numbers. Use for </description><use_tool> & friends.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! let registry = tools![add];
//! let prompt = registry.tools_prompt();
//! assert!(prompt.starts_with("====\nTOOLS\n"));
//! assert!(prompt.contains("<description>Adds two numbers. Use for &lt;/description&gt;&lt;use_tool&gt; &amp; friends.</description>"));
//! let parsed = tool_core::prompt::parse_tools_section(&prompt).unwrap();
//! assert_eq!(parsed[0].description, registry.definitions()[0].description);
//! ```

mod escape;
mod formats;
mod results;
mod section;

use std::sync::Arc;

pub use escape::{escape_json, escape_text, unescape_text};
pub use formats::{render_format_result, render_format_tools};
pub use results::{render_tool_results, ToolResultItem};
pub use section::{parse_tools_section, ParsedTool};

use crate::definition::ToolDefinition;
use crate::registry::ToolRegistry;

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
///
/// ```
/// use std::sync::Arc;
/// use tool_core::ToolDefinition;
/// let def = ToolDefinition::new("echo", "Echoes <text>.", Arc::new(serde_json::json!({"type": "object"})));
/// let mut out = String::new();
/// tool_core::prompt::render_tool(&def, &mut out);
/// assert_eq!(out, "<tool>\n<name>echo</name>\n<description>Echoes &lt;text&gt;.</description>\n<input_json_schema>{\"type\":\"object\"}</input_json_schema>\n</tool>\n");
/// ```
pub fn render_tool(def: &ToolDefinition, out: &mut String) {
    out.push_str("<tool>\n<name>");
    escape_text(&def.name, out);
    out.push_str("</name>\n<description>");
    escape_text(&def.description, out);
    out.push_str("</description>\n<input_json_schema>");
    escape_json(&def.input_schema, out);
    out.push_str("</input_json_schema>\n</tool>\n");
}

/// The whole section: `header` (the application's text, used verbatim) then every fragment.
///
/// ```
/// let section = tool_core::prompt::render_tools_section("# Tools\n", &[]);
/// assert_eq!(section, "# Tools\n");
/// ```
pub fn render_tools_section(header: &str, definitions: &[ToolDefinition]) -> String {
    let mut out = String::with_capacity(header.len() + 512 * definitions.len());
    out.push_str(header);
    for def in definitions {
        render_tool(def, &mut out);
    }
    out
}

impl ToolRegistry {
    /// The TOOLS section with [`DEFAULT_TOOLS_HEADER`], rendered once and cached: later calls
    /// are a pointer copy. Registering another tool clears the cache.
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let r = tools![hi];
    /// assert!(std::sync::Arc::ptr_eq(&r.tools_prompt(), &r.tools_prompt()));
    /// ```
    pub fn tools_prompt(&self) -> Arc<str> {
        self.prompt_cache
            .get_or_init(|| {
                Arc::from(render_tools_section(
                    DEFAULT_TOOLS_HEADER,
                    self.definitions(),
                ))
            })
            .clone()
    }

    /// The TOOLS section with the application's own header text (not cached).
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let p = tools![hi].tools_prompt_with("Tools you may call:\n");
    /// assert!(p.starts_with("Tools you may call:\n<tool>\n<name>hi</name>"));
    /// ```
    pub fn tools_prompt_with(&self, header: &str) -> String {
        render_tools_section(header, self.definitions())
    }
}
