//! Prompts: message templates a client offers its user. `#[prompt]` implements [`Prompt`]
//! for a function whose parameters are the prompt's arguments.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use super::CatalogError;
use crate::metadata::{Icon, Meta};
pub use crate::prompt_message::{PromptMessage, Role};

/// What rendering a prompt yields.
pub type PromptFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Vec<PromptMessage>, CatalogError>> + Send + 'a>>;

/// The arguments a client sent, by name.
pub type PromptArguments = BTreeMap<String, String>;

/// A prompt: a name, a description, arguments, and the messages they render to.
///
/// ```
/// use tool_core::catalog::{Catalog, Prompt, PromptArguments, Role};
/// use tool_core::prompt;
///
/// /// Plans a trip.
/// #[prompt]
/// fn plan_trip(
///     /// Where to go.
///     city: String,
///     /// How many days (default 3).
///     days: Option<u32>,
/// ) -> String {
///     format!("Plan {} days in {city}.", days.unwrap_or(3))
/// }
///
/// let info = plan_trip {}.info();
/// assert_eq!(info.arguments[1].name, "days");
/// assert!(!info.arguments[1].required);
///
/// let catalog = Catalog::new().with_prompt(plan_trip {});
/// let mut args = PromptArguments::new();
/// args.insert("city".into(), "Lisbon".into());
/// let messages = tool_core::block_on(catalog.render("plan_trip", &args)).unwrap();
/// assert_eq!(messages[0].role, Role::User);
/// assert_eq!(messages[0].text, "Plan 3 days in Lisbon.");
/// ```
pub trait Prompt: Send + Sync + 'static {
    /// The prompt's name, description and arguments.
    fn info(&self) -> &PromptInfo;

    /// Renders the prompt. Arguments the prompt does not declare and missing required ones
    /// are rejected by [`Catalog::render`](super::Catalog::render) before this is called.
    fn render<'a>(&'a self, arguments: &'a PromptArguments) -> PromptFuture<'a>;

    /// Renders the prompt for a request that comes with a context: over MCP, the client that
    /// asked, so the function can `sample`, `elicit` or ask for `roots` through a
    /// [`ToolContext`](crate::ToolContext) parameter. By default the context is not used.
    fn render_in<'a>(
        &'a self,
        arguments: &'a PromptArguments,
        ctx: &'a crate::CallContext,
    ) -> PromptFuture<'a> {
        let _ = ctx;
        self.render(arguments)
    }
}

/// How a prompt is listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptInfo {
    /// The name clients ask for.
    pub name: String,
    /// A display name.
    pub title: Option<String>,
    /// What the prompt is for (the doc comment).
    pub description: String,
    /// Its arguments, in parameter order.
    pub arguments: Vec<PromptArgumentInfo>,
    /// Icons a client may show for it.
    pub icons: Vec<Icon>,
    /// The `_meta` object clients receive with it.
    pub meta: Option<Meta>,
}

impl PromptInfo {
    /// A prompt description with no title, arguments, icons or `_meta`.
    ///
    /// ```
    /// let info = tool_core::catalog::PromptInfo::new("review", "Reviews a change.");
    /// assert!(info.arguments.is_empty());
    /// ```
    pub fn new(name: &str, description: &str) -> PromptInfo {
        PromptInfo {
            name: name.to_owned(),
            title: None,
            description: description.to_owned(),
            arguments: Vec::new(),
            icons: Vec::new(),
            meta: None,
        }
    }

    /// Sets the icons a client may show (`#[prompt(icon = "..")]` does it for a function).
    ///
    /// ```
    /// use tool_core::{catalog::PromptInfo, Icon};
    /// let info = PromptInfo::new("review", "Reviews a change.")
    ///     .with_icons([Icon::new("https://example.com/review.png")]);
    /// assert_eq!(info.icons.len(), 1);
    /// ```
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Sets the `_meta` object (`#[prompt(meta(key = "value"))]` does it for a function).
    ///
    /// ```
    /// use tool_core::catalog::PromptInfo;
    /// let meta = serde_json::json!({"audience": "engineers"}).as_object().cloned().unwrap();
    /// let info = PromptInfo::new("review", "Reviews a change.").with_meta(meta);
    /// assert_eq!(info.meta.unwrap()["audience"], "engineers");
    /// ```
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgumentInfo {
    /// The argument's name.
    pub name: String,
    /// What to pass (the parameter's doc comment).
    pub description: Option<String>,
    /// Whether it must be given (`Option` parameters need not).
    pub required: bool,
}

/// A return type of a `#[prompt]` function: a `String` or `&str` (one user message), a
/// [`PromptMessage`], a `Vec` of them, or a `Result` of any of these whose error becomes
/// [`CatalogError::Failed`].
pub trait IntoPromptMessages {
    /// Converts the value.
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError>;
}

impl IntoPromptMessages for String {
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for &str {
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for PromptMessage {
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError> {
        Ok(vec![self])
    }
}

impl IntoPromptMessages for Vec<PromptMessage> {
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError> {
        Ok(self)
    }
}

impl<T: IntoPromptMessages, E: std::fmt::Display> IntoPromptMessages for Result<T, E> {
    fn into_messages(self) -> Result<Vec<PromptMessage>, CatalogError> {
        match self {
            Ok(value) => value.into_messages(),
            Err(e) => Err(CatalogError::Failed {
                message: e.to_string(),
            }),
        }
    }
}
