//! Code generation from the checked model.
//!
//! For `fn get_weather(..)` the output is: the function, unchanged apart from parameter doc
//! comments and `#[arg]` attributes; a braced unit struct `get_weather {}` in the type
//! namespace (Rocket's pattern) with `NAME`/`DESCRIPTION` constants; and, inside
//! `const _: () = { .. };`, a private parameters struct and the `Tool` impl.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::{FnArg, ItemFn};

use crate::attr::parse_tool_attr;
use crate::check;
use crate::ctxt::Ctxt;
use crate::model::{Param, Pass, ToolFn};

pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let message =
                "#[tool] goes on a function (`fn` or `async fn`); for a struct use #[derive(Tool)]";
            let error = syn::Error::new(Span::call_site(), message).to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut cx = Ctxt::default();
    let attr = parse_tool_attr(attr, &mut cx);
    check::signature(&func, &mut cx);
    let model = ToolFn::read(&func, attr, &mut cx);
    check::tool(&model, &mut cx);
    strip_param_attrs(&mut func);
    // A tool's parameters are the fields of its JSON arguments; "too many arguments" is the
    // wrong advice for them.
    func.attrs.push(syn::parse_quote!(#[allow(clippy::too_many_arguments)]));
    match cx.check() {
        Ok(()) => {
            let generated = generate(&model);
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

/// Parameter doc comments and `#[arg]` are for the macro; rustc rejects doc comments on
/// parameters, so they must go.
fn strip_param_attrs(func: &mut ItemFn) {
    for input in func.sig.inputs.iter_mut() {
        if let FnArg::Typed(pt) = input {
            pt.attrs
                .retain(|a| !a.path().is_ident("arg") && !a.path().is_ident("doc"));
        }
    }
}

fn generate(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let ident = &model.ident;
    let vis = &model.vis;
    let name = &model.name.value;
    let description = model
        .description
        .as_ref()
        .map(|d| d.value.as_str())
        .unwrap_or_default();
    let duplicate_message = format!(
        "tools![..] lists two tools named \"{name}\": tool names must be unique; rename one with #[tool(name = \"...\")]"
    );
    let struct_doc = format!(
        "The `{name}` tool: the type `tools![..]` and the registry use for the function `{ident}`."
    );
    let krate_str = krate.to_token_stream().to_string().replace(' ', "");
    let serde_path = format!("{krate_str}::__private::serde");
    let schemars_path = format!("{krate_str}::__private::schemars");

    let fields = model.params.iter().map(|p| field(p, krate));
    let defaults = model.params.iter().filter_map(default_fn);
    let call_args = model.params.iter().map(call_arg);
    let annotations = annotations(model);
    let timeout = match &model.attr.timeout_ms {
        Some(t) => {
            let ms = t.value;
            quote!(::core::option::Option::Some(#ms))
        }
        None => quote!(::core::option::Option::None),
    };

    let into_response = quote_spanned!(model.ret_span=> __tc::into_response(__tool_result));
    let body = if model.is_async {
        quote! {
            #krate::CallFuture::new(async move {
                let __tool_params = __tool_params;
                let __tool_result = #ident(#(#call_args),*).await;
                #into_response
            })
        }
    } else {
        quote! {
            let __tool_result = #ident(#(#call_args),*);
            #krate::CallFuture::ready(#into_response)
        }
    };

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
            pub const DUPLICATE_NAME_MESSAGE: &'static str = #duplicate_message;
            /// The tool value, for `ToolRegistry::with`.
            pub const fn new() -> Self {
                #ident {}
            }
        }

        const _: () = {
            use #krate::__private as __tc;

            #[derive(__tc::serde::Deserialize, __tc::schemars::JsonSchema)]
            #[serde(crate = #serde_path, deny_unknown_fields)]
            #[schemars(crate = #schemars_path)]
            struct __ToolParams {
                #(#fields)*
            }

            #(#defaults)*

            #[automatically_derived]
            impl #krate::Tool for #ident {
                fn name(&self) -> &str {
                    #ident::NAME
                }
                fn description(&self) -> &str {
                    #ident::DESCRIPTION
                }
                fn annotations(&self) -> #krate::ToolAnnotations {
                    #annotations
                }
                fn timeout_ms(&self) -> ::core::option::Option<u64> {
                    #timeout
                }
                fn input_schema(&self) -> __tc::serde_json::Value {
                    __tc::canonical_schema::<__ToolParams>()
                }
                fn call<'a>(&'a self, arguments: &'a str, _ctx: #krate::ToolContext<'a>) -> #krate::CallFuture<'a> {
                    let __tool_params = match __tc::decode_arguments::<__ToolParams>(#ident::NAME, arguments) {
                        ::core::result::Result::Ok(p) => p,
                        ::core::result::Result::Err(response) => return #krate::CallFuture::ready(response),
                    };
                    #body
                }
            }
        };
    }
}

