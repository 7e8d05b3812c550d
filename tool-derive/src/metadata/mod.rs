//! The `icon` and `meta` keys `#[tool]`, `#[resource]` and `#[prompt]` share:
//!
//! ```text
//! icon = "https://example.com/i.png"
//! icon(src = "https://example.com/i.png", mime_type = "image/png", sizes = "48x48 96x96", theme = "dark")
//! meta(key = "value", "com.example/level" = 3, beta = true, tags = ["a", "b"])
//! ```
//!
//! `icon` may be given several times (one icon each). What a client would reject or misread
//! is an error here, at the attribute: an icon URI that is not `https:`, `http:` or `data:`, a
//! MIME type that is not an image type, a size that is not `WxH` or `any`, a `_meta` key that
//! breaks MCP's key format or uses a prefix MCP reserves, a key given twice.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Path, Token};

use crate::attr::{meta_key, parse_string, set, skip_value, Spanned};
use crate::ctxt::Ctxt;

/// One icon as written.
pub struct IconAttr {
    pub src: String,
    pub mime_type: Option<String>,
    pub sizes: Vec<String>,
    /// `"light"` or `"dark"`.
    pub theme: Option<String>,
}

/// A `_meta` value: the JSON literals an attribute can hold.
pub enum MetaValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<MetaValue>),
}

/// What the `icon` and `meta` keys recorded.
#[derive(Default)]
pub struct Metadata {
    pub icons: Vec<IconAttr>,
    pub meta: Option<Spanned<Vec<(String, MetaValue)>>>,
}

