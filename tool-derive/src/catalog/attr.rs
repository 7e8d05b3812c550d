//! The grammar of `#[resource(..)]` and `#[prompt(..)]`, strict like `#[tool(..)]`.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::Path;

use crate::attr::{meta_key, parse_string, set, skip_value, unknown_key, Spanned};
use crate::ctxt::Ctxt;
use crate::metadata::Metadata;

use super::app::AppAttr;

/// Which attribute is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Resource,
    Prompt,
}

impl Kind {
    pub fn attr(self) -> &'static str {
        match self {
            Kind::Resource => "#[resource]",
            Kind::Prompt => "#[prompt]",
        }
    }

    fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::Resource => &[
                "uri",
                "name",
                "title",
                "description",
                "mime_type",
                "app",
                "crate",
                "icon",
                "meta",
            ],
            Kind::Prompt => &["name", "title", "description", "crate", "icon", "meta"],
        }
    }
}

#[derive(Default)]
pub struct CatalogAttr {
    pub uri: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub mime_type: Option<Spanned<String>>,
    pub krate: Option<Path>,
    /// `#[resource]` only: `app` / `app(..)`, an MCP Apps view.
    pub app: Option<AppAttr>,
    /// `icon` (repeatable) and `meta(..)`, as on `#[tool]`.
    pub metadata: Metadata,
}

pub fn parse(tokens: TokenStream, kind: Kind, cx: &mut Ctxt) -> CatalogAttr {
    let mut attr = CatalogAttr::default();
    let valid = kind.keys();
    let parser = syn::meta::parser(|meta| {
        let key = meta_key(&meta);
        match key.as_str() {
            "uri" if kind == Kind::Resource => {
                set(cx, &meta, &mut attr.uri, "uri", parse_string(&meta)?)
            }
            "mime_type" if kind == Kind::Resource => set(
                cx,
                &meta,
                &mut attr.mime_type,
                "mime_type",
                parse_string(&meta)?,
            ),
            "app" if kind == Kind::Resource => {
                let app = AppAttr::parse(&meta, cx)?;
                if attr.app.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate `app`: give it once");
                } else {
                    attr.app = Some(app);
                }
            }
            "icon" | "meta" => {
                attr.metadata.parse_key(&key, &meta, cx)?;
            }
            "name" => set(cx, &meta, &mut attr.name, "name", parse_string(&meta)?),
            "title" => set(cx, &meta, &mut attr.title, "title", parse_string(&meta)?),
            "description" => set(
                cx,
                &meta,
                &mut attr.description,
                "description",
                parse_string(&meta)?,
            ),
            "crate" => {
                let path: Path = meta.value()?.parse()?;
                if attr.krate.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate `crate`: give it once");
                } else {
                    attr.krate = Some(path);
                }
            }
            _ => {
                unknown_key(cx, &meta, &key, kind.attr(), valid);
                skip_value(&meta)?;
            }
        }
        Ok(())
    });
    if let Err(e) = parser.parse2(tokens) {
        cx.push(e);
    }
    attr
}
