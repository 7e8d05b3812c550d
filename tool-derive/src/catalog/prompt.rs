//! `#[prompt] fn ..`: the function stays as written; a braced unit struct of the same name
//! implements `tool_core::catalog::Prompt`, so `prompts![name]` names it.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ItemFn;

use super::attr::{self, Kind};
use super::item::{self, CatalogItem};
use crate::check::is_valid_name;
use crate::ctxt::Ctxt;

pub fn prompt_fn(attr_tokens: TokenStream, item_tokens: TokenStream) -> TokenStream {
    let mut func: ItemFn = match syn::parse2(item_tokens.clone()) {
        Ok(f) => f,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[prompt] goes on a function (`fn` or `async fn`) that returns the prompt's messages",
            )
            .to_compile_error();
            return quote!(#error #item_tokens);
        }
    };
    let mut cx = Ctxt::default();
    let attr = attr::parse(attr_tokens, Kind::Prompt, &mut cx);
    let item = item::read(&func, &attr, Kind::Prompt, &mut cx);
    if let Some(name) = &attr.name {
        if !is_valid_name(&name.value) {
            cx.error_at(
                name.span,
                format!(
                    "invalid prompt name `{}`: use 1 to 64 letters, digits, `_` or `-`, starting with a letter or `_`",
                    name.value
                ),
            );
        }
    }
    item::strip_param_docs(&mut func);
    match cx.check() {
        Ok(()) => {
            let metadata = attr.metadata.builder_calls(&item.krate);
            let generated = expand(&item, metadata, &func.vis);
            quote!(#func #generated)
        }
        Err(e) => {
            let errors = e.to_compile_error();
            quote!(#func #errors)
        }
    }
}

fn expand(item: &CatalogItem, metadata: TokenStream, vis: &syn::Visibility) -> TokenStream {
    let krate = &item.krate;
    let ident = &item.ident;
    let name = &item.name;
    let description = &item.description;
    let struct_doc = format!(
        "The `{name}` prompt: the type `prompts![..]` and the catalog use for the function `{ident}`."
    );
    let title = match &item.title {
        Some(t) => quote!(::core::option::Option::Some(::std::string::String::from(#t))),
        None => quote!(::core::option::Option::None),
    };
    let arguments = item.client_params().map(|p| {
        let (ty, wire) = (&p.ty, &p.name);
        let description = match &p.description {
            Some(d) => quote!(::core::option::Option::Some(::std::string::String::from(#d))),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #krate::catalog::PromptArgumentInfo {
                name: ::std::string::String::from(#wire),
                description: #description,
                required: <#ty as #krate::catalog::ArgumentValue>::REQUIRED,
            }
        }
    });
    let bindings = item.client_params().map(|p| {
        let (param, ty, wire) = (&p.ident, &p.ty, &p.name);
        quote! {
            let #param = <#ty as #krate::catalog::ArgumentValue>::from_argument(
                #wire,
                __tc_arguments.get(#wire).map(::std::string::String::as_str),
            )?;
        }
    });
    let args = item.params.iter().map(|p| &p.ident);
    let awaited = item.awaited();
    let unit_struct = item.unit_struct(vis, &struct_doc, "__prompt");
    let context = item.context_bindings(quote!(#name));
    let convert = quote_spanned! {item.ret_span=>
        #krate::__private::into_prompt_messages(__tc_value)
    };
    quote! {
        #unit_struct

        impl #krate::catalog::Prompt for #ident {
            fn info(&self) -> &#krate::catalog::PromptInfo {
                static INFO: ::std::sync::OnceLock<#krate::catalog::PromptInfo> =
                    ::std::sync::OnceLock::new();
                INFO.get_or_init(|| #krate::catalog::PromptInfo {
                    name: ::std::string::String::from(#name),
                    title: #title,
                    description: ::std::string::String::from(#description),
                    arguments: ::std::vec![#(#arguments),*],
                    icons: ::std::vec::Vec::new(),
                    meta: ::core::option::Option::None,
                } #metadata)
            }

            fn render<'a>(
                &'a self,
                __tc_arguments: &'a #krate::catalog::PromptArguments,
            ) -> #krate::catalog::PromptFuture<'a> {
                ::std::boxed::Box::pin(async move {
                    let __tc_ctx = #krate::CallContext::new();
                    #krate::catalog::Prompt::render_in(self, __tc_arguments, &__tc_ctx).await
                })
            }

            fn render_in<'a>(
                &'a self,
                __tc_arguments: &'a #krate::catalog::PromptArguments,
                __tc_ctx: &'a #krate::CallContext,
            ) -> #krate::catalog::PromptFuture<'a> {
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