fn default_fn_ident(p: &Param) -> syn::Ident {
    quote::format_ident!(
        "__tool_default_{}",
        p.ident.to_string().trim_start_matches("r#")
    )
}

fn field(p: &Param, _krate: &syn::Path) -> TokenStream {
    let ident = &p.ident;
    let ty = &p.stored_ty;
    let mut attrs = TokenStream::new();
    if p.renamed {
        let wire = &p.wire_name.value;
        attrs.extend(quote!(#[serde(rename = #wire)]));
    }
    if p.default.is_some() {
        let path = default_fn_ident(p).to_string();
        attrs.extend(quote!(#[serde(default = #path)]));
    }
    if let Some(d) = &p.description {
        attrs.extend(quote!(#[doc = #d]));
    }
    quote! {
        #attrs
        #ident: #ty,
    }
}

fn default_fn(p: &Param) -> Option<TokenStream> {
    let expr = p.default.as_ref()?;
    let ident = default_fn_ident(p);
    let ty = &p.stored_ty;
    // A string literal default for a `String`/`&str` parameter needs converting; other
    // expressions are used as written so integer literals infer the parameter's type.
    let value = match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }) => {
            quote_spanned!(syn::spanned::Spanned::span(expr)=> ::core::convert::Into::into(#expr))
        }
        _ => quote!(#expr),
    };
    Some(quote! {
        fn #ident() -> #ty {
            #value
        }
    })
}

fn call_arg(p: &Param) -> TokenStream {
    let ident = &p.ident;
    match p.pass {
        Pass::Owned => quote!(__tool_params.#ident),
        Pass::Borrowed => quote!(&__tool_params.#ident),
        Pass::OptionDeref => quote!(::core::option::Option::as_deref(&__tool_params.#ident)),
    }
}

fn annotations(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let flag = |f: &Option<crate::attr::Spanned<bool>>| match f {
        Some(v) => {
            let b = v.value;
            quote!(::core::option::Option::Some(#b))
        }
        None => quote!(::core::option::Option::None),
    };
    let (ro, de, id, ow) = (
        flag(&model.attr.read_only),
        flag(&model.attr.destructive),
        flag(&model.attr.idempotent),
        flag(&model.attr.open_world),
    );
    quote! {
        #krate::ToolAnnotations { read_only: #ro, destructive: #de, idempotent: #id, open_world: #ow }
    }
}

/// `#[tool_type]`: adds the serde and schemars derives with tool-core's paths.
pub fn tool_type(attr: TokenStream, item: TokenStream) -> TokenStream {
    let krate: syn::Path = if attr.is_empty() {
        syn::parse_quote!(::tool_core)
    } else {
        match parse_crate_arg(attr) {
            Ok(p) => p,
            Err(e) => return e.to_compile_error(),
        }
    };
    let krate_str = krate.to_token_stream().to_string().replace(' ', "");
    let serde_path = format!("{krate_str}::__private::serde");
    let schemars_path = format!("{krate_str}::__private::schemars");
    quote! {
        #[derive(#krate::__private::serde::Serialize, #krate::__private::serde::Deserialize, #krate::__private::schemars::JsonSchema)]
        #[serde(crate = #serde_path)]
        #[schemars(crate = #schemars_path)]
        #item
    }
}

fn parse_crate_arg(attr: TokenStream) -> syn::Result<syn::Path> {
    let mut krate = None;
    syn::parse::Parser::parse2(
        syn::meta::parser(|meta| {
            if meta.path.is_ident("crate") {
                krate = Some(meta.value()?.parse()?);
                Ok(())
            } else {
                Err(meta.error("unknown key in #[tool_type]; the only key is `crate = path`"))
            }
        }),
        attr,
    )?;
    krate.ok_or_else(|| syn::Error::new(Span::call_site(), "expected `crate = path`"))
}
