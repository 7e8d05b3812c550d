//! Resources: data a client can read by URI. `#[resource(uri = "..")]` implements
//! [`Resource`] for a function; [`IntoResourceContents`] says what it may return.

use std::future::Future;
use std::pin::Pin;

use serde::Serialize;

use super::{CatalogError, UriTemplate};
use crate::into_response::Json;
use crate::metadata::{Icon, Meta};

/// What reading a resource yields, boxed so resources of every kind fit in one catalog.
pub type ResourceFuture<'a> =
    Pin<Box<dyn Future<Output = Result<ResourceContents, CatalogError>> + Send + 'a>>;

/// A readable resource: a fixed URI (`docs://units`) or a URI template
/// (`weather://{city}/current`) whose variables are the function's parameters.
///
/// ```
/// use tool_core::catalog::{Catalog, Resource};
/// use tool_core::resource;
///
/// /// The units every weather value uses.
/// #[resource(uri = "docs://units")]
/// fn units() -> &'static str { "temperatures in °C" }
///
/// assert_eq!(units {}.info().uri.as_str(), "docs://units");
/// let catalog = Catalog::new().with_resource(units {});
/// let read = tool_core::block_on(catalog.read("docs://units")).unwrap();
/// assert_eq!(read.text(), Some("temperatures in °C"));
/// ```
pub trait Resource: Send + Sync + 'static {
    /// The resource's URI (or template), name and description.
    fn info(&self) -> &ResourceInfo;

    /// Reads the resource at `uri`; `vars` are the template's variables taken from it (in
    /// template order; empty for a fixed URI).
    fn read<'a>(&'a self, uri: &'a str, vars: &'a [(String, String)]) -> ResourceFuture<'a>;

    /// Reads the resource for a request that comes with a context: over MCP, the client that
    /// asked, so the function can `sample`, `elicit` or ask for `roots` through a
    /// [`ToolContext`](crate::ToolContext) parameter. By default the context is not used.
    fn read_in<'a>(
        &'a self,
        uri: &'a str,
        vars: &'a [(String, String)],
        ctx: &'a crate::CallContext,
    ) -> ResourceFuture<'a> {
        let _ = ctx;
        self.read(uri, vars)
    }
}

/// How a resource is listed.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceInfo {
    /// The fixed URI or the URI template.
    pub uri: UriTemplate,
    /// A programmatic name (the function's name unless `name = ".."`).
    pub name: String,
    /// A display name.
    pub title: Option<String>,
    /// What the resource holds (the doc comment).
    pub description: String,
    /// The MIME type of its contents, when known in advance.
    pub mime_type: Option<String>,
    /// Icons a client may show for it.
    pub icons: Vec<Icon>,
    /// The `_meta` object clients receive with it.
    pub meta: Option<Meta>,
}

impl ResourceInfo {
    /// A resource description. Panics on an invalid template: `#[resource]` has checked it
    /// at compile time, and a hand-written one is a programming error found on first use.
    #[track_caller]
    pub fn new(uri: &str, name: &str, description: &str) -> ResourceInfo {
        let uri = match UriTemplate::parse(uri) {
            Ok(uri) => uri,
            Err(e) => panic!("{e}"),
        };
        ResourceInfo {
            uri,
            name: name.to_owned(),
            title: None,
            description: description.to_owned(),
            mime_type: None,
            icons: Vec::new(),
            meta: None,
        }
    }

    /// Sets the display name.
    pub fn with_title(mut self, title: &str) -> Self {
        self.title = Some(title.to_owned());
        self
    }

    /// Sets the MIME type.
    pub fn with_mime_type(mut self, mime_type: &str) -> Self {
        self.mime_type = Some(mime_type.to_owned());
        self
    }

