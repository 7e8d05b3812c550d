//! Display metadata a client shows beside tools, resources and prompts: [`Icon`]s and the
//! free-form `_meta` object ([`Meta`]). MCP carries both in its listings; the other APIs a
//! model talks to have no place for them and leave them out.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `_meta` object of a tool, resource or prompt: keys (optionally prefixed, e.g.
/// `com.example/version`) and JSON values, passed to clients untouched.
///
/// ```
/// use tool_core::{Meta, ToolDefinition};
/// let mut meta = Meta::new();
/// meta.insert("com.example/owner".into(), "search-team".into());
/// let def = ToolDefinition::new("search", "Searches.", serde_json::json!({"type": "object"}))
///     .with_meta(meta);
/// assert_eq!(def.meta.unwrap()["com.example/owner"], "search-team");
/// ```
pub type Meta = Map<String, Value>;

/// Which background an icon is drawn for.
///
/// ```
/// use tool_core::{Icon, IconTheme};
/// let icon = Icon::new("https://example.com/moon.svg").with_theme(IconTheme::Dark);
/// assert_eq!(serde_json::to_value(&icon).unwrap()["theme"], "dark");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

/// An icon a client may show for a tool, resource, prompt or server: where the image is
/// (an `https:` URL or a `data:` URI), its MIME type, the sizes it comes in and the theme it
/// suits. Serialized as MCP writes it (`src`, `mimeType`, `sizes`, `theme`).
///
/// ```
/// use tool_core::Icon;
/// let icon = Icon::new("https://example.com/weather.png")
///     .with_mime_type("image/png")
///     .with_sizes(["48x48", "96x96"]);
/// assert_eq!(
///     serde_json::to_value(&icon).unwrap(),
///     serde_json::json!({"src": "https://example.com/weather.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"]}),
/// );
/// ```
// Non-exhaustive like MCP's own type, which may grow; build one with `new` and the `with_*`s.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// The image's URI: `https://...` or `data:image/png;base64,...`.
    pub src: String,
    /// Its MIME type, when the URI alone does not tell (e.g. `image/png`, `image/svg+xml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The sizes the image is available in: `WxH` (`48x48`) or `any` for scalable images.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The background it is drawn for; none means any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon at `src`, with no MIME type, sizes or theme stated.
    ///
    /// ```
    /// let icon = tool_core::Icon::new("https://example.com/i.png");
    /// assert_eq!((icon.src.as_str(), icon.sizes.len()), ("https://example.com/i.png", 0));
    /// ```
    pub fn new(src: impl Into<String>) -> Icon {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// Sets the MIME type.
    ///
    /// ```
    /// let icon = tool_core::Icon::new("https://example.com/i.svg").with_mime_type("image/svg+xml");
    /// assert_eq!(icon.mime_type.as_deref(), Some("image/svg+xml"));
    /// ```
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Icon {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the sizes (`"48x48"`, `"any"`).
    ///
    /// ```
    /// let icon = tool_core::Icon::new("https://example.com/i.svg").with_sizes(["any"]);
    /// assert_eq!(icon.sizes, ["any"]);
    /// ```
    pub fn with_sizes<S: Into<String>>(mut self, sizes: impl IntoIterator<Item = S>) -> Icon {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the theme.
    ///
    /// ```
    /// use tool_core::{Icon, IconTheme};
    /// let icon = Icon::new("https://example.com/i.png").with_theme(IconTheme::Light);
    /// assert_eq!(icon.theme, Some(IconTheme::Light));
    /// ```
    pub fn with_theme(mut self, theme: IconTheme) -> Icon {
        self.theme = Some(theme);
        self
    }
}

/// Reads icons from a JSON listing entry's `icons` (a peer's answer): entries that do not
/// read as icons are skipped, not fatal.
#[cfg(feature = "mcp")]
pub(crate) fn icons_from(value: &Value) -> Vec<Icon> {
    value
        .get("icons")
        .and_then(Value::as_array)
        .map(|icons| {
            icons
                .iter()
                .filter_map(|icon| serde_json::from_value(icon.clone()).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Reads a JSON listing entry's `_meta` object, if it has one.
#[cfg(feature = "mcp")]
pub(crate) fn meta_from(value: &Value) -> Option<Meta> {
    value.get("_meta").and_then(Value::as_object).cloned()
}

/// Writes `icons` and `_meta` into a JSON listing entry, each only when there is something.
pub(crate) fn write_metadata(out: &mut Map<String, Value>, icons: &[Icon], meta: Option<&Meta>) {
    if !icons.is_empty() {
        if let Ok(icons) = serde_json::to_value(icons) {
            out.insert("icons".into(), icons);
        }
    }
    if let Some(meta) = meta {
        out.insert("_meta".into(), Value::Object(meta.clone()));
    }
}