impl Metadata {
    /// Reads `icon ..` or `meta(..)` if `key` is one of them; `Ok(false)` for any other key.
    pub fn parse_key(
        &mut self,
        key: &str,
        meta: &ParseNestedMeta,
        cx: &mut Ctxt,
    ) -> syn::Result<bool> {
        match key {
            "icon" => {
                if let Some(icon) = parse_icon(meta, cx)? {
                    self.icons.push(icon);
                }
            }
            "meta" => {
                let entries = parse_meta(meta, cx)?;
                set(cx, meta, &mut self.meta, "meta", entries);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `fn icons` and `fn meta` of the `Tool` trait (`receiver` `&self` or nothing, for
    /// `StructTool`), each only when something was given so the defaults stay.
    pub fn tool_methods(&self, krate: &Path, receiver: TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        if !self.icons.is_empty() {
            let icons = self.icons_vec(krate);
            out.extend(quote! {
                fn icons(#receiver) -> ::std::vec::Vec<#krate::Icon> { #icons }
            });
        }
        if let Some(meta) = self.meta_object(krate) {
            out.extend(quote! {
                fn meta(#receiver) -> ::core::option::Option<#krate::Meta> {
                    ::core::option::Option::Some(#meta)
                }
            });
        }
        out
    }

    /// `.with_icons(..)` and `.with_meta(..)` for a catalog entry's builder, when given.
    pub fn builder_calls(&self, krate: &Path) -> TokenStream {
        let mut out = TokenStream::new();
        if !self.icons.is_empty() {
            let icons = self.icons_vec(krate);
            out.extend(quote!(.with_icons(#icons)));
        }
        if let Some(meta) = self.meta_object(krate) {
            out.extend(quote!(.with_meta(#meta)));
        }
        out
    }

    fn icons_vec(&self, krate: &Path) -> TokenStream {
        let icons = self.icons.iter().map(|icon| {
            let src = &icon.src;
            let mime = icon.mime_type.as_ref().map(|m| quote!(.with_mime_type(#m)));
            let sizes = &icon.sizes;
            let sizes = (!sizes.is_empty()).then(|| quote!(.with_sizes([#(#sizes),*])));
            let theme = icon.theme.as_deref().map(|theme| match theme {
                "dark" => quote!(.with_theme(#krate::IconTheme::Dark)),
                _ => quote!(.with_theme(#krate::IconTheme::Light)),
            });
            quote!(#krate::Icon::new(#src) #mime #sizes #theme)
        });
        quote!(::std::vec![#(#icons),*])
    }

    fn meta_object(&self, krate: &Path) -> Option<TokenStream> {
        let entries = &self.meta.as_ref()?.value;
        let inserts = entries.iter().map(|(key, value)| {
            let value = value_tokens(krate, value);
            quote!(__tc_meta.insert(::std::string::String::from(#key), #value);)
        });
        Some(quote! {{
            let mut __tc_meta = #krate::Meta::new();
            #(#inserts)*
            __tc_meta
        }})
    }
}

fn value_tokens(krate: &Path, value: &MetaValue) -> TokenStream {
    let json = quote!(#krate::__private::serde_json::Value);
    match value {
        MetaValue::Str(s) => quote!(#json::from(#s)),
        MetaValue::Int(i) => {
            let i = Literal::i64_suffixed(*i);
            quote!(#json::from(#i))
        }
        MetaValue::Float(f) => {
            let f = Literal::f64_suffixed(*f);
            quote!(#json::from(#f))
        }
        MetaValue::Bool(b) => quote!(#json::Bool(#b)),
        MetaValue::Array(items) => {
            let items = items.iter().map(|item| value_tokens(krate, item));
            quote!(#json::Array(::std::vec![#(#items),*]))
        }
    }
}

const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

fn parse_icon(meta: &ParseNestedMeta, cx: &mut Ctxt) -> syn::Result<Option<IconAttr>> {
    if meta.input.peek(Token![=]) {
        let src = parse_string(meta)?;
        return Ok(check_src(&src, cx).then_some(IconAttr {
            src: src.value,
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }));
    }
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "`icon` takes a URI, `icon = \"https://example.com/icon.png\"`, or its parts: \
             `icon(src = \"...\", mime_type = \"image/png\", sizes = \"48x48\", theme = \"dark\")`",
        );
        return Ok(None);
    }
    let (mut src, mut mime, mut sizes, mut theme) = (None, None, None, None);
    meta.parse_nested_meta(|inner| {
        let key = meta_key(&inner);
        match key.as_str() {
            "src" => set(cx, &inner, &mut src, "src", parse_string(&inner)?),
            "mime_type" => set(cx, &inner, &mut mime, "mime_type", parse_string(&inner)?),
            "sizes" => set(cx, &inner, &mut sizes, "sizes", parse_string(&inner)?),
            "theme" => set(cx, &inner, &mut theme, "theme", parse_string(&inner)?),
            _ => {
                crate::attr::unknown_key(cx, &inner, &key, "`icon(..)`", ICON_KEYS);
                skip_value(&inner)?;
            }
        }
        Ok(())
    })?;
    let Some(src) = src else {
        cx.error_spanned_by(
            &meta.path,
            "`icon(..)` needs `src = \"...\"`: the image's https: URL or data: URI",
        );
        return Ok(None);
    };
    let mut ok = check_src(&src, cx);
    if let Some(mime) = &mime {
        ok &= check_mime(mime, cx);
    }
    let sizes: Vec<String> = match &sizes {
        Some(sizes) => {
            let list: Vec<String> = sizes
                .value
                .split([' ', ','])
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            if list.is_empty() {
                cx.error_at(
                    sizes.span,
                    "`sizes` lists sizes such as \"48x48 96x96\" or \"any\"",
                );
                ok = false;
            }
            for size in &list {
                if !is_size(size) {
                    cx.error_at(
                        sizes.span,
                        format!("`{size}` is not an icon size: write `WxH` in pixels (`48x48`), or `any` for a scalable image"),
                    );
                    ok = false;
                }
            }
            list
        }
        None => Vec::new(),
    };
    if let Some(theme) = &theme {
        if theme.value != "light" && theme.value != "dark" {
            cx.error_at(
                theme.span,
                format!(
                    "unknown icon theme `{}`: use \"light\" or \"dark\" (or leave it out for any background)",
                    theme.value
                ),
            );
            ok = false;
        }
    }
    Ok(ok.then(|| IconAttr {
        src: src.value,
        mime_type: mime.map(|m| m.value),
        sizes,
        theme: theme.map(|t| t.value),
    }))
}

fn check_src(src: &Spanned<String>, cx: &mut Ctxt) -> bool {
    let lower = src.value.to_ascii_lowercase();
    let ok = ["https://", "http://", "data:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme) && lower.len() > scheme.len());
    if !ok {
        cx.error_at(
            src.span,
            format!(
                "the icon `{}` is not an https:, http: or data: URI: clients load icons only from these \
                 (e.g. \"https://example.com/icon.png\" or \"data:image/png;base64,...\")",
                src.value
            ),
        );
    }
    ok
}

fn check_mime(mime: &Spanned<String>, cx: &mut Ctxt) -> bool {
    let ok = mime
        .value
        .strip_prefix("image/")
        .is_some_and(|sub| !sub.is_empty() && !sub.contains(char::is_whitespace));
    if !ok {
        cx.error_at(
            mime.span,
            format!(
                "`{}` is not an image MIME type: use one such as \"image/png\", \"image/jpeg\", \"image/svg+xml\" or \"image/webp\"",
                mime.value
            ),
        );
    }
    ok
}

fn is_size(size: &str) -> bool {
    if size == "any" {
        return true;
    }
    let Some((w, h)) = size.split_once('x') else {
        return false;
    };
    let dim =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0');
    dim(w) && dim(h)
}

/// `meta(key = value, "prefix/key" = value, ..)`.
fn parse_meta(
    meta: &ParseNestedMeta,
    cx: &mut Ctxt,
) -> syn::Result<Spanned<Vec<(String, MetaValue)>>> {
    let span = meta.path.segments[0].ident.span();
    if !meta.input.peek(syn::token::Paren) {
        if meta.input.peek(Token![=]) {
            meta.value()?.parse::<Expr>()?;
        }
        cx.error_at(
            span,
            "`meta` takes a list of entries: `meta(key = \"value\", \"com.example/level\" = 3, beta = true)`",
        );
        return Ok(Spanned {
            value: Vec::new(),
            span,
        });
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let entries = Punctuated::<(Spanned<String>, MetaValue), Token![,]>::parse_terminated_with(
        &content,
        parse_entry,
    )?;
    if entries.is_empty() {
        cx.error_at(
            span,
            "`meta()` is empty: give at least one `key = value`, or leave `meta` out",
        );
    }
    let mut out: Vec<(String, MetaValue)> = Vec::new();
    for (key, value) in entries {
        if let Err(message) = check_meta_key(&key.value) {
            cx.error_at(key.span, message);
        } else if out.iter().any(|(k, _)| *k == key.value) {
            cx.error_at(
                key.span,
                format!("duplicate `_meta` key `{}`: give it once", key.value),
            );
        } else {
            out.push((key.value, value));
        }
    }
    Ok(Spanned { value: out, span })
}

fn parse_entry(input: ParseStream) -> syn::Result<(Spanned<String>, MetaValue)> {
    let key = if input.peek(syn::LitStr) {
        let lit: syn::LitStr = input.parse()?;
        Spanned {
            value: lit.value(),
            span: lit.span(),
        }
    } else {
        let ident = input.call(syn::Ident::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "a `_meta` key is a name (`beta`) or a string (`\"com.example/level\"`)",
            )
        })?;
        Spanned {
            value: ident.unraw().to_string(),
            span: ident.span(),
        }
    };
    input.parse::<Token![=]>()?;
    let expr: Expr = input.parse()?;
    let value = meta_value(&expr)?;
    Ok((key, value))
}

fn meta_value(expr: &Expr) -> syn::Result<MetaValue> {
    let unsupported = || {
        syn::Error::new_spanned(
            expr,
            "a `_meta` value is a literal: a string, a number, `true`/`false`, or an array of them; \
             build other values at run time with `with_meta`",
        )
    };
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Ok(MetaValue::Str(s.value())),
            Lit::Int(i) => Ok(MetaValue::Int(i.base10_parse()?)),
            Lit::Float(f) => Ok(MetaValue::Float(f.base10_parse()?)),
            Lit::Bool(b) => Ok(MetaValue::Bool(b.value)),
            _ => Err(unsupported()),
        },
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr: inner,
            ..
        }) => match meta_value(inner)? {
            MetaValue::Int(i) => Ok(MetaValue::Int(-i)),
            MetaValue::Float(f) => Ok(MetaValue::Float(-f)),
            _ => Err(unsupported()),
        },
        Expr::Array(array) => Ok(MetaValue::Array(
            array
                .elems
                .iter()
                .map(meta_value)
                .collect::<syn::Result<_>>()?,
        )),
        Expr::Group(group) => meta_value(&group.expr),
        _ => Err(unsupported()),
    }
}

/// MCP's `_meta` key format: an optional prefix (dot-separated labels, each starting with a
/// letter and ending with a letter or digit, then `/`) and a name that begins and ends with a
/// letter or digit and holds letters, digits, `-`, `_` and `.`. Prefixes whose second label is
/// `modelcontextprotocol` or `mcp` belong to MCP itself.
fn check_meta_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        let label_ok = |l: &&str| {
            l.starts_with(|c: char| c.is_ascii_alphabetic())
                && l.ends_with(|c: char| c.is_ascii_alphanumeric())
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        if !labels.iter().all(label_ok) {
            return Err(format!(
                "the `_meta` key prefix `{prefix}/` is not valid: write dot-separated labels of letters, digits and `-`, \
                 each starting with a letter, e.g. \"com.example/{name}\""
            ));
        }
        if labels
            .get(1)
            .is_some_and(|l| *l == "modelcontextprotocol" || *l == "mcp")
        {
            return Err(format!(
                "the `_meta` key prefix `{prefix}/` is reserved for MCP itself: use your own domain, e.g. \"com.example/{name}\""
            ));
        }
    }
    let name_ok = name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if !name_ok {
        return Err(format!(
            "`{key}` is not a valid `_meta` key: the name must begin and end with a letter or digit and hold only \
             letters, digits, `-`, `_` and `.`"
        ));
    }
    Ok(())
}

/// Parses a `meta(..)` written as a standalone token stream (for unit tests of the grammar).
#[cfg(test)]
mod tests;
