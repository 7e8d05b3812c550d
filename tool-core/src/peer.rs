//! What a tool may ask of the client that called it: log to it, ask its model for a
//! completion (sampling), ask its user for input (elicitation), read its roots. A tool asks
//! through its [`ToolContext`](crate::ToolContext) and never learns the transport:
//!
//! - served over MCP (`McpServer`, feature `mcp`), each becomes the MCP message for it,
//!   and fails with [`PeerError::Unsupported`] when the client did not declare the capability;
//! - anywhere else (the runner, direct dispatch) there is no client: `log` goes to `tracing`
//!   (feature `tracing`; otherwise nowhere) and the others fail with
//!   [`PeerError::Unsupported`], unless the application supplies its own [`ClientPeer`] with
//!   [`CallContext::with_peer`](crate::CallContext::with_peer) (for example, one that answers
//!   sampling with the runner's own model).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

/// How severe a log message is (MCP's syslog levels), least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Normal progress.
    Info,
    /// Normal but significant.
    Notice,
    /// Something to look at.
    Warning,
    /// A failure.
    Error,
    /// A critical failure.
    Critical,
    /// Act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// A request for the client's model: messages, with optional preferences.
///
/// ```
/// let request = tool_core::SamplingRequest::new("Write a haiku about rain.").with_max_tokens(60);
/// assert_eq!(request.max_tokens, 60);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    /// The conversation, `(is_assistant, text)`-free: user and assistant turns in order.
    pub messages: Vec<crate::prompt_message::PromptMessage>,
    /// A system prompt the client may use.
    pub system_prompt: Option<String>,
    /// The most tokens to generate.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Model names the client may prefer, best first (hints, not requirements).
    pub model_hints: Vec<String>,
    /// 0..1: how much cost matters.
    pub cost_priority: Option<f64>,
    /// 0..1: how much speed matters.
    pub speed_priority: Option<f64>,
    /// 0..1: how much capability matters.
    pub intelligence_priority: Option<f64>,
}

impl SamplingRequest {
    /// One user message, at most 1000 tokens back.
    pub fn new(prompt: impl Into<String>) -> Self {
        SamplingRequest {
            messages: vec![crate::prompt_message::PromptMessage::user(prompt)],
            system_prompt: None,
            max_tokens: 1000,
            temperature: None,
            model_hints: Vec::new(),
            cost_priority: None,
            speed_priority: None,
            intelligence_priority: None,
        }
    }

    /// Sets the token limit.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Sets the system prompt.
    pub fn with_system_prompt(mut self, system_prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(system_prompt.into());
        self
    }

    /// Adds a model hint.
    pub fn with_model_hint(mut self, model: impl Into<String>) -> Self {
        self.model_hints.push(model.into());
        self
    }
}

/// The client model's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SamplingReply {
    /// The generated text.
    pub text: String,
    /// The model that wrote it.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`, ...), when the client says.
    pub stop_reason: Option<String>,
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicited<T> {
    /// The user filled the form in and sent it.
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the question without choosing.
    Cancelled,
}

/// A root the client exposes (a directory or other URI the tool may work in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The root's URI (`file:///home/ada/project`).
    pub uri: String,
    /// A display name.
    pub name: Option<String>,
}

/// Why a request to the client failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerError {
    /// There is no client that can do this: not served over MCP, or the client did not
    /// declare the capability (`sampling`, `elicitation`, `roots`).
    Unsupported {
        /// What was asked (`sampling`, `elicitation`, `roots`).
        what: &'static str,
        /// Why it cannot be done and what to do instead.
        why: String,
    },
    /// The request itself is malformed (e.g. an elicitation schema that is not flat).
    Invalid(String),
    /// The client answered with an error.
    Rejected(String),
    /// The connection failed.
    Transport(String),
}

impl std::fmt::Display for PeerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeerError::Unsupported { what, why } => write!(f, "{what} is not available: {why}"),
            PeerError::Invalid(m) => write!(f, "invalid request to the client: {m}"),
            PeerError::Rejected(m) => write!(f, "the client refused: {m}"),
            PeerError::Transport(m) => write!(f, "the client could not be reached: {m}"),
        }
    }
}

impl std::error::Error for PeerError {}

/// What a request to the client yields.
pub type PeerFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, PeerError>> + Send + 'a>>;

/// The client of the current call, as the transport sees it: what a tool may ask of the
/// client that called it. A tool asks through its [`ToolContext`](crate::ToolContext) (log to
/// the client, ask its model for a completion, ask its user for input, read its roots) and
/// never learns the transport:
///
/// - served over MCP (`McpServer`, feature `mcp`), each becomes the MCP message for it,
///   and fails with [`PeerError::Unsupported`] when the client did not declare the capability;
/// - anywhere else (the runner, direct dispatch) there is no client: `log` goes to `tracing`
///   (feature `tracing`; otherwise nowhere) and the others fail with
///   [`PeerError::Unsupported`], unless the application supplies its own `ClientPeer` with
///   [`CallContext::with_peer`](crate::CallContext::with_peer) (for example, one that answers
///   sampling with the runner's own model).
pub trait ClientPeer: Send + Sync + 'static {
    /// Sends a log message (dropped if the client asked for a higher level).
    fn log(&self, level: LogLevel, logger: &str, data: Value);

    /// Asks the client's model for a completion.
    fn sample(&self, request: SamplingRequest) -> PeerFuture<'_, SamplingReply>;

    /// Asks the client's user to fill in a form with this (flat, primitive) JSON schema.
    fn elicit(&self, message: String, schema: Value) -> PeerFuture<'_, Elicited<Value>>;

    /// Lists the client's roots.
    fn roots(&self) -> PeerFuture<'_, Vec<Root>>;
}

