//! The [`Tool`] trait that `#[tool]` implements, and the future a call returns.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::context::ToolContext;
use crate::definition::ToolAnnotations;
use crate::metadata::{Icon, Meta};
use crate::response::{ToolErrorCode, ToolResponse};

/// A callable tool. `#[tool]` implements it; for a tool defined at run time (a definition and
/// a closure), [`ToolFn`](crate::ToolFn) does; implement it by hand for anything else.
///
/// The registry caches what [`Tool::input_schema`] returns, so it may build the schema afresh.
///
/// ```
/// use tool_core::{CallFuture, Tool, ToolContext, ToolResponse};
/// use serde_json::{json, Value};
///
/// struct Echo;
/// impl Tool for Echo {
///     fn name(&self) -> &str { "echo" }
///     fn description(&self) -> &str { "Repeats the arguments back." }
///     fn input_schema(&self) -> Value { json!({"type": "object", "properties": {}}) }
///     fn call<'a>(&'a self, arguments: &'a str, _ctx: ToolContext<'a>) -> CallFuture<'a> {
///         CallFuture::ready(ToolResponse::success(arguments))
///     }
/// }
///
/// let registry = tool_core::ToolRegistry::new().with(Echo);
/// let reply = registry.call_blocking(&tool_core::ToolCall::new("1", "echo", "{}"));
/// assert_eq!(reply.text, "{}");
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// A human-readable display name (MCP's `title`); none by default. `#[tool(title = "..")]`
    /// sets it.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Tomorrow's forecast for a city.
    /// #[tool(title = "Weather forecast")]
    /// fn forecast(city: String) -> String { city }
    ///
    /// let registry = tools![forecast];
    /// assert_eq!(registry.definitions()[0].title.as_deref(), Some("Weather forecast"));
    /// ```
    fn title(&self) -> Option<&str> {
        None
    }

    /// Behaviour hints; none by default.
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::NONE
    }

    /// Icons a client may show for the tool (MCP's `icons`); none by default.
    /// `#[tool(icon = "..")]` or `#[tool(icon(src = "..", mime_type = "..", sizes = ".."))]`
    /// sets them.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Tomorrow's forecast for a city.
    /// #[tool(icon(src = "https://example.com/sun.png", mime_type = "image/png", sizes = "48x48"))]
    /// fn forecast(city: String) -> String { city }
    ///
    /// let registry = tools![forecast];
    /// assert_eq!(registry.definitions()[0].icons[0].sizes, ["48x48"]);
    /// ```
    fn icons(&self) -> Vec<Icon> {
        Vec::new()
    }

    /// The `_meta` object clients receive with the tool; none by default.
    /// `#[tool(meta(key = "value", "com.example/level" = 3))]` sets it.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Tomorrow's forecast for a city.
    /// #[tool(meta("com.example/team" = "weather", beta = true))]
    /// fn forecast(city: String) -> String { city }
    ///
    /// let meta = tools![forecast].definitions()[0].meta.clone().unwrap();
    /// assert_eq!((meta["com.example/team"].as_str(), meta["beta"].as_bool()), (Some("weather"), Some(true)));
    /// ```
    fn meta(&self) -> Option<Meta> {
        None
    }

    /// The `ui://` resource holding the tool's interactive view (the MCP Apps extension),
    /// if it has one; none by default. `#[tool(app = "ui://..")]` sets it. An MCP server
    /// lists the tool with `_meta.ui.resourceUri` naming it, and a host that renders apps
    /// shows that view beside the chat; the tool's result must still make sense as text,
    /// for hosts that do not. The catalog serves the view (see
    /// [`ResourceInfo::with_app_view`](crate::catalog::ResourceInfo::with_app_view)).
    ///
    /// ```
    /// use tool_core::{tool, tools};
    ///
    /// /// Shows the weather of a city on a dashboard.
    /// #[tool(app = "ui://weather/dashboard")]
    /// fn weather_dashboard(city: String) -> String { format!("Sunny in {city}") }
    ///
    /// let registry = tools![weather_dashboard];
    /// assert_eq!(registry.definitions()[0].app(), Some("ui://weather/dashboard"));
    /// ```
    fn app(&self) -> Option<&str> {
        None
    }

    /// A per-tool time limit in milliseconds, if the tool declares one.
    fn timeout_ms(&self) -> Option<u64> {
        None
    }

    /// Whether the tool is offered to the model only once a tool search has found it
    /// (`#[tool(defer_loading)]`); not deferred by default. The registry copies it into the
    /// tool's [`ToolDefinition::defer_loading`](crate::ToolDefinition::defer_loading).
    ///
    /// ```
    /// use tool_core::{tool, Tool};
    ///
    /// /// Exports the report as a PDF.
    /// #[tool(defer_loading)]
    /// fn export_pdf(title: String) -> String { title }
    ///
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    ///
    /// assert!(export_pdf {}.defer_loading());
    /// assert!(!hi {}.defer_loading());
    /// ```
    fn defer_loading(&self) -> bool {
        false
    }

    /// Whether an MCP client may run the tool as a task (`#[tool(task)]`,
    /// `#[tool(task = "required")]`); never by default. The registry copies it into the
    /// tool's [`ToolDefinition::task_support`](crate::ToolDefinition::task_support); see
    /// [`TaskSupport`](crate::TaskSupport).
    ///
    /// ```
    /// use tool_core::{tool, TaskSupport, Tool};
    ///
    /// /// Counts slowly.
    /// #[tool(task)]
    /// fn count(n: u32) -> String { format!("counted to {n}") }
    ///
    /// assert_eq!(count {}.task_support(), TaskSupport::Optional);
    /// ```
    fn task_support(&self) -> crate::TaskSupport {
        crate::TaskSupport::Forbidden
    }

    /// Who may call the tool: by default only the model directly; a tool that code the model
    /// writes may call (a provider's code execution) says so here. The registry copies it
    /// into the tool's [`ToolDefinition::allowed_callers`](crate::ToolDefinition::allowed_callers),
    /// and refuses a program's call to a tool that allows only direct calls.
    ///
    /// `#[tool(allowed_callers = "program")]` (or `"any"`) declares it on a function.
    ///
    /// ```
    /// use tool_core::{tool, tools, AllowedCallers, Tool};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// /// Reads one row of the sales table.
    /// #[tool(allowed_callers = "program")]
    /// fn read_row(id: u32) -> String { format!("row {id}") }
    /// assert_eq!(hi {}.allowed_callers(), AllowedCallers::Direct);
    /// assert_eq!(read_row {}.allowed_callers(), AllowedCallers::Program);
    /// assert_eq!(tools![read_row].definitions()[0].allowed_callers(), AllowedCallers::Program);
    /// ```
    fn allowed_callers(&self) -> crate::AllowedCallers {
        crate::AllowedCallers::Direct
    }

    /// The canonical JSON Schema of the arguments.
    fn input_schema(&self) -> Value;

    /// The JSON Schema of the structured result (the response's `data`), if the tool has one.
    /// `#[tool]` fills it for functions returning `Json<T>` or `Result<Json<T>, E>` when `T`
    /// derives `JsonSchema` (e.g. through `#[tool_type]`) and is an object; override it to
    /// declare one by hand. MCP requires an object schema (`"type": "object"` at the root),
    /// and servers then send `data` as `structuredContent`. Cached by the registry.
    ///
    /// ```
    /// use tool_core::{tool, tool_type, tools, Json};
    ///
    /// #[tool_type]
    /// struct Sum { total: i64 }
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> Json<Sum> { Json(Sum { total: a + b }) }
    ///
    /// let registry = tools![add];
    /// let schema = registry.definitions()[0].output_schema.as_deref().unwrap();
    /// assert_eq!(schema["type"], "object");
    /// assert_eq!(schema["required"], serde_json::json!(["total"]));
    /// ```
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// Runs the tool on raw JSON arguments. Never panics on bad arguments: a decoding failure
    /// is an `INVALID_PARAM` or `INVALID_FORMAT` response.
    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a>;
}

