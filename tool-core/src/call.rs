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
// Non-exhaustive so what providers attach to a call can be kept later; build one with `new`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's call id, used to pair the result with the call.
    pub id: String,
    /// The tool's name as the model wrote it; for a call within a namespace on an API that
    /// has them (OpenAI Responses), the name the registry knows the tool by:
    /// `namespace__tool` (see [`ToolNamespace`](crate::ToolNamespace)).
    pub name: String,
    /// The raw JSON text of the arguments, byte-exact.
    pub arguments: String,
    /// The namespace the provider named with the call (OpenAI Responses `namespace`);
    /// `None` elsewhere, where a namespaced tool is called by its qualified name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

impl ToolCall {
    /// Creates a call.
    ///
    /// ```
    /// let call = tool_core::ToolCall::new("call_1", "add", r#"{"a":1,"b":2}"#);
    /// assert_eq!((call.id.as_str(), call.arguments.as_str()), ("call_1", r#"{"a":1,"b":2}"#));
    /// ```
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
            namespace: None,
        }
    }
}

impl ToolCall {
    /// Sets the namespace the provider named with the call (the name stays as given: the
    /// qualified `namespace__tool` the registry knows).
    ///
    /// ```
    /// let call = tool_core::ToolCall::new("call_1", "crm__find_account", "{}").with_namespace("crm");
    /// assert_eq!(call.namespace.as_deref(), Some("crm"));
    /// ```
    pub fn with_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }
}

impl ToolCall {
    /// This call as borrowed strings, for [`ToolRegistry::call`](crate::ToolRegistry::call) and
    /// the other dispatch methods (which also take `&ToolCall` directly).
    ///
    /// ```
    /// let call = tool_core::ToolCall::new("call_1", "add", r#"{"a":1,"b":2}"#);
    /// assert_eq!(call.as_borrowed().name, "add");
    /// ```
    pub fn as_borrowed(&self) -> ToolCallRef<'_> {
        ToolCallRef {
            id: &self.id,
            name: &self.name,
            arguments: &self.arguments,
        }
    }
}

/// A [`ToolCall`] that borrows its id, name and arguments: what to dispatch when the strings
/// already live somewhere (a parsed provider response, a request buffer), so nothing is copied
/// or allocated to make the call. Every dispatch method accepts it, and `&ToolCall` too.
///
/// ```
/// use tool_core::{tool, tools, ToolCallRef};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let arguments = String::from(r#"{"a":40,"b":2}"#); // e.g. borrowed from a response
/// let reply = registry.call_blocking(ToolCallRef::new("call_1", "add", &arguments));
/// assert_eq!(reply.into_model_text(), "42");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolCallRef<'a> {
    /// The provider's call id, used to pair the result with the call.
    pub id: &'a str,
    /// The tool's name as the model wrote it.
    pub name: &'a str,
    /// The raw JSON text of the arguments, byte-exact.
    pub arguments: &'a str,
}

impl<'a> ToolCallRef<'a> {
    /// A call of `name` with `arguments` (JSON text), answered under `id`.
    ///
    /// ```
    /// let arguments = String::from("{}");
    /// let call = tool_core::ToolCallRef::new("call_1", "list_files", &arguments);
    /// assert_eq!((call.id, call.name, call.arguments), ("call_1", "list_files", "{}"));
    /// ```
    pub const fn new(id: &'a str, name: &'a str, arguments: &'a str) -> Self {
        ToolCallRef {
            id,
            name,
            arguments,
        }
    }

    /// An owned copy, e.g. to keep in a conversation history.
    ///
    /// ```
    /// let call = tool_core::ToolCallRef::new("1", "f", "{}").to_owned_call();
    /// assert_eq!(call, tool_core::ToolCall::new("1", "f", "{}"));
    /// ```
    pub fn to_owned_call(&self) -> ToolCall {
        ToolCall::new(self.id, self.name, self.arguments)
    }
}

impl<'a> From<&'a ToolCall> for ToolCallRef<'a> {
    fn from(call: &'a ToolCall) -> Self {
        call.as_borrowed()
    }
}
