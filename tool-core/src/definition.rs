//! [`ToolDefinition`] and [`ToolAnnotations`]: what an application sends a model about a tool.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::call::AllowedCallers;
use crate::metadata::{Icon, Meta};
use crate::namespace::ToolNamespace;
use crate::task_support::TaskSupport;

/// Behaviour hints that travel with a definition (MCP's `readOnlyHint`, `destructiveHint`,
/// `idempotentHint`, `openWorldHint`). `None` means "not stated".
///
/// ```
/// use tool_core::ToolAnnotations;
/// let a = ToolAnnotations::NONE.with_read_only(true);
/// assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"read_only":true}"#);
/// assert_eq!(a.read_only, Some(true));
/// ```
// Non-exhaustive so MCP's next hints can be added; build one from `NONE` with the `with_*` methods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool talks to an open world (the web, other people's systems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No hints stated.
    pub const NONE: ToolAnnotations = ToolAnnotations {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// Whether no hint is stated.
    ///
    /// ```
    /// assert!(tool_core::ToolAnnotations::NONE.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }

    /// States whether the tool does not modify its environment.
    ///
    /// ```
    /// const READ_ONLY: tool_core::ToolAnnotations = tool_core::ToolAnnotations::NONE.with_read_only(true);
    /// assert_eq!(READ_ONLY.read_only, Some(true));
    /// ```
    pub const fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only = Some(read_only);
        self
    }

    /// States whether the tool may perform destructive updates.
    ///
    /// ```
    /// let a = tool_core::ToolAnnotations::NONE.with_destructive(true);
    /// assert_eq!(a.destructive, Some(true));
    /// ```
    pub const fn with_destructive(mut self, destructive: bool) -> Self {
        self.destructive = Some(destructive);
        self
    }

    /// States whether calling the tool again with the same arguments has no further effect.
    ///
    /// ```
    /// let a = tool_core::ToolAnnotations::NONE.with_idempotent(false);
    /// assert_eq!(a.idempotent, Some(false));
    /// ```
    pub const fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = Some(idempotent);
        self
    }

    /// States whether the tool talks to an open world (the web, other people's systems).
    ///
    /// ```
    /// let a = tool_core::ToolAnnotations::NONE.with_open_world(true);
    /// assert_eq!(a.open_world, Some(true));
    /// ```
    pub const fn with_open_world(mut self, open_world: bool) -> Self {
        self.open_world = Some(open_world);
        self
    }
}

/// Whether a tool goes to OpenAI (Chat Completions and Responses) with `strict: true`.
///
/// With [`StrictMode::Auto`], the default, a tool whose schema fits OpenAI's strict subset
/// without changing its meaning is sent strict: the model's arguments then always match the
/// schema. An optional property is sent required and nullable (the strict form of
/// "optional"); a `null` the model sends for it is removed before the tool runs, so the tool
/// sees the property absent, as if the model had left it out. A schema that cannot be made
/// strict faithfully (an open map, `allOf`, a size limit) is sent as it is, with
/// `strict: false`. [`StrictMode::Off`] always sends the schema as it is, with `strict: false`,
/// and passes the arguments on untouched.
///
/// Set it for a whole registry with [`ToolRegistry::with_strict`](crate::ToolRegistry::with_strict)
/// or for one tool with [`ToolRegistry::with_tool_strict`](crate::ToolRegistry::with_tool_strict).
///
/// ```
/// use tool_core::provider::Api;
/// use tool_core::{tool, tools, StrictMode};
///
/// /// Lists files.
/// #[tool]
/// fn list_files(
///     /// Where the previous page ended.
///     #[arg(default = String::new())]
///     cursor: String,
/// ) -> String { cursor }
///
/// let strict = tools![list_files];
/// let sent = strict.tool_list(Api::OpenAiChat).value()[0]["function"].clone();
/// assert_eq!(sent["strict"], true);
/// assert_eq!(sent["parameters"]["required"], serde_json::json!(["cursor"]));
/// assert_eq!(sent["parameters"]["properties"]["cursor"]["type"], serde_json::json!(["string", "null"]));
///
/// let plain = tools![list_files].with_strict(StrictMode::Off);
/// let sent = plain.tool_list(Api::OpenAiChat).value()[0]["function"].clone();
/// assert_eq!(sent["strict"], false);
/// assert!(sent["parameters"].get("required").is_none());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StrictMode {
    /// `strict: true` whenever the schema can be made strict without changing its meaning,
    /// else the schema as it is with `strict: false`.
    #[default]
    Auto,
    /// The schema as it is, with `strict: false`.
    Off,
}