/// The future of one tool call. Synchronous tools complete without allocating a future.
///
/// ```
/// let f = tool_core::CallFuture::ready(tool_core::ToolResponse::success("ok"));
/// assert!(f.is_ready());
/// ```
pub struct CallFuture<'a>(Inner<'a>);

enum Inner<'a> {
    Ready(Option<ToolResponse>),
    Boxed(BoxedCall<'a>),
}

impl<'a> CallFuture<'a> {
    /// An already-computed response.
    ///
    /// ```
    /// let future = tool_core::CallFuture::ready(tool_core::ToolResponse::success("ok"));
    /// assert!(future.is_ready());
    /// assert_eq!(tool_core::block_on(future).model_text(), "ok");
    /// ```
    pub fn ready(response: ToolResponse) -> Self {
        CallFuture(Inner::Ready(Some(response)))
    }

    /// A response still being computed.
    ///
    /// ```
    /// let f = tool_core::CallFuture::new(async { tool_core::ToolResponse::success("later") });
    /// assert!(!f.is_ready());
    /// ```
    pub fn new(future: impl Future<Output = ToolResponse> + Send + 'a) -> Self {
        CallFuture(Inner::Boxed(Box::pin(future)))
    }

    /// Whether the response is already there (a synchronous tool, or a decoding error).
    ///
    /// ```
    /// use tool_core::{CallFuture, ToolResponse};
    /// assert!(CallFuture::ready(ToolResponse::success("now")).is_ready());
    /// assert!(!CallFuture::new(async { ToolResponse::success("later") }).is_ready());
    /// ```
    pub fn is_ready(&self) -> bool {
        matches!(self.0, Inner::Ready(Some(_)))
    }

