//! [`ToolCall`]: the one normalized call type every provider reader and the text parser produce.

use serde::{Deserialize, Serialize};

use crate::response::{ToolErrorCode, ToolResponse};

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
    /// Who made the call, when the provider said: the model itself, or code the model wrote
    /// (Anthropic's `caller` on a `tool_use` block, OpenAI Responses' `caller` on a
    /// `function_call`). `None` when the provider did not say, which is a direct call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<Caller>,
    /// The namespace the provider named with the call (OpenAI Responses `namespace`);
    /// `None` elsewhere, where a namespaced tool is called by its qualified name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// Who made a [`ToolCall`]: the model directly, or a program the model wrote and a
/// provider's code-execution tool runs (Anthropic's programmatic tool calling, OpenAI's
/// programmatic calls). A tool that allows only direct calls
/// ([`AllowedCallers::Direct`], the default) never runs on a call made from a program.
///
/// ```
/// use tool_core::{Caller, ToolCall};
/// let call = ToolCall::new("toolu_1", "roll_die", "{}")
///     .with_caller(Caller::program("code_execution_20250825", "srvtoolu_1"));
/// assert!(!call.caller.as_ref().unwrap().is_direct());
/// assert_eq!(call.caller.unwrap().program_id(), Some("srvtoolu_1"));
/// ```
// Non-exhaustive: providers may add ways to call a tool.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Caller {
    /// The model called the tool itself.
    Direct,
    /// A program called it: `kind` is the provider's caller type as sent
    /// (`code_execution_20250825`, `program`), `id` the id of the code-execution call or
    /// program item that made the call.
    #[non_exhaustive]
    Program {
        /// The provider's caller type, as sent.
        kind: String,
        /// The id of the program (code-execution call) that made the call.
        id: String,
    },
}

impl Caller {
    /// A call made by a program: the provider's caller type and the program's id.
    ///
    /// ```
    /// let caller = tool_core::Caller::program("program", "call_O2Iv");
    /// assert_eq!(caller.program_id(), Some("call_O2Iv"));
    /// ```
    pub fn program(kind: impl Into<String>, id: impl Into<String>) -> Self {
        Caller::Program {
            kind: kind.into(),
            id: id.into(),
        }
    }

    /// Whether the model made the call itself.
    ///
    /// ```
    /// assert!(tool_core::Caller::Direct.is_direct());
    /// ```
    pub fn is_direct(&self) -> bool {
        matches!(self, Caller::Direct)
    }

    /// The id of the program that made the call, if a program did.
    ///
    /// ```
    /// assert_eq!(tool_core::Caller::Direct.program_id(), None);
    /// ```
    pub fn program_id(&self) -> Option<&str> {
        match self {
            Caller::Program { id, .. } => Some(id),
            Caller::Direct => None,
        }
    }
}

/// Who may call a tool ([`ToolDefinition::with_allowed_callers`]): by default only the model
/// directly, as Anthropic and OpenAI assume for a tool that says nothing. A call from a
/// program to a tool that does not allow it is refused with `PERMISSION_DENIED`, never run.
/// Anthropic gets the setting as `allowed_callers` (`"direct"`, `"code_execution_20260120"`),
/// OpenAI Responses as `allowed_callers` (`"direct"`, `"programmatic"`); the default is not
/// sent.
///
/// [`ToolDefinition::with_allowed_callers`]: crate::ToolDefinition::with_allowed_callers
///
/// ```
/// use tool_core::AllowedCallers;
/// assert_eq!(AllowedCallers::default(), AllowedCallers::Direct);
/// assert!(AllowedCallers::Any.allows(&tool_core::Caller::program("program", "call_1")));
/// assert!(!AllowedCallers::Direct.allows(&tool_core::Caller::program("program", "call_1")));
/// ```
// Non-exhaustive: providers may add callers (another code-execution tool).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AllowedCallers {
    /// Only the model, directly (the default).
    #[default]
    Direct,
    /// Only programs the model writes (code execution), never the model directly.
    Program,
    /// Both.
    Any,
}

impl AllowedCallers {
    /// Whether a call made by `caller` may run.
    ///
    /// ```
    /// use tool_core::{AllowedCallers, Caller};
    /// assert!(!AllowedCallers::Program.allows(&Caller::Direct));
    /// ```
    pub fn allows(self, caller: &Caller) -> bool {
        match (self, caller.is_direct()) {
            (AllowedCallers::Any, _) => true,
            (AllowedCallers::Direct, direct) => direct,
            (AllowedCallers::Program, direct) => !direct,
        }
    }

    /// `Ok` when `caller` may call the tool `name`; otherwise the refusal the model gets.
    pub(crate) fn admit(self, name: &str, caller: &Caller) -> Result<(), ToolResponse> {
        if self.allows(caller) {
            return Ok(());
        }
        let message = match caller {
            Caller::Direct => format!(
                "'{name}' may only be called from code you run (code execution), not directly. \
                 Call it from your program instead."
            ),
            Caller::Program { .. } => format!(
                "'{name}' may only be called by you directly, not from code. Call it as a tool \
                 yourself, outside the program."
            ),
        };
        Err(ToolResponse::error(
            ToolErrorCode::PermissionDenied,
            message,
        ))
    }
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
            caller: None,
            namespace: None,
        }
    }

    /// Sets who made the call.
    ///
    /// ```
    /// use tool_core::{Caller, ToolCall};
    /// let call = ToolCall::new("toolu_1", "f", "{}").with_caller(Caller::Direct);
    /// assert_eq!(call.caller, Some(Caller::Direct));
    /// ```
    pub fn with_caller(mut self, caller: Caller) -> Self {
        self.caller = Some(caller);
        self
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
            caller: self.caller.as_ref(),
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
    /// Who made the call ([`ToolCall::caller`]); `None` is a direct call.
    pub caller: Option<&'a Caller>,
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
            caller: None,
        }
    }

    /// Sets who made the call.
    ///
    /// ```
    /// use tool_core::{Caller, ToolCallRef};
    /// let caller = Caller::program("program", "call_1");
    /// let call = ToolCallRef::new("call_2", "f", "{}").with_caller(&caller);
    /// assert_eq!(call.to_owned_call().caller, Some(caller.clone()));
    /// ```
    pub fn with_caller(mut self, caller: &'a Caller) -> Self {
        self.caller = Some(caller);
        self
    }

    /// An owned copy, e.g. to keep in a conversation history.
    ///
    /// ```
    /// let call = tool_core::ToolCallRef::new("1", "f", "{}").to_owned_call();
    /// assert_eq!(call, tool_core::ToolCall::new("1", "f", "{}"));
    /// ```
    pub fn to_owned_call(&self) -> ToolCall {
        let call = ToolCall::new(self.id, self.name, self.arguments);
        match self.caller {
            Some(caller) => call.with_caller(caller.clone()),
            None => call,
        }
    }
}

impl<'a> From<&'a ToolCall> for ToolCallRef<'a> {
    fn from(call: &'a ToolCall) -> Self {
        call.as_borrowed()
    }
}