/// The peer as a call-context extension (how it reaches the tool).
#[derive(Clone)]
pub(crate) struct PeerHandle(pub(crate) Arc<dyn ClientPeer>);

pub(crate) fn unsupported(what: &'static str) -> PeerError {
    PeerError::Unsupported {
        what,
        why: "this call has no client to ask: it was not served over MCP and the application \
              supplied no peer (CallContext::with_peer)"
            .to_owned(),
    }
}

/// Outside MCP, a log message goes to `tracing` (feature `tracing`).
pub(crate) fn log_locally(level: LogLevel, tool: &str, message: &str) {
    #[cfg(feature = "tracing")]
    match level {
        LogLevel::Debug => tracing::debug!(tool, "{message}"),
        LogLevel::Info | LogLevel::Notice => tracing::info!(tool, "{message}"),
        LogLevel::Warning => tracing::warn!(tool, "{message}"),
        _ => tracing::error!(tool, "{message}"),
    }
    #[cfg(not(feature = "tracing"))]
    let _ = (level, tool, message);
}

/// The spec allows only a flat object of primitive properties (string, number, integer,
/// boolean, string enums) in an elicitation schema. References to `$defs` (how schemars
/// writes enums) are inlined and `$defs` dropped; anything else is refused.
pub(crate) fn flat_schema(mut schema: Value) -> Result<Value, PeerError> {
    let not_flat = |why: String| {
        PeerError::Invalid(format!(
            "an elicitation form must be a struct of primitive fields (strings, numbers, booleans, unit-variant enums): {why}"
        ))
    };
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(not_flat("the type is not a struct".into()));
    }
    let defs = schema
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or(Value::Null);
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
    }
    let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return Ok(schema);
    };
    for (name, property) in properties.iter_mut() {
        if let Some(target) = property
            .get("$ref")
            .and_then(Value::as_str)
            .map(str::to_owned)
        {
            let key = target.trim_start_matches("#/$defs/");
            let (Some(def), Some(object)) = (
                defs.get(key).and_then(Value::as_object),
                property.as_object_mut(),
            ) else {
                return Err(not_flat(format!("field `{name}` refers to `{target}`")));
            };
            object.remove("$ref");
            for (key, value) in def {
                // The field's own description wins over the type's.
                object.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        // A documented unit-variant enum is a `oneOf` of string constants: the form wants
        // a plain string `enum`.
        let constants: Option<Vec<Value>> = property
            .get("oneOf")
            .or_else(|| property.get("anyOf"))
            .and_then(Value::as_array)
            .and_then(|variants| {
                variants
                    .iter()
                    .map(|v| v.get("const").filter(|c| c.is_string()).cloned())
                    .collect()
            });
        if let (Some(constants), Some(object)) = (constants, property.as_object_mut()) {
            object.remove("oneOf");
            object.remove("anyOf");
            object.insert("type".into(), Value::String("string".into()));
            object.insert("enum".into(), Value::Array(constants));
        }
        let kind = match property.get("type") {
            Some(Value::String(kind)) => Some(kind.as_str()),
            // `Option<T>`: `["string", "null"]`; the form field is simply not required.
            Some(Value::Array(kinds)) => kinds
                .iter()
                .filter_map(Value::as_str)
                .find(|k| *k != "null"),
            _ => None,
        };
        let primitive = matches!(kind, Some("string" | "number" | "integer" | "boolean"))
            || property.get("enum").is_some_and(Value::is_array);
        if !primitive {
            return Err(not_flat(format!("field `{name}` is not a primitive")));
        }
        if let (Some(kind), Some(object)) = (kind.map(str::to_owned), property.as_object_mut()) {
            object.insert("type".into(), Value::String(kind));
        }
    }
    Ok(schema)
}

#[cfg(test)]
mod tests {
    use super::flat_schema;
    use serde_json::json;

    #[test]
    fn documented_enums_become_string_enums_and_nesting_is_refused() {
        let schema = json!({
            "type": "object",
            "properties": {
                "unit": {"$ref": "#/$defs/Unit", "description": "Which unit."},
                "note": {"type": ["string", "null"]}
            },
            "$defs": {"Unit": {"oneOf": [
                {"type": "string", "const": "celsius", "description": "C"},
                {"type": "string", "const": "fahrenheit", "description": "F"}
            ]}}
        });
        let flat = flat_schema(schema).unwrap();
        assert_eq!(
            flat,
            json!({
                "type": "object",
                "properties": {
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Which unit."},
                    "note": {"type": "string"}
                }
            })
        );
        let nested = json!({"type": "object", "properties": {"inner": {"type": "object"}}});
        assert!(flat_schema(nested).is_err());
        assert!(flat_schema(json!({"type": "integer"})).is_err());
    }
}
