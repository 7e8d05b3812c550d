//! Tools written as structs: `#[derive(Tool)]`. The struct's fields are the parameters, its
//! doc comment the description, and [`ToolHandler`] the body — or no body at all for a
//! side-channel tool that only carries its arguments to the UI as an event.

use std::future::Future;
use std::marker::PhantomData;

use serde_json::Value;

use crate::context::ToolContext;
use crate::definition::ToolAnnotations;
use crate::into_response::IntoToolResponse;
use crate::metadata::{Icon, Meta};
use crate::tool::{CallFuture, Tool};

/// What `#[derive(Tool)]` implements: the static facts of a struct tool and how to run it.
/// Register the tool as [`ToolOf<T>`] (or list `T` in `tools![..]`).
///
/// ```
/// use tool_core::{StructTool, Tool, ToolContext, ToolHandler};
///
/// /// Doubles a number.
/// #[derive(Tool)]
/// struct Double { n: i64 }
///
/// impl ToolHandler for Double {
///     type Output = i64;
///     async fn run(self, _ctx: ToolContext<'_>) -> i64 { self.n * 2 }
/// }
///
/// assert_eq!((Double::NAME, Double::DESCRIPTION), ("double", "Doubles a number."));
/// assert_eq!(Double::input_schema()["properties"]["n"]["type"], "integer");
/// ```
pub trait StructTool: Send + Sync + 'static {
    /// The tool's name.
    const NAME: &'static str;
    /// The tool's description.
    const DESCRIPTION: &'static str;
    /// The human-readable display name, if declared (see [`Tool::title`]).
    ///
    /// ```
    /// use tool_core::{tools, StructTool};
    ///
    /// /// Shows a chart.
    /// #[derive(tool_core::Tool)]
    /// #[tool_def(title = "Chart", event = "chart")]
    /// struct ShowChart { series: Vec<f64> }
    ///
    /// assert_eq!(ShowChart::TITLE, Some("Chart"));
    /// assert_eq!(tools![ShowChart].definitions()[0].title.as_deref(), Some("Chart"));
    /// ```
    const TITLE: Option<&'static str> = None;
    /// Behaviour hints.
    const ANNOTATIONS: ToolAnnotations;
    /// A per-tool time limit, if declared.
    const TIMEOUT_MS: Option<u64>;
    /// Whether the tool is offered only once a tool search has found it
    /// (`#[tool_def(defer_loading)]`; see [`Tool::defer_loading`]).
    ///
    /// ```
    /// use tool_core::{tools, StructTool};
    ///
    /// /// Exports a report as PDF.
    /// #[derive(tool_core::Tool)]
    /// #[tool_def(defer_loading, event = "export")]
    /// struct ExportPdf { title: String }
    ///
    /// assert!(ExportPdf::DEFER_LOADING);
    /// assert!(tools![ExportPdf].definitions()[0].defer_loading());
    /// ```
    const DEFER_LOADING: bool = false;
    /// The `ui://` resource of the tool's interactive view (`#[tool_def(app = "ui://..")]`;
    /// see [`Tool::app`]).
    ///
    /// ```
    /// use tool_core::{tools, StructTool};
    ///
    /// /// Shows a chart.
    /// #[derive(tool_core::Tool)]
    /// #[tool_def(app = "ui://charts/view", event = "chart")]
    /// struct ShowChart { series: Vec<f64> }
    ///
    /// assert_eq!(ShowChart::APP, Some("ui://charts/view"));
    /// assert_eq!(tools![ShowChart].definitions()[0].app(), Some("ui://charts/view"));
    /// ```
    const APP: Option<&'static str> = None;
    /// Who may call the tool (`#[tool_def(allowed_callers = "program")]`; see
    /// [`Tool::allowed_callers`]).
    ///
    /// ```
    /// use tool_core::{tools, AllowedCallers, StructTool};
    ///
    /// /// Reads one row of the sales table.
    /// #[derive(tool_core::Tool)]
    /// #[tool_def(allowed_callers = "program", event = "row")]
    /// struct ReadRow { id: u32 }
    ///
    /// assert_eq!(ReadRow::ALLOWED_CALLERS, AllowedCallers::Program);
    /// assert_eq!(tools![ReadRow].definitions()[0].allowed_callers(), AllowedCallers::Program);
    /// ```
    const ALLOWED_CALLERS: crate::AllowedCallers = crate::AllowedCallers::Direct;
    /// The canonical schema of the fields.
    fn input_schema() -> Value;
    /// Icons a client may show (see [`Tool::icons`]).
    fn icons() -> Vec<Icon> {
        Vec::new()
    }
    /// The `_meta` object clients receive (see [`Tool::meta`]).
    fn meta() -> Option<Meta> {
        None
    }
    /// The schema of the structured result, if any (see [`Tool::output_schema`]).
    fn output_schema() -> Option<Value> {
        None
    }
    /// Decodes the arguments into the struct and runs it.
    fn call<'a>(arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a>;
}