impl StrictMode {
    fn is_auto(&self) -> bool {
        *self == StrictMode::Auto
    }
}

/// A tool as a model is told about it: name, description, the canonical JSON Schema of its
/// parameters, annotations, and (for tools that return structured data) the JSON Schema of
/// that data. Built once per tool by the registry and cached.
///
/// ```
/// use tool_core::{tool, tools};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry = tools![add];
/// let def = &registry.definitions()[0];
/// assert_eq!(def.name, "add");
/// assert_eq!(def.input_schema["required"], serde_json::json!(["a", "b"]));
/// ```
///
/// A definition written by hand (for a prompt, a test, a tool the registry does not hold):
///
/// ```
/// use tool_core::{ToolAnnotations, ToolDefinition};
///
/// let def = ToolDefinition::new("search", "Searches the web.", serde_json::json!({"type": "object"}))
///     .with_annotations(ToolAnnotations::NONE.with_read_only(true));
/// assert_eq!(def.annotations.read_only, Some(true));
/// ```
// Non-exhaustive so what providers learn about tools can be added; build one with `new`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The name the model calls the tool by.
    pub name: String,
    /// A human-readable display name (MCP's `title`, e.g. "Weather forecast"), for people
    /// choosing tools in a client's interface; models see `name` and `description`. Only
    /// the MCP server and client carry it; the other dialects leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, when to use it, and what it returns.
    pub description: String,
    /// The canonical JSON Schema of the arguments (`type: object` at the root).
    pub input_schema: Arc<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
    /// The JSON Schema of the response's `data` (an object schema, as MCP's `outputSchema`
    /// requires), when the tool declares one; see [`Tool::output_schema`](crate::Tool::output_schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Arc<Value>>,
    /// Icons a client may show for the tool (MCP's `icons`); only MCP carries them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Free-form metadata for clients (MCP's `_meta`); only MCP carries it.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Offered to the model only once a tool search has found it; see
    /// [`ToolDefinition::defer_loading`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) defer_loading: bool,
    /// The `ui://` resource of the tool's interactive view; see [`ToolDefinition::app`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) app: Option<String>,
    /// Who may call the tool; see [`ToolDefinition::allowed_callers`].
    #[serde(default, skip_serializing_if = "is_direct_only")]
    pub(crate) allowed_callers: AllowedCallers,
    /// Whether an MCP client may run the tool as a task; see [`ToolDefinition::task_support`].
    #[serde(default, skip_serializing_if = "is_forbidden")]
    pub(crate) task_support: TaskSupport,
    /// The namespace the tool belongs to, if any; see [`ToolDefinition::namespace`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) namespace: Option<Arc<ToolNamespace>>,
    /// Whether OpenAI gets the tool with `strict: true`; set by the registry's settings.
    #[serde(default, skip_serializing_if = "StrictMode::is_auto")]
    pub(crate) strict: StrictMode,
}

fn is_forbidden(support: &TaskSupport) -> bool {
    *support == TaskSupport::Forbidden
}

fn is_direct_only(allowed: &AllowedCallers) -> bool {
    *allowed == AllowedCallers::Direct
}

