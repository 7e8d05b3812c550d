//! The model of a `#[resource]` or `#[prompt]` function, and the checks both share: a plain,
//! documented, non-generic function whose parameters are named by identifiers.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned as _;
use syn::{FnArg, Ident, ItemFn, Pat, Path, Type};

use super::attr::{CatalogAttr, Kind};
use crate::ctxt::Ctxt;
use crate::docs;
use crate::model::{is_context_type, unraw};

pub struct CatalogItem {
    pub ident: Ident,
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    pub params: Vec<ItemParam>,
    pub is_async: bool,
    pub ret_span: Span,
    pub krate: Path,
}

pub struct ItemParam {
    pub ident: Ident,
    /// The name the client uses (the identifier without `r#`).
    pub name: String,
    pub ty: Type,
    pub description: Option<String>,
    /// Taken from the request's context (`ToolContext`, `CallId`, .. or `#[context]`), not
    /// from the client's arguments or the URI.
    pub context: bool,
}

/// Reads and checks the function; problems go to `cx`.
pub fn read(func: &ItemFn, attr: &CatalogAttr, kind: Kind, cx: &mut Ctxt) -> CatalogItem {
    let sig = &func.sig;
    let what = kind.attr();
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        cx.error_spanned_by(
            &sig.generics,
            format!("{what} functions cannot be generic: write a non-generic wrapper"),
        );
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        cx.error_spanned_by(unsafety, format!("{what} functions cannot be `unsafe`"));
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, format!("{what} functions cannot have an `extern` ABI"));
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, format!("{what} functions cannot be variadic"));
    }

    let doc = docs::collect(&func.attrs, cx);
    let description = match (&attr.description, doc) {
        (Some(d), _) => d.value.clone(),
        (None, Some(doc)) => doc.text,
        (None, None) => {
            let thing = match kind {
                Kind::Resource => "resource",
                Kind::Prompt => "prompt",
            };
            cx.error_spanned_by(
                &sig.ident,
                format!(
                    "{thing} `{}` has no description: add a doc comment (`/// What it holds or is for.`) \
                     or {}(description = \"...\")]. Clients show it to choose {thing}s",
                    unraw(&sig.ident),
                    what.trim_end_matches(']'),
                ),
            );
            String::new()
        }
    };

    let mut params = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => cx.error_spanned_by(
                receiver,
                format!("{what} goes on a free function, not a method: move it out of the impl"),
            ),
            FnArg::Typed(pt) => {
                let Pat::Ident(pat) = &*pt.pat else {
                    cx.error_spanned_by(
                        &pt.pat,
                        format!("{what} parameters must be plain identifiers: their names are what the client sends"),
                    );
                    continue;
                };
                if let Type::ImplTrait(_) = &*pt.ty {
                    cx.error_spanned_by(
                        &pt.ty,
                        format!("{what} parameters cannot be `impl Trait`: name a type such as `String` or `u32`"),
                    );
                    continue;
                }
                let description = docs::collect(&pt.attrs, cx).map(|d| d.text);
                let context = pt.attrs.iter().any(|a| a.path().is_ident("context"))
                    || is_context_type(&pt.ty);
                params.push(ItemParam {
                    ident: pat.ident.clone(),
                    name: unraw(&pat.ident),
                    ty: (*pt.ty).clone(),
                    description,
                    context,
                });
            }
        }
    }

    let name = attr
        .name
        .as_ref()
        .map_or_else(|| unraw(&sig.ident), |n| n.value.clone());
    CatalogItem {
        ident: sig.ident.clone(),
        name,
        title: attr.title.as_ref().map(|t| t.value.clone()),
        description,
        params,
        is_async: sig.asyncness.is_some(),
        ret_span: match &sig.output {
            syn::ReturnType::Default => sig.ident.span(),
            syn::ReturnType::Type(_, ty) => ty.span(),
        },
        krate: attr
            .krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::tool_core)),
    }
}

/// Parameter doc comments are consumed: rustc rejects doc comments on parameters.
impl CatalogItem {
    /// `.await` after the call of an `async fn`, nothing otherwise.
    pub fn awaited(&self) -> TokenStream {
        if self.is_async {
            quote!(.await)
        } else {
            quote!()
        }
    }

    /// The unit struct that stands for the function (named like it, so `prompts![f]` and
    /// `resources![f]` name the type), with the hidden constructor `constructor` the list
    /// macros call.
    pub fn unit_struct(&self, vis: &syn::Visibility, doc: &str, constructor: &str) -> TokenStream {
        let ident = &self.ident;
        let constructor = Ident::new(constructor, Span::call_site());
        quote! {
            #[doc = #doc]
            #[allow(non_camel_case_types)]
            #[derive(Clone, Copy, Debug, Default)]
            #vis struct #ident {}

            impl #ident {
                #[doc(hidden)]
                pub fn #constructor() -> Self {
                    #ident {}
                }
            }
        }
    }
}

pub fn strip_param_docs(func: &mut ItemFn) {
    for input in func.sig.inputs.iter_mut() {
        if let FnArg::Typed(pt) = input {
            pt.attrs
                .retain(|a| !a.path().is_ident("doc") && !a.path().is_ident("context"));
        }
    }
}

impl CatalogItem {
    /// The parameters the client supplies (template variables, prompt arguments).
    pub fn client_params(&self) -> impl Iterator<Item = &ItemParam> {
        self.params.iter().filter(|p| !p.context)
    }

    /// `let` bindings of the context parameters, taken from `__tc_ctx` (a `CallContext`).
    pub fn context_bindings(&self, id: TokenStream) -> TokenStream {
        let krate = &self.krate;
        let name = &self.name;
        let lets = self.params.iter().filter(|p| p.context).map(|p| {
            let (param, ty) = (&p.ident, &p.ty);
            quote!(let #param: #ty = #krate::__private::catalog_extract(&__tc_tool_ctx)?;)
        });
        if self.params.iter().all(|p| !p.context) {
            return TokenStream::new();
        }
        quote! {
            let __tc_tool_ctx = #krate::__private::catalog_context(__tc_ctx, #id, #name);
            #(#lets)*
        }
    }
}