/// The body of a `#[derive(Tool)]` struct: the struct, decoded from the model's arguments, is
/// consumed by `run`.
///
/// ```
/// use tool_core::{tools, Tool, ToolCall, ToolContext, ToolHandler};
///
/// /// Reverses a word.
/// #[derive(Tool)]
/// struct Reverse {
///     /// The word to reverse.
///     word: String,
/// }
///
/// impl ToolHandler for Reverse {
///     type Output = String;
///     async fn run(self, _ctx: ToolContext<'_>) -> String {
///         self.word.chars().rev().collect()
///     }
/// }
///
/// let reply = tools![Reverse].call_blocking(&ToolCall::new("1", "reverse", r#"{"word":"abc"}"#));
/// assert_eq!(reply.model_text(), "cba");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` derives `Tool` but has no body: implement `ToolHandler` for it",
    note = "or mark it `#[tool_def(event = \"kind\")]` to make it a side-channel tool that sends its arguments to the UI"
)]
pub trait ToolHandler: Sized + Send + 'static {
    /// What the tool returns.
    type Output: IntoToolResponse;
    /// Runs the tool.
    fn run(self, ctx: ToolContext<'_>) -> impl Future<Output = Self::Output> + Send;
}

/// The registrable tool for a `#[derive(Tool)]` struct `T`.
///
/// ```
/// use tool_core::{Tool, ToolOf, ToolRegistry};
///
/// /// Shows cards to the user.
/// #[derive(Tool)]
/// #[tool_def(event = "cards")]
/// struct ShowCards {
///     titles: Vec<String>,
/// }
///
/// let registry = ToolRegistry::new().with(ToolOf::<ShowCards>::new());
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["show_cards"]);
/// ```
pub struct ToolOf<T>(PhantomData<fn() -> T>);

impl<T> ToolOf<T> {
    /// The tool value.
    ///
    /// ```
    /// use tool_core::{Tool, ToolOf};
    /// /// Shows a chart.
    /// #[derive(Tool)]
    /// #[tool_def(event = "chart")]
    /// struct ShowChart { series: Vec<f64> }
    /// let tool = ToolOf::<ShowChart>::new();
    /// assert_eq!(tool.name(), "show_chart");
    /// ```
    pub const fn new() -> Self {
        ToolOf(PhantomData)
    }
}

impl<T> Default for ToolOf<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: StructTool> Tool for ToolOf<T> {
    fn name(&self) -> &str {
        T::NAME
    }
    fn description(&self) -> &str {
        T::DESCRIPTION
    }
    fn title(&self) -> Option<&str> {
        T::TITLE
    }
    fn annotations(&self) -> ToolAnnotations {
        T::ANNOTATIONS
    }
    fn icons(&self) -> Vec<Icon> {
        T::icons()
    }
    fn meta(&self) -> Option<Meta> {
        T::meta()
    }
    fn timeout_ms(&self) -> Option<u64> {
        T::TIMEOUT_MS
    }
    fn defer_loading(&self) -> bool {
        T::DEFER_LOADING
    }
    fn app(&self) -> Option<&str> {
        T::APP
    }
    fn allowed_callers(&self) -> crate::AllowedCallers {
        T::ALLOWED_CALLERS
    }
    fn input_schema(&self) -> Value {
        T::input_schema()
    }
    fn output_schema(&self) -> Option<Value> {
        T::output_schema()
    }
    fn call<'a>(&'a self, arguments: &'a str, ctx: ToolContext<'a>) -> CallFuture<'a> {
        T::call(arguments, ctx)
    }
}
