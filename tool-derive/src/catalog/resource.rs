//! `#[resource(uri = "..")] fn ..`: the function stays as written; a braced unit struct of
//! the same name implements `tool_core::catalog::Resource`, so `resources![name]` names it.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ItemFn;

use super::attr::{self, Kind};
use super::item::{self, CatalogItem};
use super::template;
use crate::attr::Spanned;
use crate::ctxt::Ctxt;
use crate::model::option_inner;

pub fn resource_fn(attr_tokens: TokenStream, item_tokens: TokenStream) -> TokenStream {
    let mut func: ItemFn = match syn::parse2(item_tokens.clone()) {
        Ok(f) => f,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[resource] goes on a function (`fn` or `async fn`) that returns the resource's contents",
            )
            .to_compile_error();
            return quote!(#error #item_tokens);
        }
    };
    let mut cx = Ctxt::default();
    let attr = attr::parse(attr_tokens, Kind::Resource, &mut cx);
    let item = item::read(&func, &attr, Kind::Resource, &mut cx);
    let uri = match &attr.uri {
        Some(uri) => {
            check_uri(&uri.value, uri.span, &item, &mut cx);
            if attr.app.is_some() {
                check_app(&uri.value, uri.span, attr.mime_type.as_ref(), &mut cx);
            }
            uri.value.clone()
        }
        None => {
            cx.error_at(
                Span::call_site(),
                "#[resource] needs a URI: #[resource(uri = \"docs://units\")], or a template whose \
                 `{variables}` are the function's parameters: #[resource(uri = \"weather://{city}/current\")]",
            );
            String::new()
        }
    };
    item::strip_param_docs(&mut func);
    match cx.check() {
        Ok(()) => {
            // An app's view is always served as the extension's HTML.
            let mime = match &attr.app {
                Some(_) => Some(APP_MIME_TYPE.to_owned()),
                None => attr.mime_type.as_ref().map(|m| m.value.clone()),
            };
            let mut metadata = attr.metadata.builder_calls(&item.krate);
            if let Some(app) = &attr.app {
                metadata.extend(app.builder_call(&item.krate));
            }
            let generated = expand(&item, &uri, mime.as_deref(), metadata, &func.vis);
            quote!(#func #generated)
        }
        Err(e) => {
            let errors = e.to_compile_error();
            quote!(#func #errors)
        }
    }
}

/// The MIME type of an MCP Apps view (`tool_core::catalog::APP_MIME_TYPE`).
const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// An app's view: a fixed `ui://` URI, served as the extension's HTML.
fn check_app(uri: &str, span: Span, mime: Option<&Spanned<String>>, cx: &mut Ctxt) {
    if let Some(message) = crate::check::app_uri_error(uri) {
        cx.error_at(span, message);
    } else if uri.contains('{') {
        cx.error_at(
            span,
            "an app's view has a fixed URI (hosts read the one a tool names): remove the `{variables}`",
        );
    }
    if let Some(mime) = mime.filter(|m| m.value != APP_MIME_TYPE) {
        cx.error_at(
            mime.span,
            format!(
                "an app's view is served as `{APP_MIME_TYPE}` (hosts render no other type): \
                 remove `mime_type`"
            ),
        );
    }
}

/// The URI has a scheme, parses as a level-1 template, and its variables are exactly the
/// function's parameters.
fn check_uri(uri: &str, span: Span, item: &CatalogItem, cx: &mut Ctxt) {
    let scheme_end = uri.find(':');
    let first_special = uri.find(['/', '{']).unwrap_or(uri.len());
    if !scheme_end.is_some_and(|end| end > 0 && end < first_special) {
        cx.error_at(
            span,
            format!("the resource URI `{uri}` has no scheme: write it as `scheme://path`, e.g. `docs://units`"),
        );
        return;
    }
    let vars = match template::variables(uri) {
        Ok(vars) => vars,
        Err(message) => {
            cx.error_at(span, format!("invalid URI template: {message}"));
            return;
        }
    };
    for var in &vars {
        if !item.client_params().any(|p| &p.name == var) {
            cx.error_at(
                span,
                format!(
                    "the URI template variable `{{{var}}}` has no parameter: add `{var}: String` (or another type \
                     that parses from text) to `fn {}`",
                    item.ident
                ),
            );
        }
    }
    for param in item.client_params() {
        if !vars.contains(&param.name) {
            cx.error_spanned_by(
                &param.ident,
                format!(
                    "the parameter `{}` is not in the URI template `{uri}`: every parameter of a resource \
                     is a `{{variable}}` of its URI; add `{{{}}}` to the URI or remove the parameter",
                    param.name, param.name
                ),
            );
        } else if option_inner(&param.ty).is_some() {
            cx.error_spanned_by(
                &param.ty,
                "a URI template variable is always present in a matching URI: use the plain type, not `Option`",
            );
        }
    }
}

fn expand(
    item: &CatalogItem,
    uri: &str,
    mime: Option<&str>,
    metadata: TokenStream,
    vis: &syn::Visibility,
) -> TokenStream {
    let krate = &item.krate;
    let ident = &item.ident;
    let name = &item.name;
    let description = &item.description;
    let struct_doc = format!(
        "The `{uri}` resource: the type `resources![..]` and the catalog use for the function `{ident}`."
    );
    let title = item
        .title
        .as_ref()
        .map(|t| quote!(.with_title(#t)))
        .unwrap_or_default();
    let with_mime = mime
        .map(|m| quote!(.with_mime_type(#m)))
        .unwrap_or_default();
    let mime_arg = match mime {
        Some(m) => quote!(::core::option::Option::Some(#m)),
        None => quote!(::core::option::Option::None),
    };
    let bindings = item.client_params().map(|p| {
        let (param, ty, wire) = (&p.ident, &p.ty, &p.name);
        quote! {
            let #param = <#ty as #krate::catalog::ArgumentValue>::from_argument(
                #wire,
                #krate::__private::template_var(__tc_vars, #wire),
            )?;
        }
    });
    let args = item.params.iter().map(|p| &p.ident);
    let awaited = item.awaited();
    let unit_struct = item.unit_struct(vis, &struct_doc, "__resource");
    let context = item.context_bindings(quote!(__tc_uri));
    let convert = quote_spanned! {item.ret_span=>
        #krate::__private::into_resource_contents(__tc_value, __tc_uri, #mime_arg)
    };
    quote! {
        #unit_struct

        impl #krate::catalog::Resource for #ident {
            fn info(&self) -> &#krate::catalog::ResourceInfo {
                static INFO: ::std::sync::OnceLock<#krate::catalog::ResourceInfo> =
                    ::std::sync::OnceLock::new();
                INFO.get_or_init(|| {
                    #krate::catalog::ResourceInfo::new(#uri, #name, #description) #title #with_mime #metadata
                })
            }

            fn read<'a>(
                &'a self,
                __tc_uri: &'a str,
                __tc_vars: &'a [(::std::string::String, ::std::string::String)],
            ) -> #krate::catalog::ResourceFuture<'a> {
                ::std::boxed::Box::pin(async move {
                    let __tc_ctx = #krate::CallContext::new();
                    #krate::catalog::Resource::read_in(self, __tc_uri, __tc_vars, &__tc_ctx).await
                })
            }

            fn read_in<'a>(
                &'a self,
                __tc_uri: &'a str,
                __tc_vars: &'a [(::std::string::String, ::std::string::String)],
                __tc_ctx: &'a #krate::CallContext,
            ) -> #krate::catalog::ResourceFuture<'a> {
                ::std::boxed::Box::pin(async move {
                    let _ = __tc_ctx;
                    #context
                    #(#bindings)*
                    let __tc_value = #ident(#(#args),*) #awaited;
                    #convert
                })
            }
        }
    }
}