impl ToolDefinition {
    /// A definition with a name, a description and the JSON Schema of its arguments (an
    /// object schema); no title, no annotations, no output schema.
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("add", "Adds two integers.", serde_json::json!({"type": "object"}));
    /// assert_eq!((def.name.as_str(), def.title.is_none()), ("add", true));
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: impl Into<Arc<Value>>,
    ) -> Self {
        ToolDefinition {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema: input_schema.into(),
            annotations: ToolAnnotations::NONE,
            output_schema: None,
            icons: Vec::new(),
            meta: None,
            defer_loading: false,
            app: None,
            allowed_callers: AllowedCallers::Direct,
            task_support: TaskSupport::Forbidden,
            namespace: None,
            strict: StrictMode::Auto,
        }
    }

    /// Sets the human-readable display name.
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("get_weather", "Gets the weather.", serde_json::json!({"type": "object"}))
    ///     .with_title("Weather forecast");
    /// assert_eq!(def.title.as_deref(), Some("Weather forecast"));
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the behaviour hints.
    ///
    /// ```
    /// use tool_core::{ToolAnnotations, ToolDefinition};
    /// let def = ToolDefinition::new("rm", "Deletes a file.", serde_json::json!({"type": "object"}))
    ///     .with_annotations(ToolAnnotations::NONE.with_destructive(true));
    /// assert_eq!(def.annotations.destructive, Some(true));
    /// ```
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Sets the JSON Schema of the response's `data` (an object schema).
    ///
    /// ```
    /// use serde_json::json;
    /// let def = tool_core::ToolDefinition::new("stats", "Counts words.", json!({"type": "object"}))
    ///     .with_output_schema(json!({"type": "object", "properties": {"words": {"type": "integer"}}}));
    /// assert_eq!(def.output_schema.unwrap()["type"], "object");
    /// ```
    pub fn with_output_schema(mut self, output_schema: impl Into<Arc<Value>>) -> Self {
        self.output_schema = Some(output_schema.into());
        self
    }

    /// Sets the icons a client may show for the tool.
    ///
    /// ```
    /// use tool_core::{Icon, ToolDefinition};
    /// let def = ToolDefinition::new("forecast", "Gets the forecast.", serde_json::json!({"type": "object"}))
    ///     .with_icons([Icon::new("https://example.com/sun.png").with_mime_type("image/png")]);
    /// assert_eq!(def.icons[0].src, "https://example.com/sun.png");
    /// ```
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Sets the `_meta` object clients receive with the tool.
    ///
    /// ```
    /// use serde_json::json;
    /// let meta = json!({"com.example/team": "search"}).as_object().cloned().unwrap();
    /// let def = tool_core::ToolDefinition::new("search", "Searches.", json!({"type": "object"}))
    ///     .with_meta(meta);
    /// assert_eq!(def.meta.unwrap()["com.example/team"], "search");
    /// ```
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Gives the tool an interactive view: the `ui://` resource an MCP host renders beside
    /// its result (the MCP Apps extension); see [`Tool::app`](crate::Tool::app). The MCP
    /// server lists the tool with `_meta.ui.resourceUri`; the other APIs leave it out.
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("weather_dashboard", "Shows the weather.", serde_json::json!({"type": "object"}))
    ///     .with_app("ui://weather/dashboard");
    /// assert_eq!(def.app(), Some("ui://weather/dashboard"));
    /// let listed = tool_core::provider::mcp::tools(&[def]);
    /// assert_eq!(listed["tools"][0]["_meta"]["ui"]["resourceUri"], "ui://weather/dashboard");
    /// ```
    pub fn with_app(mut self, resource_uri: impl Into<String>) -> Self {
        self.app = Some(resource_uri.into());
        self
    }

    /// The `ui://` resource of the tool's interactive view, if it has one (set by
    /// `#[tool(app = "ui://..")]` or [`ToolDefinition::with_app`]).
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("add", "Adds.", serde_json::json!({"type": "object"}));
    /// assert_eq!(def.app(), None);
    /// ```
    pub fn app(&self) -> Option<&str> {
        self.app.as_deref()
    }

    /// Marks the tool deferred (or not): it stays out of the tools sent to the model until
    /// a tool search finds it, so a large catalogue costs few tokens per request.
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("export_pdf", "Exports a PDF.", serde_json::json!({"type": "object"}))
    ///     .with_defer_loading(true);
    /// assert!(def.defer_loading());
    /// ```
    pub fn with_defer_loading(mut self, defer_loading: bool) -> Self {
        self.defer_loading = defer_loading;
        self
    }

    /// Whether the tool is deferred: offered to the model only once a tool search has found
    /// it. Set by `#[tool(defer_loading)]`, [`ToolDefinition::with_defer_loading`] or
    /// [`ToolRegistry::defer_loading_all`](crate::ToolRegistry::defer_loading_all).
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Exports the report as a PDF.
    /// #[tool(defer_loading)]
    /// fn export_pdf(title: String) -> String { title }
    ///
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    ///
    /// let registry = tools![hi, export_pdf];
    /// assert!(!registry.definition("hi").unwrap().defer_loading());
    /// assert!(registry.definition("export_pdf").unwrap().defer_loading());
    /// ```
    pub fn defer_loading(&self) -> bool {
        self.defer_loading
    }

    /// Sets who may call the tool: the model directly (the default), programs the model
    /// writes (a provider's code execution), or both.
    ///
    /// ```
    /// use tool_core::{AllowedCallers, ToolDefinition};
    /// let def = ToolDefinition::new("roll_die", "Rolls a die.", serde_json::json!({"type": "object"}))
    ///     .with_allowed_callers(AllowedCallers::Any);
    /// assert_eq!(def.allowed_callers(), AllowedCallers::Any);
    /// ```
    pub fn with_allowed_callers(mut self, allowed_callers: AllowedCallers) -> Self {
        self.allowed_callers = allowed_callers;
        self
    }

    /// Who may call the tool. A call from a program to a tool that allows only direct calls
    /// is refused (`PERMISSION_DENIED`), never run. Set by
    /// [`ToolDefinition::with_allowed_callers`] or [`Tool::allowed_callers`](crate::Tool::allowed_callers).
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("f", "F.", serde_json::json!({"type": "object"}));
    /// assert_eq!(def.allowed_callers(), tool_core::AllowedCallers::Direct);
    /// ```
    pub fn allowed_callers(&self) -> AllowedCallers {
        self.allowed_callers
    }

    /// Sets whether an MCP client may run the tool as a task (see [`TaskSupport`]), as
    /// `#[tool(task)]` does for a function.
    ///
    /// ```
    /// use tool_core::{TaskSupport, ToolDefinition, ToolFn};
    /// let def = ToolDefinition::new("export", "Exports everything.", serde_json::json!({"type": "object"}))
    ///     .with_task_support(TaskSupport::Optional);
    /// let tool = ToolFn::sync(def, |_: serde_json::Value, _| "done");
    /// assert_eq!(tool.definition().task_support(), TaskSupport::Optional);
    /// ```
    pub fn with_task_support(mut self, task_support: TaskSupport) -> Self {
        self.task_support = task_support;
        self
    }

    /// Whether an MCP client may run the tool as a task; [`TaskSupport::Forbidden`] unless
    /// set by [`ToolDefinition::with_task_support`] or [`Tool::task_support`](crate::Tool::task_support).
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("f", "F.", serde_json::json!({"type": "object"}));
    /// assert_eq!(def.task_support(), tool_core::TaskSupport::Forbidden);
    /// ```
    pub fn task_support(&self) -> TaskSupport {
        self.task_support
    }
}

