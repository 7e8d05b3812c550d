//! The strict-mode settings: whether OpenAI gets a tool with `strict: true`, and the state the
//! dispatch path reads to take the `null`s of optional properties back out of the model's
//! arguments (see `schema::nulls`).

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::{ToolKey, ToolRegistry};
use crate::definition::{StrictMode, ToolDefinition};
use crate::provider::openai_chat::strict_schema;
use crate::schema::nulls::{has_optional_without_null, strip_optional_nulls};

/// What the dispatch needs for a tool sent strict whose schema has optional properties that
/// do not accept `null`: its canonical schema, and whether the strict form is faithful (found
/// on the first call that has a `null` at all; an unfaithful schema is sent as it is, so the
/// model's `null`s are its own).
pub(crate) struct NullStrip {
    schema: Arc<Value>,
    faithful: OnceLock<bool>,
}

impl NullStrip {
    /// `None` for the tools whose arguments never need it: the dispatch then does nothing.
    fn for_definition(def: &ToolDefinition) -> Option<Arc<NullStrip>> {
        if def.strict == StrictMode::Off || !has_optional_without_null(&def.input_schema) {
            return None;
        }
        Some(Arc::new(NullStrip {
            schema: Arc::clone(&def.input_schema),
            faithful: OnceLock::new(),
        }))
    }

    /// The arguments without the `null`s the strict form let the model send for optional
    /// properties, or `None` to use them as they are.
    pub(crate) fn strip(&self, arguments: &str) -> Option<String> {
        memchr::memmem::find(arguments.as_bytes(), b"null")?;
        let faithful = *self
            .faithful
            .get_or_init(|| strict_schema(&self.schema).strict);
        if !faithful {
            return None;
        }
        strip_optional_nulls(&self.schema, arguments)
    }
}

impl ToolRegistry {
    /// Sets whether tools go to OpenAI (Chat Completions and Responses) with `strict: true`,
    /// for every tool of the registry, including tools registered later, except those given
    /// their own setting with [`ToolRegistry::with_tool_strict`]. The default is
    /// [`StrictMode::Auto`]: strict whenever the schema can be made strict faithfully, with
    /// optional properties sent required and nullable and the model's `null` for them removed
    /// before the tool runs. [`StrictMode::Off`] sends every schema as it is, with
    /// `strict: false`.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, StrictMode};
    ///
    /// /// Searches the wiki.
    /// #[tool]
    /// fn search(query: String) -> String { query }
    ///
    /// let registry = tools![search].with_strict(StrictMode::Off);
    /// assert_eq!(registry.tool_list(Api::OpenAiChat).value()[0]["function"]["strict"], false);
    /// assert_eq!(registry.tool_list(Api::OpenAiResponses).value()[0]["strict"], false);
    /// ```
    pub fn with_strict(mut self, mode: StrictMode) -> Self {
        self.strict = mode;
        for index in 0..self.entries.len() {
            self.apply_strict(index);
        }
        self.definitions_changed();
        self
    }

    /// Sets one tool's strict mode (see [`ToolRegistry::with_strict`]); it wins over the
    /// registry's. The tool is its type (checked by the compiler) or its name (see
    /// [`ToolKey`]), e.g. a tool imported from an MCP server whose arguments must reach it
    /// exactly as the model wrote them.
    ///
    /// # Panics
    ///
    /// If no tool has this name: a programming error caught when the registry is built.
    ///
    /// ```
    /// use tool_core::provider::Api;
    /// use tool_core::{tool, tools, StrictMode};
    ///
    /// /// Searches the wiki.
    /// #[tool]
    /// fn search(query: String) -> String { query }
    ///
    /// /// Reads a page.
    /// #[tool]
    /// fn read_page(title: String) -> String { title }
    ///
    /// let registry = tools![search, read_page].with_tool_strict(read_page {}, StrictMode::Off);
    /// let list = registry.tool_list(Api::OpenAiChat).value();
    /// assert_eq!(list[0]["function"]["strict"], true);
    /// assert_eq!(list[1]["function"]["strict"], false);
    /// ```
    #[track_caller]
    pub fn with_tool_strict(mut self, tool: impl ToolKey, mode: StrictMode) -> Self {
        let tool = tool.tool_name();
        let Some(index) = self.position(tool) else {
            panic!("with_tool_strict: no tool named '{tool}' is registered");
        };
        if let Some(entry) = self.entries.get_mut(index) {
            entry.strict = Some(mode);
        }
        self.apply_strict(index);
        self.definitions_changed();
        self
    }

    /// Writes the strict mode in force for the tool at `index` into its definition (what the
    /// providers read) and its entry (what the dispatch reads).
    pub(crate) fn apply_strict(&mut self, index: usize) {
        let (Some(entry), Some(def)) =
            (self.entries.get_mut(index), self.definitions.get_mut(index))
        else {
            return;
        };
        def.strict = entry.strict.unwrap_or(self.strict);
        entry.nulls = NullStrip::for_definition(def);
    }
}
