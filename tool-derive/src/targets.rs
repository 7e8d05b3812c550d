//! The three items that become tools, each read into a `ToolModel`, checked, and expanded:
//!
//! - `#[tool] fn get_weather(..)`: the function, unchanged apart from parameter doc comments
//!   and helper attributes, plus a braced unit struct `get_weather {}` in the type namespace
//!   (Rocket's pattern) that implements `Tool`, so `tools![get_weather]` names it as written;
//! - `#[toolbox] impl Files { #[tool] fn read(&self, ..) }`: one hidden tool type per method
//!   holding an `Arc<Files>`, and `ToolSet for Files` listing them;
//! - `#[derive(Tool)] struct ShowCards { .. }`: `StructTool for ShowCards`, run by its
//!   `ToolHandler` impl, or sent to the UI as an event with `#[tool_def(event = "..")]`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{ImplItem, ItemFn, ItemImpl};

use crate::attr::parse_tool_attr;
use crate::check::{self, Receiver};
use crate::ctxt::Ctxt;
use crate::expand::{self, call_args, facts, finish, params_struct, prepare, strip_param_attrs};
use crate::model::{unraw, ToolModel};
use crate::tool_type::parse_crate_arg;

/// `#[tool]` on a free function.
pub fn tool_fn(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let message = "#[tool] goes on a function (`fn` or `async fn`); for a struct use #[derive(Tool)], \
                           for methods mark the impl block #[toolbox]";
            let error = syn::Error::new(Span::call_site(), message).to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut cx = Ctxt::default();
    let attr = parse_tool_attr(attr, false, &mut cx);
    check::signature(&func.sig, Receiver::Forbidden, &mut cx);
    let model = ToolModel::from_fn(&func.sig, &func.attrs, attr, &mut cx);
    check::tool(&model, false, &mut cx);
    tidy(&mut func.sig, &mut func.attrs);
    match cx.check() {
        Ok(()) => {
            let generated = free_fn_tool(&model, &func.vis);
            quote!(#func #generated)
        }
        // Keep the function itself so the user's other code still resolves it and only the
        // real mistakes are reported.
        Err(e) => {
            let errors = e.to_compile_error();
            quote!(#func #errors)
        }
    }
}

/// What the macro consumed goes; a lint that gives the wrong advice for tools is allowed:
/// a tool's parameters are the fields of its JSON arguments, however many there are.
fn tidy(sig: &mut syn::Signature, attrs: &mut Vec<syn::Attribute>) {
    strip_param_attrs(&mut sig.inputs);
    attrs.push(syn::parse_quote!(#[allow(clippy::too_many_arguments)]));
}

fn free_fn_tool(model: &ToolModel, vis: &syn::Visibility) -> TokenStream {
    let krate = &model.krate;
    let ident = &model.ident;
    let name = &model.name.value;
    let description = expand::description(model);
    let duplicate = expand::duplicate_message(model);
    let struct_doc = format!(
        "The `{name}` tool: the type `tools![..]` and the registry use for the function `{ident}`."
    );
    let params = params_struct(model);
    let facts = facts(model, &[]);
    let prepare = prepare(model);
    let args = call_args(model);
    let body = finish(model, quote!(#ident(#(#args),*)), &[]);
    quote! {
        #[doc = #struct_doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #ident {}

        impl #ident {
            /// The tool's name, as the model calls it.
            pub const NAME: &'static str = #name;
            /// The tool's description, as the model reads it.
            pub const DESCRIPTION: &'static str = #description;
            #[doc(hidden)]
            pub const __TOOL_NAME: &'static str = #name;
            #[doc(hidden)]
            pub const __TOOL_DUPLICATE: &'static str = #duplicate;
            /// The tool value, for `ToolRegistry::with`.
            pub const fn new() -> Self {
                #ident {}
            }
            #[doc(hidden)]
            pub const fn __tool() -> Self {
                #ident {}
            }
        }

        const _: () = {
            use #krate::__private as __tc;
            #params

            #[automatically_derived]
            impl #krate::Tool for #ident {
                #facts
                #[allow(unused_variables)]
                fn call<'a>(&'a self, arguments: &'a str, ctx: #krate::ToolContext<'a>) -> #krate::CallFuture<'a> {
                    #prepare
                    #body
                }
            }
        };
    }
}

/// `#[toolbox]` on an inherent impl block.
pub fn toolbox(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut imp: ItemImpl = match syn::parse2(item.clone()) {
        Ok(i) => i,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[toolbox] goes on an `impl` block whose methods are marked #[tool]",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut cx = Ctxt::default();
    let default_crate = parse_toolbox_attr(attr, &mut cx);
    if let Some((path, _)) = &imp.trait_ {
        cx.error_spanned_by(
            path,
            "#[toolbox] goes on an inherent impl block (`impl Type { .. }`), not a trait impl",
        );
    }
    for lifetime in imp.generics.lifetimes() {
        cx.error_spanned_by(
            lifetime,
            "#[toolbox] impl blocks cannot have lifetime parameters: the tools share the instance for as long as the registry lives",
        );
    }

    let mut models = Vec::new();
    for item in imp.items.iter_mut() {
        let ImplItem::Fn(method) = item else { continue };
        let tool_attrs: Vec<syn::Attribute> = method
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("tool"))
            .cloned()
            .collect();
        let Some(first) = tool_attrs.first() else {
            continue;
        };
        for extra in tool_attrs.iter().skip(1) {
            cx.error_spanned_by(
                extra,
                "duplicate #[tool] on one method: merge the keys into one #[tool(..)]",
            );
        }
        method.attrs.retain(|a| !a.path().is_ident("tool"));
        let tokens = match &first.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => TokenStream::new(),
        };
        let mut attr = parse_tool_attr(tokens, false, &mut cx);
        if attr.krate.is_none() {
            attr.krate = default_crate.clone();
        }
        check::signature(&method.sig, Receiver::SharedRef, &mut cx);
        let model = ToolModel::from_fn(&method.sig, &method.attrs, attr, &mut cx);
        check::tool(&model, false, &mut cx);
        tidy(&mut method.sig, &mut method.attrs);
        models.push(model);
    }
    if models.is_empty() && imp.trait_.is_none() {
        cx.error_at(
            syn::spanned::Spanned::span(&*imp.self_ty),
            "#[toolbox] impl has no #[tool] methods: mark the methods the model may call with #[tool]",
        );
    }
    match cx.check() {
        Ok(()) => {
            let generated = toolbox_tools(&imp, &models, default_crate);
            quote!(#imp #generated)
        }
        Err(e) => {
            let errors = e.to_compile_error();
            quote!(#imp #errors)
        }
    }
}

fn parse_toolbox_attr(attr: TokenStream, cx: &mut Ctxt) -> Option<syn::Path> {
    parse_crate_arg(
        attr,
        "unknown key in #[toolbox]; the only key is `crate = path` (tool options go on each #[tool] method)",
    )
    .unwrap_or_else(|e| {
        cx.push(e);
        None
    })
}

fn toolbox_tools(
    imp: &ItemImpl,
    models: &[ToolModel],
    default_crate: Option<syn::Path>,
) -> TokenStream {
    let krate = default_crate.unwrap_or_else(|| syn::parse_quote!(::tool_core));
    let self_ty = &imp.self_ty;
    let mut generics = imp.generics.clone();
    {
        let where_clause = generics.make_where_clause();
        where_clause.predicates.push(
            syn::parse_quote!(#self_ty: ::core::marker::Send + ::core::marker::Sync + 'static),
        );
    }
    let type_params: Vec<syn::Ident> = imp
        .generics
        .type_params()
        .map(|p| p.ident.clone())
        .collect();
    for param in &type_params {
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(#param: 'static));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let mut items = Vec::new();
    let mut constructors = Vec::new();
    for model in models {
        let tool_ty = format_ident!("__Toolbox_{}", unraw(&model.ident));
        let method = &model.ident;
        let params = params_struct(model);
        let facts = facts(model, &type_params);
        let prepare = prepare(model);
        let args = call_args(model);
        let body = finish(
            model,
            quote!(<#self_ty>::#method(&self.0, #(#args),*)),
            &type_params,
        );
        let mkrate = &model.krate;
        items.push(quote! {
            #[allow(non_camel_case_types)]
            struct #tool_ty #impl_generics (::std::sync::Arc<#self_ty>) #where_clause;

            const _: () = {
                #params

                #[automatically_derived]
                impl #impl_generics #mkrate::Tool for #tool_ty #ty_generics #where_clause {
                    #facts
                    #[allow(unused_variables)]
                    fn call<'a>(&'a self, arguments: &'a str, ctx: #mkrate::ToolContext<'a>) -> #mkrate::CallFuture<'a> {
                        #prepare
                        #body
                    }
                }
            };
        });
        constructors.push(quote! {
            ::std::sync::Arc::new(#tool_ty(::std::sync::Arc::clone(&this))) as ::std::sync::Arc<dyn #krate::Tool>
        });
    }
    quote! {
        const _: () = {
            use #krate::__private as __tc;
            #(#items)*

            #[automatically_derived]
            impl #impl_generics #krate::ToolSet for #self_ty #where_clause {
                fn tools(this: ::std::sync::Arc<Self>) -> ::std::vec::Vec<::std::sync::Arc<dyn #krate::Tool>> {
                    ::std::vec![#(#constructors),*]
                }
            }
        };
    }
}

/// `#[derive(Tool)]` on a struct with named fields.
pub fn derive_tool(item: TokenStream) -> TokenStream {
    let input: syn::DeriveInput = match syn::parse2(item) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = Ctxt::default();
    let fields = match &input.data {
        syn::Data::Struct(syn::DataStruct {
            fields: syn::Fields::Named(named),
            ..
        }) => Some(named),
        syn::Data::Struct(_) => {
            cx.error_spanned_by(
                &input.ident,
                "#[derive(Tool)] needs a struct with named fields: each field is a parameter the model fills in by name",
            );
            None
        }
        syn::Data::Enum(e) => {
            cx.error_spanned_by(
                e.enum_token,
                "#[derive(Tool)] goes on a struct with named fields, not an enum: make each action its own tool, \
                 or give a struct tool a field of this enum type",
            );
            None
        }
        syn::Data::Union(u) => {
            cx.error_spanned_by(
                u.union_token,
                "#[derive(Tool)] goes on a struct with named fields, not a union",
            );
            None
        }
    };
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "#[derive(Tool)] structs cannot be generic: a tool needs one concrete JSON Schema",
        );
    }
    let def_attrs: Vec<&syn::Attribute> = input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("tool_def"))
        .collect();
    for extra in def_attrs.iter().skip(1) {
        cx.error_spanned_by(
            extra,
            "duplicate #[tool_def]: merge the keys into one #[tool_def(..)]",
        );
    }
    let tokens = match def_attrs.first().map(|a| &a.meta) {
        Some(syn::Meta::List(list)) => list.tokens.clone(),
        _ => TokenStream::new(),
    };
    let attr = parse_tool_attr(tokens, true, &mut cx);
    let Some(fields) = fields else {
        return cx
            .check()
            .err()
            .map(|e| e.to_compile_error())
            .unwrap_or_default();
    };
    let mut model = ToolModel::from_struct(&input.ident, &input.attrs, fields, attr, &mut cx);
    check::tool(&model, true, &mut cx);
    if let Err(e) = cx.check() {
        return e.to_compile_error();
    }
    model.is_async = true;
    struct_tool(&model)
}

fn struct_tool(model: &ToolModel) -> TokenStream {
    let krate = &model.krate;
    let ident = &model.ident;
    let name = &model.name.value;
    let description = expand::description(model);
    let duplicate = expand::duplicate_message(model);
    let annotations = expand::annotations(model);
    let timeout = expand::timeout(model);
    let defer = if model.attr.defer_loading.is_some() {
        quote!(
            const DEFER_LOADING: bool = true;
        )
    } else {
        TokenStream::new()
    };
    let callers = expand::allowed_callers(model).map(|callers| {
        quote!(
            const ALLOWED_CALLERS: #krate::AllowedCallers = #callers;
        )
    });
    let app = model.attr.app.as_ref().map(|app| {
        let uri = &app.value;
        quote!(
            const APP: ::core::option::Option<&'static str> = ::core::option::Option::Some(#uri);
        )
    });
    let title = expand::title(model);
    let metadata = model.attr.metadata.tool_methods(krate, TokenStream::new());
    let params = params_struct(model);
    let input_schema = expand::input_schema(model);
    let prepare = prepare(model);
    let field_idents: Vec<&syn::Ident> = model.params.iter().map(|p| &p.ident).collect();
    let args = call_args(model);
    let run = match &model.attr.event {
        Some(kind) => side_channel(model, &kind.value),
        None => {
            // The whole call (not only its path) is spanned at the struct's name, as is the
            // output probe's `<#ident as ToolHandler>::Output` below: a missing handler is then
            // the same error at the same place, which rustc reports once.
            let handler = quote_spanned!(ident.span()=>
                <#ident as #krate::ToolHandler>::run(__tool_value, ctx)
            );
            finish(model, handler, &[])
        }
    };
    // A side-channel tool returns no data; a handler's output may have a schema.
    let output = match &model.attr.event {
        Some(_) => TokenStream::new(),
        None => expand::output_probe(
            &quote_spanned!(ident.span()=> <#ident as #krate::ToolHandler>::Output),
            TokenStream::new(),
        ),
    };
    quote! {
        impl #ident {
            #[doc(hidden)]
            pub const __TOOL_NAME: &'static str = #name;
            #[doc(hidden)]
            pub const __TOOL_DUPLICATE: &'static str = #duplicate;
            #[doc(hidden)]
            pub const fn __tool() -> #krate::ToolOf<Self> {
                #krate::ToolOf::new()
            }
        }

        const _: () = {
            use #krate::__private as __tc;
            #params

            #[automatically_derived]
            impl #krate::StructTool for #ident {
                const NAME: &'static str = #name;
                const DESCRIPTION: &'static str = #description;
                const TITLE: ::core::option::Option<&'static str> = #title;
                const ANNOTATIONS: #krate::ToolAnnotations = #annotations;
                const TIMEOUT_MS: ::core::option::Option<u64> = #timeout;
                #defer
                #callers
                #app
                fn input_schema() -> __tc::serde_json::Value {
                    #input_schema
                }
                #metadata
                #output
                #[allow(unused_variables)]
                fn call<'a>(arguments: &'a str, ctx: #krate::ToolContext<'a>) -> #krate::CallFuture<'a> {
                    #prepare
                    let __tool_value = #ident { #(#field_idents: #args),* };
                    #run
                }
            }
        };
    }
}

