//! `#[tool_type]` and the `crate = path` argument it shares with `#[toolbox]`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::private_path;

/// `#[tool_type]`: adds the serde and schemars derives with tool-core's paths.
pub fn tool_type(attr: TokenStream, item: TokenStream) -> TokenStream {
    let krate: syn::Path = if attr.is_empty() {
        syn::parse_quote!(::tool_core)
    } else {
        match parse_crate_arg(
            attr,
            "unknown key in #[tool_type]; the only key is `crate = path`",
        ) {
            Ok(Some(p)) => p,
            Ok(None) => {
                return syn::Error::new(proc_macro2::Span::call_site(), "expected `crate = path`")
                    .to_compile_error()
            }
            Err(e) => return e.to_compile_error(),
        }
    };
    let serde_path = private_path(&krate, "serde");
    let schemars_path = private_path(&krate, "schemars");
    quote! {
        #[derive(#krate::__private::serde::Serialize, #krate::__private::serde::Deserialize, #krate::__private::schemars::JsonSchema)]
        #[serde(crate = #serde_path)]
        #[schemars(crate = #schemars_path)]
        #item
    }
}

/// `crate = path`, the one key of `#[tool_type(..)]` and `#[toolbox(..)]`; `unknown` is the
/// error for any other key. Empty input gives `None`.
pub fn parse_crate_arg(attr: TokenStream, unknown: &str) -> syn::Result<Option<syn::Path>> {
    let mut krate = None;
    syn::parse::Parser::parse2(
        syn::meta::parser(|meta| {
            if meta.path.is_ident("crate") {
                krate = Some(meta.value()?.parse()?);
                Ok(())
            } else {
                Err(meta.error(unknown))
            }
        }),
        attr,
    )?;
    Ok(krate)
}
