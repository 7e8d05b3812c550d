//! Resources and prompts, declared like tools: `#[resource(uri = "..")]` and `#[prompt]` on
//! plain functions, gathered in a [`Catalog`] with [`resources!`](crate::resources) and
//! [`prompts!`](crate::prompts). A catalog works on its own (read a resource, render a prompt
//! into messages) and is what an MCP server offers beside its tools (feature `mcp`:
//! `McpServer::with_catalog`).
//!
//! ```
//! use tool_core::{prompt, prompts, resource, resources, Json};
//! use tool_core::catalog::PromptArguments;
//!
//! /// Current conditions for a city.
//! #[resource(uri = "weather://{city}/current")]
//! fn current(city: String) -> Json<(String, f32)> { Json((city, 21.5)) }
//!
//! /// Asks for a packing list.
//! #[prompt]
//! fn packing(
//!     /// Where to.
//!     city: String,
//! ) -> String { format!("What should I pack for {city}?") }
//!
//! let catalog = resources![current].merge(prompts![packing]);
//! let read = tool_core::block_on(catalog.read("weather://Oslo/current")).unwrap();
//! assert_eq!(read.text(), Some(r#"["Oslo",21.5]"#));
//! assert_eq!(read.mime_type.as_deref(), Some("application/json"));
//!
//! let args = PromptArguments::from([("city".to_string(), "Oslo".to_string())]);
//! let messages = tool_core::block_on(catalog.render("packing", &args)).unwrap();
//! assert_eq!(messages[0].text, "What should I pack for Oslo?");
//! ```

mod args;
mod prompt;
mod resource;
mod template;

use std::fmt;
use std::sync::Arc;

use crate::context::CallContext;

pub use args::ArgumentValue;
pub use prompt::{
    IntoPromptMessages, Prompt, PromptArgumentInfo, PromptArguments, PromptFuture, PromptInfo,
    PromptMessage, Role,
};
pub use resource::{
    Blob, IntoResourceContents, Resource, ResourceBody, ResourceContents, ResourceFuture,
    ResourceInfo, APP_MIME_TYPE,
};
pub use template::UriTemplate;

