//! The outcome of one call read from a reply, as a runner reports it back.

use crate::response::ToolResponse;

/// The outcome of one call from a reply: run by the registry, or rejected by the parser.
///
/// ```
/// let r = tool_core::parse::TextCallResult { index: 0, id: "xml_call_0".into(), name: "t".into(), response: tool_core::ToolResponse::success("ok") };
/// assert!(r.response.is_success());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TextCallResult {
    /// Call index within the reply.
    pub index: usize,
    /// The synthesized call id.
    pub id: String,
    /// The tool name the model wrote (empty when it gave none).
    pub name: String,
    /// The tool's response, or the parser's error for a malformed call.
    pub response: ToolResponse,
}
