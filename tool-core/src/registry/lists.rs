//! Provider tool lists, computed once per registry: what an agent sends on every turn and an
//! MCP server answers to every `tools/list`.
//!
//! Each list is built on first use by the `provider` functions (the same bytes as
//! `provider::openai::tools(registry.definitions())` and friends), serialized once, and
//! handed out by reference afterwards. Registering a tool clears them.

use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::Value;

use crate::definition::ToolDefinition;
use crate::provider::{anthropic, gemini, mcp, openai, openai_responses};
use crate::schema::Dialect;

/// Which provider's tools JSON a [`ToolList`] holds, and the `provider` function that builds it.
///
/// A [`Dialect`] converts to its usual format (`OpenAi` to Chat Completions, `Gemini` to
/// `parameters`), so `registry.tool_list(Dialect::OpenAi)` works too.
///
/// ```
/// use tool_core::schema::Dialect;
/// use tool_core::ToolListFormat;
/// assert_eq!(ToolListFormat::from(Dialect::Mcp), ToolListFormat::McpToolsList);
/// assert_eq!(ToolListFormat::ALL.len(), 7);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolListFormat {
    /// OpenAI Chat Completions `tools`: [`openai::tools`].
    OpenAiChat,
    /// OpenAI Responses `tools`: [`openai_responses::tools`].
    OpenAiResponses,
    /// Anthropic Messages `tools`: [`anthropic::tools`].
    Anthropic,
    /// Anthropic `tools` with `strict: true` where allowed: [`anthropic::tools_strict`].
    AnthropicStrict,
    /// Gemini `tools` with `parameters`: [`gemini::tools`].
    Gemini,
    /// Gemini `tools` with `parametersJsonSchema`: [`gemini::tools_json_schema`].
    GeminiJsonSchema,
    /// The MCP `tools/list` result `{"tools": [...]}`: [`mcp::tools_list_result`].
    McpToolsList,
}

impl ToolListFormat {
    /// Every format, in a fixed order.
    pub const ALL: [ToolListFormat; 7] = [
        ToolListFormat::OpenAiChat,
        ToolListFormat::OpenAiResponses,
        ToolListFormat::Anthropic,
        ToolListFormat::AnthropicStrict,
        ToolListFormat::Gemini,
        ToolListFormat::GeminiJsonSchema,
        ToolListFormat::McpToolsList,
    ];

    /// The list for these definitions, built by the `provider` function named on the variant.
    ///
    /// ```
    /// assert_eq!(tool_core::ToolListFormat::McpToolsList.build(&[]), serde_json::json!({"tools": []}));
    /// ```
    pub fn build(self, defs: &[ToolDefinition]) -> Value {
        match self {
            ToolListFormat::OpenAiChat => openai::tools(defs),
            ToolListFormat::OpenAiResponses => openai_responses::tools(defs),
            ToolListFormat::Anthropic => anthropic::tools(defs),
            ToolListFormat::AnthropicStrict => anthropic::tools_strict(defs),
            ToolListFormat::Gemini => gemini::tools(defs),
            ToolListFormat::GeminiJsonSchema => gemini::tools_json_schema(defs),
            ToolListFormat::McpToolsList => mcp::tools_list_result(defs),
        }
    }

    /// Its index in [`ToolListFormat::ALL`] (checked at compile time below).
    const fn slot(self) -> usize {
        self as usize
    }
}

impl From<Dialect> for ToolListFormat {
    fn from(dialect: Dialect) -> Self {
        match dialect {
            Dialect::OpenAi => ToolListFormat::OpenAiChat,
            Dialect::Anthropic => ToolListFormat::Anthropic,
            Dialect::Gemini => ToolListFormat::Gemini,
            Dialect::Mcp => ToolListFormat::McpToolsList,
        }
    }
}

/// One provider's tools JSON for a whole registry, built once: the serialized bytes, shared,
/// and the same as a [`Value`]. Cloning it copies two pointers.
///
/// Put [`ToolList::raw`] (or [`ToolList::shared_raw`]) into a `#[derive(Serialize)]` request
/// body and the bytes are copied as they are, with no re-serializing; use [`ToolList::value`]
/// where a `serde_json::Value` is needed.
///
/// ```
/// use tool_core::{tool, tools, ToolListFormat};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let list = registry.tool_list(ToolListFormat::OpenAiChat);
/// assert_eq!(*list.value(), tool_core::provider::openai::tools(registry.definitions()));
/// assert!(list.json().starts_with(r#"[{"type":"function","function":{"name":"add""#));
///
/// #[derive(serde::Serialize)]
/// struct Request<'a> { model: &'a str, tools: &'a serde_json::value::RawValue }
/// let body = serde_json::to_string(&Request { model: "m", tools: list.raw() }).unwrap();
/// assert_eq!(body, format!(r#"{{"model":"m","tools":{}}}"#, list.json()));
/// ```
#[derive(Clone)]
pub struct ToolList {
    json: Arc<RawValue>,
    value: Arc<Value>,
}

