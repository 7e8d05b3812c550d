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
mod results;
mod section_read;
mod section_render;

pub use escape::{escape_json, escape_text, unescape_text};
pub use results::{render_tool_results, ToolResultItem};
pub use section_read::{parse_tools_section, ParsedTool};
pub use section_render::{render_tool, render_tools_section, DEFAULT_TOOLS_HEADER};