    /// Sets the icons a client may show (`#[resource(icon = "..")]` does it for a function).
    ///
    /// ```
    /// use tool_core::{catalog::ResourceInfo, Icon};
    /// let info = ResourceInfo::new("docs://units", "units", "The units.")
    ///     .with_icons([Icon::new("https://example.com/ruler.svg").with_sizes(["any"])]);
    /// assert_eq!(info.icons[0].sizes, ["any"]);
    /// ```
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Sets the `_meta` object (`#[resource(meta(key = "value"))]` does it for a function).
    ///
    /// ```
    /// use tool_core::catalog::ResourceInfo;
    /// let meta = serde_json::json!({"com.example/cache": 60}).as_object().cloned().unwrap();
    /// let info = ResourceInfo::new("docs://units", "units", "The units.").with_meta(meta);
    /// assert_eq!(info.meta.unwrap()["com.example/cache"], 60);
    /// ```
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Makes the resource the interactive view of a tool (the MCP Apps extension; the tool
    /// names it with `#[tool(app = "ui://..")]`): its MIME type becomes [`APP_MIME_TYPE`],
    /// and `ui`, when not empty, becomes its `_meta.ui`: what the view asks of the host that
    /// renders it in a sandboxed frame (`csp` with `connectDomains`, `resourceDomains`,
    /// `frameDomains`, `baseUriDomains`; `permissions` such as `{"camera": {}}`; `domain`;
    /// `prefersBorder`). An MCP server sends that `_meta.ui` in `resources/list` and with the
    /// contents `resources/read` returns. `#[resource(uri = "ui://..", app(..))]` does it for
    /// a function; the URI must use the `ui://` scheme and the contents be an HTML document.
    ///
    /// ```
    /// use tool_core::catalog::{ResourceInfo, APP_MIME_TYPE};
    /// let ui = serde_json::json!({"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true});
    /// let info = ResourceInfo::new("ui://weather/dashboard", "dashboard", "The weather dashboard.")
    ///     .with_app_view(ui.as_object().cloned().unwrap());
    /// assert_eq!(info.mime_type.as_deref(), Some(APP_MIME_TYPE));
    /// assert_eq!(info.meta.unwrap()["ui"]["csp"]["connectDomains"][0], "https://api.example.com");
    /// ```
    pub fn with_app_view(mut self, ui: Meta) -> Self {
        self.mime_type = Some(APP_MIME_TYPE.to_owned());
        if !ui.is_empty() {
            self.meta
                .get_or_insert_with(Meta::new)
                .insert("ui".to_owned(), serde_json::Value::Object(ui));
        }
        self
    }
}

/// The MIME type of an MCP Apps view: an HTML document a host renders in a sandboxed frame
/// beside a tool's result (see [`ResourceInfo::with_app_view`]).
///
/// ```
/// assert_eq!(tool_core::catalog::APP_MIME_TYPE, "text/html;profile=mcp-app");
/// ```
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// What one read returned: text or bytes, with the URI it was read at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceContents {
    /// The URI that was read (a template's expansion, not the template).
    pub uri: String,
    /// The MIME type, if known.
    pub mime_type: Option<String>,
    /// The contents.
    pub body: ResourceBody,
}

impl ResourceContents {
    /// The text, for a text resource.
    pub fn text(&self) -> Option<&str> {
        match &self.body {
            ResourceBody::Text(text) => Some(text),
            ResourceBody::Blob(_) => None,
        }
    }
}

/// A resource's contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceBody {
    /// UTF-8 text.
    Text(String),
    /// Bytes (sent base64-encoded over MCP).
    Blob(Vec<u8>),
}

/// Bytes with their MIME type, as a resource's return value.
///
/// ```
/// use tool_core::{catalog::Blob, resource};
///
/// /// The site's logo.
/// #[resource(uri = "images://logo")]
/// fn logo() -> Blob { Blob::new(vec![0x89, b'P', b'N', b'G'], "image/png") }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Their MIME type.
    pub mime_type: String,
}

impl Blob {
    /// Bytes of the given MIME type.
    pub fn new(bytes: impl Into<Vec<u8>>, mime_type: &str) -> Blob {
        Blob {
            bytes: bytes.into(),
            mime_type: mime_type.to_owned(),
        }
    }
}

/// A return type of a `#[resource]` function: text (`String`, `&str`: `text/plain` unless the
/// attribute's `mime_type` says otherwise), [`Blob`], `Json<T>` (`application/json`),
/// [`ResourceContents`], or a `Result` of any of them whose error becomes
/// [`CatalogError::Failed`].
pub trait IntoResourceContents {
    /// Converts the value; `uri` is the URI read, `mime_type` the attribute's MIME type.
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<ResourceContents, CatalogError>;
}

fn text(uri: &str, body: String, mime: Option<&str>, default: &str) -> ResourceContents {
    ResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(mime.unwrap_or(default).to_owned()),
        body: ResourceBody::Text(body),
    }
}

impl IntoResourceContents for String {
    fn into_contents(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        Ok(text(uri, self, mime, "text/plain"))
    }
}

impl IntoResourceContents for &str {
    fn into_contents(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        Ok(text(uri, self.to_owned(), mime, "text/plain"))
    }
}

impl<T: Serialize> IntoResourceContents for Json<T> {
    fn into_contents(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        let body = serde_json::to_string(&self.0).map_err(|e| CatalogError::Failed {
            message: format!("the resource's value could not be serialized as JSON: {e}"),
        })?;
        Ok(text(uri, body, mime, "application/json"))
    }
}

impl IntoResourceContents for Blob {
    fn into_contents(
        self,
        uri: &str,
        _mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        Ok(ResourceContents {
            uri: uri.to_owned(),
            mime_type: Some(self.mime_type),
            body: ResourceBody::Blob(self.bytes),
        })
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_contents(
        self,
        _uri: &str,
        _mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        Ok(self)
    }
}

impl<T: IntoResourceContents, E: std::fmt::Display> IntoResourceContents for Result<T, E> {
    fn into_contents(
        self,
        uri: &str,
        mime: Option<&str>,
    ) -> Result<ResourceContents, CatalogError> {
        match self {
            Ok(value) => value.into_contents(uri, mime),
            Err(e) => Err(CatalogError::Failed {
                message: e.to_string(),
            }),
        }
    }
}