impl ToolList {
    /// Builds the list for `defs` (what the registry does on first use).
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolList, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = ToolList::build(ToolListFormat::Anthropic, registry.definitions());
    /// assert_eq!(list.value(), registry.tool_list(ToolListFormat::Anthropic).value());
    /// ```
    pub fn build(format: ToolListFormat, defs: &[ToolDefinition]) -> ToolList {
        let value = format.build(defs);
        // Serializing a `Value` cannot fail (its map keys are strings); the fallback is
        // unreachable but keeps this path free of panics.
        let json =
            serde_json::value::to_raw_value(&value).unwrap_or_else(|_| RawValue::NULL.to_owned());
        ToolList {
            json: Arc::from(json),
            value: Arc::new(value),
        }
    }

    /// The compact JSON text.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert!(registry.tool_list(ToolListFormat::Anthropic).json().starts_with(r#"[{"name":"hi""#));
    /// ```
    pub fn json(&self) -> &str {
        self.json.get()
    }

    /// The JSON text as bytes, e.g. for a request body.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = registry.tool_list(ToolListFormat::OpenAiChat);
    /// assert_eq!(list.bytes(), list.json().as_bytes());
    /// ```
    pub fn bytes(&self) -> &[u8] {
        self.json.get().as_bytes()
    }

    /// The JSON text as a [`RawValue`]: serializes as the bytes themselves.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = registry.tool_list(ToolListFormat::Gemini);
    /// let body = serde_json::json!({"tools": list.raw()});
    /// assert_eq!(body["tools"], *list.value());
    /// ```
    pub fn raw(&self) -> &RawValue {
        &self.json
    }

    /// A shared handle on the JSON text, to keep beyond the registry's borrow.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let raw = tools![hi].tool_list(ToolListFormat::McpToolsList).shared_raw(); // outlives the registry
    /// assert!(raw.get().starts_with(r#"{"tools":[{"name":"hi""#));
    /// ```
    pub fn shared_raw(&self) -> Arc<RawValue> {
        Arc::clone(&self.json)
    }

    /// The list as a JSON value.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert_eq!(registry.tool_list(ToolListFormat::OpenAiChat).value()[0]["function"]["name"], "hi");
    /// ```
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// A shared handle on the JSON value.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let value = tools![hi].tool_list(ToolListFormat::OpenAiResponses).shared_value();
    /// assert_eq!(value[0]["name"], "hi");
    /// ```
    pub fn shared_value(&self) -> Arc<Value> {
        Arc::clone(&self.value)
    }
}

impl std::fmt::Debug for ToolList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ToolList").field(&self.json()).finish()
    }
}

const _: () = {
    let mut i = 0;
    while i < ToolListFormat::ALL.len() {
        assert!(ToolListFormat::ALL[i].slot() == i);
        i += 1;
    }
};

/// One slot per [`ToolListFormat`]; a fresh cache is empty.
#[derive(Default)]
pub(super) struct ListCache {
    slots: [OnceLock<ToolList>; ToolListFormat::ALL.len()],
}

impl super::ToolRegistry {
    /// The tools JSON for one provider format, built on first use and cached until a tool is
    /// registered: a warm call is a pointer read. This is what to send on every turn (and
    /// what an MCP server answers to `tools/list`); it equals what the `provider` functions
    /// build from [`ToolRegistry::definitions`](super::ToolRegistry::definitions).
    ///
    /// ```
    /// use tool_core::schema::Dialect;
    /// use tool_core::{tool, tools, ToolListFormat};
    ///
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    ///
    /// let mut registry = tools![hi];
    /// let mcp = registry.tool_list(Dialect::Mcp);
    /// assert_eq!(mcp.value()["tools"][0]["name"], "hi");
    /// // The same list, not a new one.
    /// assert!(std::ptr::eq(mcp, registry.tool_list(ToolListFormat::McpToolsList)));
    ///
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// registry.register(bye {}).unwrap();
    /// assert_eq!(registry.tool_list(Dialect::Mcp).value()["tools"][1]["name"], "bye");
    /// ```
    #[inline]
    pub fn tool_list(&self, format: impl Into<ToolListFormat>) -> &ToolList {
        let format = format.into();
        // In bounds: the array has one slot per format and `slot()` is checked above.
        let slot = &self.lists.slots[format.slot()];
        // The warm path is one load; building stays out of line.
        match slot.get() {
            Some(list) => list,
            None => slot.get_or_init(|| ToolList::build(format, self.definitions())),
        }
    }
}
