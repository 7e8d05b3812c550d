//! Code generation from the checked model: the pieces every kind of tool shares. The kinds
//! themselves (function, `#[toolbox]` method, `#[derive(Tool)]` struct) are in `targets`.
//!
//! Each tool gets a private parameters struct deriving `Deserialize` + `JsonSchema` (through
//! `tool_core::__private`, so users need no serde or schemars), one `fn` per `#[arg(default)]`,
//! and a `call` body: decode the arguments, extract context parameters, run, convert the
//! result with `IntoToolResponse` (spanned at the return type, so a wrong type is reported
//! there).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};

use crate::model::{unraw, Param, Pass, ToolModel};
pub use crate::type_checks::input_schema;
use crate::type_checks::{check_params, checked_params, into_response, type_param};

/// `"::tool_core::__private::serde"` for `#[serde(crate = ..)]`.
pub fn private_path(krate: &syn::Path, module: &str) -> String {
    let base = krate.to_token_stream().to_string().replace(' ', "");
    format!("{base}::__private::{module}")
}

/// The parameters struct (`__ToolParams`) and the default functions, to be placed inside a
/// `const _: () = { use #krate::__private as __tc; .. };` block.
///
/// A field whose type might lack `Deserialize` or `JsonSchema` (see `checked_params`) is a
/// type parameter of the struct: the derives then check nothing concrete, and the one check
/// of that type is `check_params`'s, at the user's type, naming the fix.
pub fn params_struct(model: &ToolModel) -> TokenStream {
    let serde_path = private_path(&model.krate, "serde");
    let schemars_path = private_path(&model.krate, "schemars");
    let checked = checked_params(model);
    let fields = model.model_params().map(|p| {
        let generic = checked
            .iter()
            .position(|c| std::ptr::eq(c.param, p))
            .map(|i| checked[i].field_ty(i));
        field(p, generic)
    });
    let defaults = model.model_params().filter_map(default_fn);
    let derives = quote! {
        #[derive(__tc::serde::Deserialize, __tc::schemars::JsonSchema)]
        #[serde(crate = #serde_path, deny_unknown_fields)]
        #[schemars(crate = #schemars_path)]
    };
    let strukt = if checked.is_empty() {
        quote! {
            #derives
            struct __ToolParams {
                #(#fields)*
            }
        }
    } else {
        let names: Vec<syn::Ident> = (0..checked.len()).map(type_param).collect();
        let tys = checked.iter().map(|c| &c.ty);
        quote! {
            #derives
            struct __ToolParamsOf<#(#names),*> {
                #(#fields)*
            }
            type __ToolParams = __ToolParamsOf<#(#tys),*>;
        }
    };
    let checks = check_params(model, &checked);
    quote! {
        #checks
        #strukt

        #(#defaults)*
    }
}

fn default_fn_ident(p: &Param) -> syn::Ident {
    format_ident!("__tool_default_{}", unraw(&p.ident))
}

