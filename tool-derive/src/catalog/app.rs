//! `app` on `#[resource]`: the resource is an MCP Apps view (an HTML document a host renders
//! beside a tool's result), with what it asks of the host's sandbox:
//!
//! ```text
//! app
//! app(connect_domains = ["https://api.example.com"], resource_domains = [..],
//!     frame_domains = [..], base_uri_domains = [..],
//!     permissions = ["camera", "microphone", "geolocation", "clipboard_write"],
//!     domain = "..", prefers_border = true)
//! ```
//!
//! Each key becomes its field of the resource's `_meta.ui` as the extension spells it
//! (`csp.connectDomains`, `permissions.clipboardWrite: {}`, `prefersBorder` ...).

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{Expr, Lit, LitBool, Path};

use crate::attr::{meta_key, parse_string, unknown_key, Spanned};
use crate::ctxt::Ctxt;

const KEYS: &[&str] = &[
    "connect_domains",
    "resource_domains",
    "frame_domains",
    "base_uri_domains",
    "permissions",
    "domain",
    "prefers_border",
];

/// The sandbox permissions a view may ask for, as written and as the extension names them.
const PERMISSIONS: &[(&str, &str)] = &[
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboardWrite"),
];

/// What `app` / `app(..)` recorded: `_meta.ui` entries in the extension's names, in a fixed
/// order so the expansion (and what clients get) is deterministic.
#[derive(Default)]
pub struct AppAttr {
    /// `(cspKey, domains)`.
    csp: Vec<(&'static str, Vec<String>)>,
    permissions: Vec<&'static str>,
    domain: Option<String>,
    prefers_border: Option<bool>,
}

impl AppAttr {
    /// Reads `app` or `app(..)`.
    pub fn parse(meta: &ParseNestedMeta, cx: &mut Ctxt) -> syn::Result<AppAttr> {
        let mut app = AppAttr::default();
        if meta.input.peek(syn::Token![=]) {
            return Err(syn::Error::new(
                meta.input.span(),
                "`app` takes no value: write `app`, or `app(connect_domains = [\"https://..\"], ..)` \
                 for what the view asks of the host",
            ));
        }
        if !meta.input.peek(syn::token::Paren) {
            return Ok(app);
        }
        let mut seen: Vec<String> = Vec::new();
        meta.parse_nested_meta(|inner| {
            let key = meta_key(&inner);
            if seen.contains(&key) {
                cx.error_spanned_by(&inner.path, format!("duplicate `{key}`: give it once"));
            }
            seen.push(key.clone());
            match key.as_str() {
                "connect_domains" => app.csp.push(("connectDomains", strings(&inner)?)),
                "resource_domains" => app.csp.push(("resourceDomains", strings(&inner)?)),
                "frame_domains" => app.csp.push(("frameDomains", strings(&inner)?)),
                "base_uri_domains" => app.csp.push(("baseUriDomains", strings(&inner)?)),
                "permissions" => {
                    for name in strings(&inner)? {
                        match PERMISSIONS.iter().find(|(written, _)| *written == name) {
                            Some((_, wire)) => app.permissions.push(wire),
                            None => cx.error_spanned_by(
                                &inner.path,
                                format!(
                                    "unknown permission `{name}`: a view may ask for {}",
                                    PERMISSIONS
                                        .iter()
                                        .map(|(w, _)| format!("`{w}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            ),
                        }
                    }
                }
                "domain" => {
                    let Spanned { value, .. } = parse_string(&inner)?;
                    app.domain = Some(value);
                }
                "prefers_border" => {
                    app.prefers_border = Some(if inner.input.peek(syn::Token![=]) {
                        inner.value()?.parse::<LitBool>()?.value
                    } else {
                        true
                    });
                }
                _ => {
                    unknown_key(cx, &inner, &key, "`app(..)` of #[resource]", KEYS);
                    crate::attr::skip_value(&inner)?;
                }
            }
            Ok(())
        })?;
        Ok(app)
    }

    /// `.with_app_view(..)` on the resource's `ResourceInfo`: sets the MIME type and
    /// `_meta.ui` (after any `meta(..)`, whose other keys stay).
    pub fn builder_call(&self, krate: &Path) -> TokenStream {
        let mut entries = Vec::new();
        if !self.csp.is_empty() {
            let csp = self
                .csp
                .iter()
                .map(|(key, domains)| quote!(#key: [#(#domains),*]));
            entries.push(quote!("csp": { #(#csp),* }));
        }
        if !self.permissions.is_empty() {
            let names = &self.permissions;
            entries.push(quote!("permissions": { #(#names: {}),* }));
        }
        if let Some(domain) = &self.domain {
            entries.push(quote!("domain": #domain));
        }
        if let Some(border) = self.prefers_border {
            entries.push(quote!("prefersBorder": #border));
        }
        quote! {
            .with_app_view(
                match #krate::__private::serde_json::json!({ #(#entries),* }) {
                    #krate::__private::serde_json::Value::Object(ui) => ui,
                    _ => #krate::Meta::new(),
                }
            )
        }
    }
}

/// `key = ["..", ".."]`: a list of string literals.
fn strings(meta: &ParseNestedMeta) -> syn::Result<Vec<String>> {
    let key = meta_key(meta);
    let expected = || {
        syn::Error::new(
            meta.input.span(),
            format!("`{key}` takes a list of strings, e.g. {key} = [\"https://api.example.com\"]"),
        )
    };
    let Expr::Array(array) = meta.value()?.parse::<Expr>()? else {
        return Err(expected());
    };
    array
        .elems
        .iter()
        .map(|elem| match elem {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.value()),
            _ => Err(expected()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(attr: &str) -> Result<String, String> {
        let mut cx = Ctxt::default();
        let mut found = None;
        let parser = syn::meta::parser(|meta| {
            found = Some(AppAttr::parse(&meta, &mut cx)?);
            Ok(())
        });
        syn::parse::Parser::parse_str(parser, attr).map_err(|e| e.to_string())?;
        cx.check().map_err(|e| e.to_string())?;
        let krate: Path = syn::parse_quote!(tool_core);
        Ok(found.expect("one key").builder_call(&krate).to_string())
    }

    #[test]
    fn keys_become_the_extensions_names_in_a_fixed_order() {
        let tokens = expand(
            r#"app(prefers_border, permissions = ["clipboard_write", "camera"], connect_domains = ["https://a.example"], domain = "d.example")"#,
        )
        .unwrap();
        let compact: String = tokens.split_whitespace().collect();
        assert!(
            compact.contains(r#""csp":{"connectDomains":["https://a.example"]},"permissions":{"clipboardWrite":{},"camera":{}},"domain":"d.example","prefersBorder":true"#),
            "{compact}"
        );
        assert!(expand("app").unwrap().contains("with_app_view"));
    }

    #[test]
    fn bad_values_are_errors_that_say_what_to_write() {
        assert!(expand(r#"app(permissions = ["usb"])"#)
            .unwrap_err()
            .contains("unknown permission `usb`"));
        assert!(expand(r#"app(connect_domains = "https://a.example")"#)
            .unwrap_err()
            .contains("takes a list of strings"));
        assert!(expand(r#"app = "ui://x""#)
            .unwrap_err()
            .contains("takes no value"));
        assert!(expand(r#"app(fonts = [])"#)
            .unwrap_err()
            .contains("unknown key `fonts`"));
        assert!(expand(r#"app(domain = "a", domain = "b")"#)
            .unwrap_err()
            .contains("duplicate `domain`"));
    }

    #[test]
    fn a_view_uri_is_a_ui_uri() {
        use crate::check::app_uri_error;
        assert!(app_uri_error("ui://weather/dashboard").is_none());
        for bad in [
            "https://example.com/view",
            "ui://",
            "ui:// x",
            "weather/dashboard",
        ] {
            assert!(app_uri_error(bad).unwrap().contains("`ui://"), "{bad}");
        }
    }
}