/// A side-channel tool answers at once: its arguments go to the UI as one event (the model's
/// fields, by their wire names), and the model gets a short confirmation.
fn side_channel(model: &ToolModel, kind: &str) -> TokenStream {
    let krate = &model.krate;
    let reply = model
        .attr
        .reply
        .as_ref()
        .map(|r| r.value.clone())
        .unwrap_or_else(|| "Shown to the user.".to_string());
    let inserts = model.model_params().map(|p| {
        let ident = &p.ident;
        let wire = &p.wire_name.value;
        quote! {
            match __tc::serde_json::to_value(&__tool_value.#ident) {
                ::core::result::Result::Ok(value) => { __tool_event.insert(#wire.to_string(), value); }
                ::core::result::Result::Err(e) => return #krate::CallFuture::ready(#krate::ToolResponse::error(
                    #krate::ToolErrorCode::ExecutionError,
                    ::std::format!("the '{}' field could not be serialized for the UI: {}", #wire, e),
                )),
            }
        }
    });
    quote! {
        let mut __tool_event = __tc::serde_json::Map::new();
        #(#inserts)*
        #krate::CallFuture::ready(
            #krate::ToolResponse::success(#reply)
                .with_event(#krate::ToolEvent::new(#kind, __tc::serde_json::Value::Object(__tool_event))),
        )
    }
}