impl ToolDefinition {
    /// Puts the tool in `namespace`: its name becomes `namespace__name` (unless it already
    /// is), the name the registry and the APIs without namespaces use; OpenAI Responses
    /// groups it under the namespace with its own name. See [`ToolNamespace`].
    ///
    /// ```
    /// use tool_core::{ToolDefinition, ToolNamespace};
    /// let def = ToolDefinition::new("find_account", "Finds an account.", serde_json::json!({"type": "object"}))
    ///     .with_namespace(ToolNamespace::new("crm", "Customer records."));
    /// assert_eq!(def.name, "crm__find_account");
    /// assert_eq!(def.namespace().map(|ns| ns.name.as_str()), Some("crm"));
    /// ```
    pub fn with_namespace(mut self, namespace: ToolNamespace) -> Self {
        if namespace.unqualify(&self.name).is_none() {
            self.name = namespace.qualify(&self.name);
        }
        self.namespace = Some(Arc::new(namespace));
        self
    }

    /// The namespace the tool belongs to, if any (its name is then `namespace__tool`).
    ///
    /// ```
    /// let def = tool_core::ToolDefinition::new("f", "Does f.", serde_json::json!({"type": "object"}));
    /// assert!(def.namespace().is_none());
    /// ```
    pub fn namespace(&self) -> Option<&ToolNamespace> {
        self.namespace.as_deref()
    }

    /// The name the model sees inside the tool's namespace (the name itself when it has
    /// none).
    ///
    /// ```
    /// use tool_core::{ToolDefinition, ToolNamespace};
    /// let def = ToolDefinition::new("find", "Finds.", serde_json::json!({"type": "object"}))
    ///     .with_namespace(ToolNamespace::new("crm", "Customer records."));
    /// assert_eq!(def.local_name(), "find");
    /// ```
    pub fn local_name(&self) -> &str {
        self.namespace
            .as_ref()
            .and_then(|ns| ns.unqualify(&self.name))
            .unwrap_or(&self.name)
    }
}
