//! The follow-up user message that carries tool results back to the model in XML mode.
//!
//! ```text
//! <tool_results>
//! <tool_result>
//! <tool_name>get_weather</tool_name>
//! <status>SUCCESS</status>
//! <output>{"city":"Paris","temp_c":21.5}</output>
//! </tool_result>
//! </tool_results>
//! ```
//!
//! `output` is [`ToolResponse::model_text`] escaped with XML entities, so a tool's output
//! (a web page, a file) can contain no `<` at all: it cannot close `<output>` or write a
//! `<use_tool>` the application would later mistake for the model's.

use super::escape::escape_text;
use crate::response::ToolResponse;

/// One result to report: the tool name the model used and the response.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolResultItem<'a> {
    /// The tool name as the model wrote it (empty when it gave none).
    pub(crate) name: &'a str,
    /// The result.
    pub(crate) response: &'a ToolResponse,
}

/// Renders results, in order, as the follow-up user message.
pub(crate) fn render_tool_results(items: &[ToolResultItem<'_>]) -> String {
    let mut out = String::from("<tool_results>\n");
    for item in items {
        out.push_str("<tool_result>\n<tool_name>");
        escape_text(item.name, &mut out);
        out.push_str("</tool_name>\n<status>");
        out.push_str(item.response.status.as_str());
        out.push_str("</status>\n<output>");
        escape_text(&item.response.model_text(), &mut out);
        out.push_str("</output>\n</tool_result>\n");
    }
    out.push_str("</tool_results>\n");
    out
}