    /// The response, when it is already there, to finish in place.
    #[inline]
    pub(crate) fn ready_mut(&mut self) -> Option<&mut ToolResponse> {
        match &mut self.0 {
            Inner::Ready(response) => response.as_mut(),
            Inner::Boxed(_) => None,
        }
    }

    /// The response when it is already there, else the future computing it. The dispatcher
    /// keeps only the latter across an await, so its own future stays small.
    #[inline]
    pub(crate) fn into_parts(self) -> Result<ToolResponse, BoxedCall<'a>> {
        match self.0 {
            Inner::Ready(Some(response)) => Ok(response),
            Inner::Ready(None) => Ok(polled_after_completion()),
            Inner::Boxed(future) => Err(future),
        }
    }
}

/// A tool call still being computed.
pub(crate) type BoxedCall<'a> = Pin<Box<dyn Future<Output = ToolResponse> + Send + 'a>>;

fn polled_after_completion() -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::Unknown,
        "internal: a tool call future was polled after it completed",
    )
}

impl Future for CallFuture<'_> {
    type Output = ToolResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResponse> {
        match &mut self.get_mut().0 {
            Inner::Ready(slot) => Poll::Ready(slot.take().unwrap_or_else(polled_after_completion)),
            Inner::Boxed(future) => future.as_mut().poll(cx),
        }
    }
}

/// A set of tools bound to one shared instance: what `#[toolbox]` implements for an `impl` block.
/// Register it with [`ToolRegistry::register_all`](crate::ToolRegistry::register_all).
///
/// ```
/// use std::sync::Arc;
/// use tool_core::{toolbox, ToolSet};
///
/// struct Greeter { greeting: String }
///
/// #[toolbox]
/// impl Greeter {
///     /// Greets someone.
///     #[tool]
///     fn greet(&self, name: String) -> String {
///         format!("{}, {name}!", self.greeting)
///     }
/// }
///
/// let tools = Greeter::tools(Arc::new(Greeter { greeting: "Hello".into() }));
/// assert_eq!(tools[0].name(), "greet");
/// ```
pub trait ToolSet: Send + Sync + 'static {
    /// One tool per `#[tool]` method, each holding a clone of `this`.
    fn tools(this: Arc<Self>) -> Vec<Arc<dyn Tool>>;
}