fn field(p: &Param, generic: Option<syn::Type>) -> TokenStream {
    let ident = &p.ident;
    let ty = generic.unwrap_or_else(|| p.stored_ty.clone());
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

/// Decodes the arguments into `__tool_params` and extracts every context parameter into
/// `__tool_ctx_<name>`, returning early with the error response on failure. Expects
/// `arguments: &str` and `ctx: ToolContext` in scope.
pub fn prepare(model: &ToolModel) -> TokenStream {
    let krate = &model.krate;
    let extract = model.params.iter().filter(|p| p.injected).map(|p| {
        let ty = &p.ty;
        let var = context_var(p);
        quote! {
            let #var = match <#ty as #krate::FromToolContext<'_>>::from_context(&ctx) {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(response) => return #krate::CallFuture::ready(response),
            };
        }
    });
    let name = model.name.value.as_str();
    let decode = if model.model_params().all(|p| is_leaf(&p.stored_ty)) {
        // No parameter can hold an object, so there is no nested object to close: serde's
        // own check of the top level (`deny_unknown_fields`) is the whole check.
        quote! {
            __tc::decode_arguments::<__ToolParams>(#name, arguments)
        }
    } else if checked_params(model).is_empty() {
        quote! {{
            // What the canonical schema closes below the root, read once per tool.
            static __TOOL_CLOSED: ::std::sync::OnceLock<__tc::ClosedObjects> = ::std::sync::OnceLock::new();
            __tc::decode_tool_arguments::<__ToolParams>(#name, arguments, &__TOOL_CLOSED)
        }}
    } else {
        // The same call, reached through the probe so that a parameter type without the
        // traits is reported once, by `check_params`, not here as well.
        quote! {{
            static __TOOL_CLOSED: ::std::sync::OnceLock<__tc::ClosedObjects> = ::std::sync::OnceLock::new();
            #[allow(unused_imports)]
            use __tc::{ParamsMissing as _, ParamsReady as _};
            (&__tc::ParamsProbe::<__ToolParams>::new()).decode(#name, arguments, &__TOOL_CLOSED)
        }}
    };
    quote! {
        let __tool_params = match #decode {
            ::core::result::Result::Ok(params) => params,
            ::core::result::Result::Err(response) => return #krate::CallFuture::ready(response),
        };
        #(#extract)*
    }
}

/// Whether `ty` is, as written, a standard type whose JSON form holds no object: a number,
/// `bool`, `char`, `String`, or an `Option`/`Vec` of one. Only bare names count (a path such
/// as `my::String` might be anything), so the answer errs towards "might hold an object".
pub(crate) fn is_leaf(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    if path.qself.is_some() || path.path.leading_colon.is_some() || path.path.segments.len() != 1 {
        return false;
    }
    let Some(segment) = path.path.segments.first() else {
        return false;
    };
    let name = segment.ident.to_string();
    match &segment.arguments {
        syn::PathArguments::None => matches!(
            name.as_str(),
            "i8" | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "usize"
                | "f32"
                | "f64"
                | "bool"
                | "char"
                | "String"
        ),
        syn::PathArguments::AngleBracketed(args) if name == "Option" || name == "Vec" => {
            args.args.len() == 1
                && matches!(args.args.first(), Some(syn::GenericArgument::Type(inner)) if is_leaf(inner))
        }
        _ => false,
    }
}

fn context_var(p: &Param) -> syn::Ident {
    format_ident!("__tool_ctx_{}", unraw(&p.ident))
}

/// One expression per parameter, in declaration order, as the function takes them.
pub fn call_args(model: &ToolModel) -> Vec<TokenStream> {
    model
        .params
        .iter()
        .map(|p| {
            if p.injected {
                return context_var(p).to_token_stream();
            }
            let ident = &p.ident;
            match p.pass {
                Pass::Owned => quote!(__tool_params.#ident),
                Pass::Borrowed => quote!(&__tool_params.#ident),
                Pass::OptionDeref => {
                    quote!(::core::option::Option::as_deref(&__tool_params.#ident))
                }
            }
        })
        .collect()
}

/// Runs `invocation` (a call of the user's function, not yet awaited) and converts its result.
/// `generics` are the enclosing `#[toolbox]` impl's type parameters (see [`facts`]).
pub fn finish(model: &ToolModel, invocation: TokenStream, generics: &[syn::Ident]) -> TokenStream {
    let krate = &model.krate;
    let into_response = into_response(model, generics);
    if model.is_async {
        quote! {
            #krate::CallFuture::new(async move {
                let __tool_result = #invocation.await;
                #into_response
            })
        }
    } else {
        quote! {
            let __tool_result = #invocation;
            #krate::CallFuture::ready(#into_response)
        }
    }
}

/// `Tool` methods other than `call`, from the model. `generics` are the type parameters of
/// the enclosing `impl` (a `#[toolbox]`), which a return type may not mention for the
/// output-schema probe.
pub fn facts(model: &ToolModel, generics: &[syn::Ident]) -> TokenStream {
    let krate = &model.krate;
    let name = &model.name.value;
    let description = description(model);
    let title = title(model);
    let annotations = annotations(model);
    let timeout = timeout(model);
    // Only deferred tools override the default (not deferred), so other tools expand as before.
    let defer = if model.attr.defer_loading.is_some() {
        quote!(
            fn defer_loading(&self) -> bool {
                true
            }
        )
    } else {
        TokenStream::new()
    };
    let callers = allowed_callers(model).map(|callers| {
        quote!(
            fn allowed_callers(&self) -> #krate::AllowedCallers {
                #callers
            }
        )
    });
    let task = model.attr.task.as_ref().map(|task| {
        let variant = if task.value == "required" {
            quote!(Required)
        } else {
            quote!(Optional)
        };
        quote!(
            fn task_support(&self) -> #krate::TaskSupport {
                #krate::TaskSupport::#variant
            }
        )
    });
    let output = output_schema(model, generics);
    let input_schema = input_schema(model);
    let metadata = model.attr.metadata.tool_methods(krate, quote!(&self));
    // Only tools with a view override the default (none).
    let app = model.attr.app.as_ref().map(|app| {
        let uri = &app.value;
        quote!(
            fn app(&self) -> ::core::option::Option<&str> {
                ::core::option::Option::Some(#uri)
            }
        )
    });
    quote! {
        #output
        #metadata
        #app
        fn name(&self) -> &str {
            #name
        }
        fn title(&self) -> ::core::option::Option<&str> {
            #title
        }
        fn description(&self) -> &str {
            #description
        }
        fn annotations(&self) -> #krate::ToolAnnotations {
            #annotations
        }
        fn timeout_ms(&self) -> ::core::option::Option<u64> {
            #timeout
        }
        #defer
        #callers
        #task
        fn input_schema(&self) -> __tc::serde_json::Value {
            #input_schema
        }
    }
}

pub fn description(model: &ToolModel) -> &str {
    model
        .description
        .as_ref()
        .map(|d| d.value.as_str())
        .unwrap_or_default()
}

/// `Some("..")` for `#[tool(title = "..")]`, else `None`.
pub fn title(model: &ToolModel) -> TokenStream {
    match &model.attr.title {
        Some(t) => {
            let title = &t.value;
            quote!(::core::option::Option::Some(#title))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The `AllowedCallers` a tool declared, when it is not the default (only the model).
pub fn allowed_callers(model: &ToolModel) -> Option<TokenStream> {
    let krate = &model.krate;
    let variant = match model.attr.allowed_callers.as_ref()?.value.as_str() {
        "program" => quote!(Program),
        "any" => quote!(Any),
        _ => return None,
    };
    Some(quote!(#krate::AllowedCallers::#variant))
}

pub fn timeout(model: &ToolModel) -> TokenStream {
    match &model.attr.timeout_ms {
        Some(t) => {
            let ms = t.value;
            quote!(::core::option::Option::Some(#ms))
        }
        None => quote!(::core::option::Option::None),
    }
}

pub fn annotations(model: &ToolModel) -> TokenStream {
    let krate = &model.krate;
    // `ToolAnnotations` is non-exhaustive, so the user's crate builds it from `NONE` with the
    // const `with_*` setters (the toolbox keeps it in a `const`).
    let attr = &model.attr;
    let setters = [
        (&attr.read_only, "with_read_only"),
        (&attr.destructive, "with_destructive"),
        (&attr.idempotent, "with_idempotent"),
        (&attr.open_world, "with_open_world"),
    ]
    .into_iter()
    .filter_map(|(flag, setter)| {
        let value = flag.as_ref()?.value;
        let setter = format_ident!("{setter}");
        Some(quote!(.#setter(#value)))
    });
    quote! {
        #krate::ToolAnnotations::NONE #(#setters)*
    }
}

/// The message `tools![..]` shows when two listed tools share this name.
pub fn duplicate_message(model: &ToolModel) -> String {
    format!(
        "tools![..] lists two tools named \"{}\": tool names must be unique; rename one with #[tool(name = \"...\")]",
        model.name.value
    )
}

/// Removes what the macro consumed from a parameter list: `#[arg]`, `#[context]` and doc
/// comments (rustc rejects doc comments on parameters).
pub fn strip_param_attrs(inputs: &mut syn::punctuated::Punctuated<syn::FnArg, syn::token::Comma>) {
    for input in inputs.iter_mut() {
        if let syn::FnArg::Typed(pt) = input {
            pt.attrs.retain(|a| {
                !a.path().is_ident("arg")
                    && !a.path().is_ident("doc")
                    && !a.path().is_ident("context")
            });
        }
    }
}

/// `Tool::output_schema` for a tool whose return type can be named inside the generated impl:
/// asks `OutputProbe` whether the type is `Json<T>` (or a `Result` of one) with `T: JsonSchema`,
/// so `Json<T>` keeps working for any `T: Serialize`. Nothing is emitted (the trait's default,
/// no schema) for `()`, `impl Trait`, `Self`, named lifetimes or the impl's type parameters.
pub fn output_schema(model: &ToolModel, generics: &[syn::Ident]) -> TokenStream {
    let Some(ty) = model.ret_ty.as_ref() else {
        return TokenStream::new();
    };
    let mut check = Nameable { generics, ok: true };
    syn::visit::Visit::visit_type(&mut check, ty);
    if !check.ok {
        return TokenStream::new();
    }
    output_probe(ty, quote!(&self))
}

/// The `output_schema` method probing `ty` (the return type, or a struct tool's output);
/// `receiver` is `&self` for `Tool` and empty for `StructTool`.
pub fn output_probe(ty: &impl ToTokens, receiver: TokenStream) -> TokenStream {
    // Spanned at the type: a type that cannot be named (a derived tool without a handler) is
    // then reported there once, not a second time at the macro.
    let probe = quote_spanned!(syn::spanned::Spanned::span(ty)=>
        (&__tc::OutputProbe::<#ty>::new()).output_schema()
    );
    quote! {
        // The borrow is what picks the fallback when `#ty` has no schema.
        #[allow(clippy::needless_borrow)]
        fn output_schema(#receiver) -> ::core::option::Option<__tc::serde_json::Value> {
            #[allow(unused_imports)]
            use __tc::{ProbePlain as _, ProbeStructured as _};
            #probe
        }
    }
}

pub(crate) struct Nameable<'a> {
    pub(crate) generics: &'a [syn::Ident],
    pub(crate) ok: bool,
}

impl<'ast> syn::visit::Visit<'ast> for Nameable<'_> {
    fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
        self.ok = false;
    }
    fn visit_lifetime(&mut self, lifetime: &'ast syn::Lifetime) {
        if lifetime.ident != "static" && lifetime.ident != "_" {
            self.ok = false;
        }
    }
    fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
        // An elided reference lifetime would name the function's own lifetime, unknown here.
        if reference.lifetime.is_none() {
            self.ok = false;
        }
        syn::visit::visit_type_reference(self, reference);
    }
    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        if ident == "Self" || self.generics.iter().any(|g| g == ident) {
            self.ok = false;
        }
    }
}

#[cfg(test)]
mod tests;
