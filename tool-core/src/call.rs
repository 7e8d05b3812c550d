//! [`ToolCall`]: the one normalized call type every provider reader and the text parser produce.

use serde::{Deserialize, Serialize};

/// One call of a tool by a model: an id (synthesized where a provider has none), the tool's
/// name, and the arguments exactly as the model wrote them (JSON text).
///
/// ```
/// use tool_core::ToolCall;
/// let call = ToolCall::new("call_1", "get_weather", r#"{"location":"Paris"}"#);
/// assert_eq!(call.name, "get_weather");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's call id, used to pair the result with the call.
    pub id: String,
    /// The tool's name as the model wrote it.
    pub name: String,
    /// The raw JSON text of the arguments, byte-exact.
    pub arguments: String,
}

impl ToolCall {
    /// Creates a call.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}