/// Why a resource could not be read, a prompt rendered or an argument completed. Over MCP,
/// `UnknownResource` is error `-32002`, `Failed` `-32603`, the rest invalid params (`-32602`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// No resource has this URI and no template matches it.
    UnknownResource {
        /// The URI asked for.
        uri: String,
    },
    /// No prompt has this name.
    UnknownPrompt {
        /// The name asked for.
        name: String,
        /// The prompts there are.
        known: Vec<String>,
    },
    /// A required argument (or template variable) was not given.
    MissingArgument {
        /// The argument's name.
        name: String,
    },
    /// An argument's value does not parse, or the prompt has no such argument.
    InvalidArgument {
        /// The argument's name.
        name: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// A URI template is malformed.
    InvalidTemplate {
        /// The template.
        template: String,
        /// What is wrong.
        message: String,
    },
    /// Two resources share a URI, or two prompts a name.
    Duplicate {
        /// The URI or name.
        key: String,
    },
    /// The resource or prompt function itself failed.
    Failed {
        /// Its error text.
        message: String,
    },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::UnknownResource { uri } => write!(
                f,
                "no resource at '{uri}': list resources and resource templates to see which URIs exist"
            ),
            CatalogError::UnknownPrompt { name, known } => write!(
                f,
                "no prompt named '{name}'; the prompts are: {}",
                if known.is_empty() { "(none)".to_owned() } else { known.join(", ") }
            ),
            CatalogError::MissingArgument { name } => {
                write!(f, "missing required argument '{name}'")
            }
            CatalogError::InvalidArgument { name, message } => {
                write!(f, "invalid argument '{name}': {message}")
            }
            CatalogError::InvalidTemplate { template, message } => {
                write!(f, "invalid URI template '{template}': {message}")
            }
            CatalogError::Duplicate { key } => write!(
                f,
                "'{key}' is registered twice: resource URIs and prompt names must be unique"
            ),
            CatalogError::Failed { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for CatalogError {}

/// Suggests values for a prompt argument or template variable from what the user typed so far.
pub(crate) type Completer = Arc<dyn Fn(&str) -> Vec<String> + Send + Sync>;

/// What a completer completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionTarget {
    /// An argument of the named prompt.
    Prompt(String),
    /// A variable of the resource template (as written).
    Template(String),
}

/// Resources, resource templates and prompts, in registration order.
///
/// Fixed-URI resources are looked up before templates; templates are tried in order, so put
/// the more specific one first.
#[derive(Clone, Default)]
pub struct Catalog {
    resources: Vec<Arc<dyn Resource>>,
    prompts: Vec<Arc<dyn Prompt>>,
    completers: Vec<(CompletionTarget, String, Completer)>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field(
                "resources",
                &self
                    .resources
                    .iter()
                    .map(|r| r.info().uri.as_str())
                    .collect::<Vec<_>>(),
            )
            .field(
                "prompts",
                &self
                    .prompts
                    .iter()
                    .map(|p| p.info().name.as_str())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Catalog {
        Catalog::default()
    }

    /// Adds a resource; panics if its URI is taken (a programming error, found the first time
    /// the catalog is built). [`Catalog::register_resource`] returns the error instead.
    #[track_caller]
    pub fn with_resource(mut self, resource: impl Resource) -> Self {
        if let Err(e) = self.register_resource(Arc::new(resource)) {
            panic!("{e}");
        }
        self
    }

    /// Adds a prompt; panics if its name is taken (see [`Catalog::register_prompt`]).
    #[track_caller]
    pub fn with_prompt(mut self, prompt: impl Prompt) -> Self {
        if let Err(e) = self.register_prompt(Arc::new(prompt)) {
            panic!("{e}");
        }
        self
    }

    /// Adds a resource unless its URI (or template) is taken.
    pub fn register_resource(&mut self, resource: Arc<dyn Resource>) -> Result<(), CatalogError> {
        let uri = resource.info().uri.as_str();
        if self.resources.iter().any(|r| r.info().uri.as_str() == uri) {
            return Err(CatalogError::Duplicate {
                key: uri.to_owned(),
            });
        }
        self.resources.push(resource);
        Ok(())
    }

    /// Adds a prompt unless its name is taken.
    pub fn register_prompt(&mut self, prompt: Arc<dyn Prompt>) -> Result<(), CatalogError> {
        let name = &prompt.info().name;
        if self.prompts.iter().any(|p| &p.info().name == name) {
            return Err(CatalogError::Duplicate { key: name.clone() });
        }
        self.prompts.push(prompt);
        Ok(())
    }

    /// Removes the resource with this URI (or template); whether there was one.
    pub fn remove_resource(&mut self, uri: &str) -> bool {
        let before = self.resources.len();
        self.resources.retain(|r| r.info().uri.as_str() != uri);
        before != self.resources.len()
    }

    /// Removes the prompt with this name; whether there was one.
    pub fn remove_prompt(&mut self, name: &str) -> bool {
        let before = self.prompts.len();
        self.prompts.retain(|p| p.info().name != name);
        before != self.prompts.len()
    }

    /// Both catalogs' entries; panics on a URI or name in both.
    #[track_caller]
    pub fn merge(mut self, other: Catalog) -> Self {
        for resource in other.resources {
            if let Err(e) = self.register_resource(resource) {
                panic!("{e}");
            }
        }
        for prompt in other.prompts {
            if let Err(e) = self.register_prompt(prompt) {
                panic!("{e}");
            }
        }
        self.completers.extend(other.completers);
        self
    }

    /// Attaches a completer for `argument` of `target` (a prompt argument or a template
    /// variable), used by [`Catalog::complete`] and MCP's `completion/complete`.
    ///
    /// ```
    /// use tool_core::catalog::{Catalog, CompletionTarget};
    /// let catalog = Catalog::new().with_completer(
    ///     CompletionTarget::Prompt("plan_trip".into()),
    ///     "city",
    ///     |typed: &str| ["Lisbon", "London", "Oslo"].iter()
    ///         .filter(|c| c.to_lowercase().starts_with(&typed.to_lowercase()))
    ///         .map(|c| c.to_string()).collect(),
    /// );
    /// let target = CompletionTarget::Prompt("plan_trip".into());
    /// assert_eq!(catalog.complete(&target, "city", "l"), ["Lisbon", "London"]);
    /// ```
    pub fn with_completer(
        mut self,
        target: CompletionTarget,
        argument: &str,
        completer: impl Fn(&str) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.completers
            .push((target, argument.to_owned(), Arc::new(completer)));
        self
    }

    /// Suggestions for `argument` of `target` given the `typed` prefix; none when no completer
    /// is attached.
    pub fn complete(&self, target: &CompletionTarget, argument: &str, typed: &str) -> Vec<String> {
        self.completers
            .iter()
            .find(|(t, a, _)| t == target && a == argument)
            .map(|(_, _, completer)| completer(typed))
            .unwrap_or_default()
    }

    /// Every resource and template, in order.
    pub fn resources(&self) -> impl Iterator<Item = &ResourceInfo> {
        self.resources.iter().map(|r| r.info())
    }

    /// Fixed-URI resources, in order.
    pub fn fixed_resources(&self) -> impl Iterator<Item = &ResourceInfo> {
        self.resources().filter(|r| !r.uri.is_template())
    }

    /// Resource templates, in order.
    pub fn templates(&self) -> impl Iterator<Item = &ResourceInfo> {
        self.resources().filter(|r| r.uri.is_template())
    }

    /// Every prompt, in order.
    pub fn prompts(&self) -> impl Iterator<Item = &PromptInfo> {
        self.prompts.iter().map(|p| p.info())
    }

    /// The prompt with this name.
    pub fn prompt(&self, name: &str) -> Option<&PromptInfo> {
        self.prompts().find(|p| p.name == name)
    }

    /// Whether the catalog has neither resources nor prompts.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.prompts.is_empty()
    }

    /// Reads the resource at `uri`: the fixed resource with that URI, else the first template
    /// that matches it.
    pub async fn read(&self, uri: &str) -> Result<ResourceContents, CatalogError> {
        self.read_in(uri, &CallContext::new()).await
    }

    /// Reads the resource at `uri` with a context for its function (see
    /// [`Resource::read_in`]); what an MCP server does, with the client as the peer.
    pub async fn read_in(
        &self,
        uri: &str,
        ctx: &CallContext,
    ) -> Result<ResourceContents, CatalogError> {
        if let Some(fixed) = self
            .resources
            .iter()
            .find(|r| !r.info().uri.is_template() && r.info().uri.as_str() == uri)
        {
            return fixed.read_in(uri, &[], ctx).await;
        }
        for resource in &self.resources {
            if !resource.info().uri.is_template() {
                continue;
            }
            if let Some(vars) = resource.info().uri.match_uri(uri) {
                return resource.read_in(uri, &vars, ctx).await;
            }
        }
        Err(CatalogError::UnknownResource {
            uri: uri.to_owned(),
        })
    }

    /// Renders the prompt `name`. Missing required arguments, unknown arguments and values
    /// that do not parse are errors, checked before the prompt runs.
    pub async fn render(
        &self,
        name: &str,
        arguments: &PromptArguments,
    ) -> Result<Vec<PromptMessage>, CatalogError> {
        self.render_in(name, arguments, &CallContext::new()).await
    }

    /// Renders the prompt `name` with a context for its function (see [`Prompt::render_in`]);
    /// what an MCP server does, with the client as the peer.
    pub async fn render_in(
        &self,
        name: &str,
        arguments: &PromptArguments,
        ctx: &CallContext,
    ) -> Result<Vec<PromptMessage>, CatalogError> {
        let Some(prompt) = self.prompts.iter().find(|p| p.info().name == name) else {
            return Err(CatalogError::UnknownPrompt {
                name: name.to_owned(),
                known: self.prompts().map(|p| p.name.clone()).collect(),
            });
        };
        let info = prompt.info();
        if let Some(unknown) = arguments
            .keys()
            .find(|k| !info.arguments.iter().any(|a| &&a.name == k))
        {
            let valid: Vec<&str> = info.arguments.iter().map(|a| a.name.as_str()).collect();
            return Err(CatalogError::InvalidArgument {
                name: unknown.clone(),
                message: format!(
                    "prompt '{name}' has no such argument; its arguments are: {}",
                    if valid.is_empty() {
                        "(none)".to_owned()
                    } else {
                        valid.join(", ")
                    }
                ),
            });
        }
        if let Some(missing) = info
            .arguments
            .iter()
            .find(|a| a.required && !arguments.contains_key(&a.name))
        {
            return Err(CatalogError::MissingArgument {
                name: missing.name.clone(),
            });
        }
        prompt.render_in(arguments, ctx).await
    }
}

/// A [`Catalog`] of `#[resource]` functions, named as written.
///
/// ```
/// use tool_core::{resource, resources};
///
/// /// The units.
/// #[resource(uri = "docs://units")]
/// fn units() -> &'static str { "°C" }
///
/// assert_eq!(resources![units].resources().count(), 1);
/// ```
#[macro_export]
macro_rules! resources {
    ($($resource:path),* $(,)?) => {
        $crate::catalog::Catalog::new()$(.with_resource(<$resource>::__resource()))*
    };
}

/// A [`Catalog`] of `#[prompt]` functions, named as written.
///
/// ```
/// use tool_core::{prompt, prompts};
///
/// /// Says hello.
/// #[prompt]
/// fn hello() -> &'static str { "Hello!" }
///
/// assert_eq!(prompts![hello].prompts().count(), 1);
/// ```
#[macro_export]
macro_rules! prompts {
    ($($prompt:path),* $(,)?) => {
        $crate::catalog::Catalog::new()$(.with_prompt(<$prompt>::__prompt()))*
    };
}
