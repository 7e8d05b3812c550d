//! Provider tool lists, computed once per registry: what an agent sends on every turn and an
//! MCP server answers to every `tools/list`.
//!
//! Each list is built on first use by the `provider` functions (the same bytes as
//! `OpenAiChat::tools(registry.definitions())` and friends), serialized once, and
//! handed out by reference afterwards. Registering a tool clears them.

use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::Value;

use crate::definition::ToolDefinition;
use crate::provider::{
    anthropic, gemini, mcp, Anthropic, Api, ChatApi, Gemini, GeminiInteractions, OpenAiChat,
    OpenAiResponses,
};

/// Which tools JSON a [`ToolList`] holds: an [`Api`]'s usual `tools` (what
/// [`ChatApi::tools`] builds; for MCP the `tools/list` result), or one of the two variants an
/// API also accepts. An [`Api`] converts into its usual list, so
/// `registry.tool_list(Api::Anthropic)` works.
///
/// ```
/// use tool_core::provider::Api;
/// use tool_core::ToolListFormat;
/// assert_eq!(ToolListFormat::from(Api::Mcp), ToolListFormat::Api(Api::Mcp));
/// assert_eq!(ToolListFormat::ALL.len(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolListFormat {
    /// The API's usual tools JSON: [`ChatApi::tools`], or [`mcp::tools`] for MCP.
    Api(Api),
    /// Anthropic `tools` with `strict: true` where allowed: [`anthropic::tools_strict`].
    AnthropicStrict,
    /// Gemini `tools` with `parametersJsonSchema`: [`gemini::tools_json_schema`].
    GeminiJsonSchema,
}

impl ToolListFormat {
    /// Every format, in a fixed order: each API's usual list, then the two variants.
    pub const ALL: &'static [ToolListFormat] = &[
        ToolListFormat::Api(Api::OpenAiChat),
        ToolListFormat::Api(Api::OpenAiResponses),
        ToolListFormat::Api(Api::Anthropic),
        ToolListFormat::Api(Api::Gemini),
        ToolListFormat::Api(Api::GeminiInteractions),
        ToolListFormat::Api(Api::Mcp),
        ToolListFormat::AnthropicStrict,
        ToolListFormat::GeminiJsonSchema,
    ];

    /// The list for these definitions, built by the function named on the variant.
    ///
    /// ```
    /// use tool_core::{provider::Api, ToolListFormat};
    /// assert_eq!(ToolListFormat::Api(Api::Mcp).build(&[]), serde_json::json!({"tools": []}));
    /// ```
    pub fn build(self, defs: &[ToolDefinition]) -> Value {
        match self {
            ToolListFormat::Api(Api::OpenAiChat) => OpenAiChat::tools(defs),
            ToolListFormat::Api(Api::OpenAiResponses) => OpenAiResponses::tools(defs),
            ToolListFormat::Api(Api::Anthropic) => Anthropic::tools(defs),
            ToolListFormat::Api(Api::Gemini) => Gemini::tools(defs),
            ToolListFormat::Api(Api::GeminiInteractions) => GeminiInteractions::tools(defs),
            ToolListFormat::Api(Api::Mcp) => mcp::tools(defs),
            ToolListFormat::AnthropicStrict => anthropic::tools_strict(defs),
            ToolListFormat::GeminiJsonSchema => gemini::tools_json_schema(defs),
        }
    }

    /// Its index in [`ToolListFormat::ALL`] (checked at compile time below).
    const fn slot(self) -> usize {
        match self {
            ToolListFormat::Api(Api::OpenAiChat) => 0,
            ToolListFormat::Api(Api::OpenAiResponses) => 1,
            ToolListFormat::Api(Api::Anthropic) => 2,
            ToolListFormat::Api(Api::Gemini) => 3,
            ToolListFormat::Api(Api::GeminiInteractions) => 4,
            ToolListFormat::Api(Api::Mcp) => 5,
            ToolListFormat::AnthropicStrict => 6,
            ToolListFormat::GeminiJsonSchema => 7,
        }
    }
}

impl From<Api> for ToolListFormat {
    fn from(api: Api) -> Self {
        ToolListFormat::Api(api)
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
/// use tool_core::provider::{Api, ChatApi};
/// use tool_core::{tool, tools, ToolListFormat};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let list = registry.tool_list(Api::OpenAiChat);
/// assert_eq!(*list.value(), tool_core::provider::OpenAiChat::tools(registry.definitions()));
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
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolList, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = ToolList::build(ToolListFormat::Api(Api::Anthropic), registry.definitions());
    /// assert_eq!(list.value(), registry.tool_list(Api::Anthropic).value());
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
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert!(registry.tool_list(Api::Anthropic).json().starts_with(r#"[{"name":"hi""#));
    /// ```
    pub fn json(&self) -> &str {
        self.json.get()
    }

    /// The JSON text as bytes, e.g. for a request body.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = registry.tool_list(Api::OpenAiChat);
    /// assert_eq!(list.bytes(), list.json().as_bytes());
    /// ```
    pub fn bytes(&self) -> &[u8] {
        self.json.get().as_bytes()
    }

    /// The JSON text as a [`RawValue`]: serializes as the bytes themselves.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// let list = registry.tool_list(Api::Gemini);
    /// let body = serde_json::json!({"tools": list.raw()});
    /// assert_eq!(body["tools"], *list.value());
    /// ```
    pub fn raw(&self) -> &RawValue {
        &self.json
    }

    /// A shared handle on the JSON text, to keep beyond the registry's borrow.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let raw = tools![hi].tool_list(Api::Mcp).shared_raw(); // outlives the registry
    /// assert!(raw.get().starts_with(r#"{"tools":[{"name":"hi""#));
    /// ```
    pub fn shared_raw(&self) -> Arc<RawValue> {
        Arc::clone(&self.json)
    }

    /// The list as a JSON value.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let registry = tools![hi];
    /// assert_eq!(registry.tool_list(Api::OpenAiChat).value()[0]["function"]["name"], "hi");
    /// ```
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// A shared handle on the JSON value.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let value = tools![hi].tool_list(Api::OpenAiResponses).shared_value();
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
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, ToolListFormat};
    ///
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    ///
    /// let mut registry = tools![hi];
    /// let mcp = registry.tool_list(Api::Mcp);
    /// assert_eq!(mcp.value()["tools"][0]["name"], "hi");
    /// // The same list, not a new one.
    /// assert!(std::ptr::eq(mcp, registry.tool_list(ToolListFormat::Api(Api::Mcp))));
    ///
    /// /// Says bye.
    /// #[tool]
    /// fn bye() -> &'static str { "bye" }
    /// registry.register(bye {}).unwrap();
    /// assert_eq!(registry.tool_list(Api::Mcp).value()["tools"][1]["name"], "bye");
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
