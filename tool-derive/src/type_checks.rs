//! The compile-time checks generated code makes of parameter and result types, so that a type
//! missing a trait is one error at the user's type that names the fix (see tool-core's
//! `type_checks` module for the traits and probes these expand to).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::expand::{is_leaf, Nameable};
use crate::model::{Param, ToolModel};

/// A parameter whose type is checked by `check_params` and generic in the parameters struct.
pub struct Checked<'a> {
    pub(crate) param: &'a Param,
    /// The type checked: the parameter's type, or `T` of an `Option<T>` parameter (so the
    /// field stays a syntactic `Option` for serde and schemars, and the error names `T`).
    pub(crate) ty: syn::Type,
    in_option: bool,
}

impl Checked<'_> {
    pub fn field_ty(&self, index: usize) -> syn::Type {
        let name = type_param(index);
        if self.in_option {
            syn::parse_quote!(::core::option::Option<#name>)
        } else {
            syn::parse_quote!(#name)
        }
    }
}

pub fn type_param(index: usize) -> syn::Ident {
    format_ident!("__ToolParam{}", index)
}

/// The model parameters whose type could lack `Deserialize` or `JsonSchema`: all but the
/// standard leaves (which have both) and those with `#[arg(default)]` (whose default
/// function returns the concrete type, which a generic field could not take).
pub fn checked_params(model: &ToolModel) -> Vec<Checked<'_>> {
    model
        .model_params()
        .filter(|p| p.default.is_none() && !is_leaf(&p.stored_ty))
        .map(|p| match option_arg(&p.stored_ty) {
            Some(inner) => Checked {
                param: p,
                ty: inner.clone(),
                in_option: true,
            },
            None => Checked {
                param: p,
                ty: p.stored_ty.clone(),
                in_option: false,
            },
        })
        .collect()
}

/// `T` of `Option<T>` (or `::core::option::Option<T>`), as written.
fn option_arg(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first()
        {
            Some(syn::GenericArgument::Type(inner)) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// One `Type: ToolParam<Marker>` obligation per checked parameter, spanned at its type: the
/// only error a type without `Deserialize` or `JsonSchema` produces.
pub fn check_params(model: &ToolModel, checked: &[Checked<'_>]) -> TokenStream {
    if checked.is_empty() {
        return TokenStream::new();
    }
    let krate = &model.krate;
    let checks = checked.iter().map(|c| {
        let ty = &c.ty;
        let span = syn::spanned::Spanned::span(ty);
        quote_spanned! {span=>
            <#ty as #krate::ToolParam<_>>::check(
                (&&&&__tc::ParamCheck::<#ty>::new()).param_check()
            );
        }
    });
    quote! {
        #[allow(dead_code, clippy::needless_borrow)]
        fn __tool_check_params() {
            #[allow(unused_imports)]
            use __tc::{ParamBoth as _, ParamNeither as _, ParamNoDeserialize as _, ParamNoSchema as _};
            #(#checks)*
        }
    }
}

/// The expression giving the canonical input schema, inside the `const _` block.
pub fn input_schema(model: &ToolModel) -> TokenStream {
    if checked_params(model).is_empty() {
        quote!(__tc::canonical_schema::<__ToolParams>())
    } else {
        quote! {{
            #[allow(unused_imports)]
            use __tc::{ParamsMissing as _, ParamsReady as _};
            (&__tc::ParamsProbe::<__ToolParams>::new()).schema()
        }}
    }
}

/// Converts `__tool_result` with `IntoToolResponse`, spanned at the return type so that a type
/// that does not fit is reported there. Called through the trait itself: an unmet bound then
/// names `IntoToolResponse` and no helper of ours.
///
/// A `Json<T>` result (or a `Result` of one) is checked apart: without `Serialize`, `T` would
/// fail deep in the `Json<T>` impl with serde's message. `T: ToolOutput<Marker>` reports it
/// at `T` instead, the conversion goes through `ResponseProbe` (which does not fail), and the
/// rest of the type is still required to convert, with `Json<()>` standing in for `Json<T>`.
pub fn into_response(model: &ToolModel, generics: &[syn::Ident]) -> TokenStream {
    let krate = &model.krate;
    let plain = quote_spanned! {model.ret_span=>
        #krate::IntoToolResponse::into_tool_response(__tool_result)
    };
    let Some(ret) = model.ret_ty.as_ref() else {
        return plain;
    };
    let mut nameable = Nameable { generics, ok: true };
    syn::visit::Visit::visit_type(&mut nameable, ret);
    let mut with_unit = ret.clone();
    let Some(inner) = json_arg(&mut with_unit) else {
        return plain;
    };
    if !nameable.ok {
        return plain;
    }
    let span = syn::spanned::Spanned::span(&inner);
    let output_check = quote_spanned! {span=>
        <#inner as #krate::ToolOutput<_>>::check(
            (&&__tc::OutputCheck::<#inner>::new()).output_check()
        );
    };
    let rest_check = quote_spanned! {model.ret_span=>
        #krate::IntoToolResponse::into_tool_response(__tool_rest)
    };
    quote! {{
        #[allow(dead_code, clippy::needless_borrow)]
        fn __tool_check_output(__tool_rest: #with_unit) -> #krate::ToolResponse {
            #[allow(unused_imports)]
            use __tc::{OutputNoSerialize as _, OutputSerialize as _};
            #output_check
            #rest_check
        }
        #[allow(unused_imports)]
        use __tc::{ResponseMissing as _, ResponseReady as _};
        (&__tc::ResponseProbe::of(&__tool_result)).convert(__tool_result)
    }}
}

/// The `T` of a `Json<T>` return type, or of a `Result<Json<T>, ..>` (any path ending in
/// `Result`, so `anyhow::Result<Json<T>>` too); `ty` gets `Json<()>` in its place.
fn json_arg(ty: &mut syn::Type) -> Option<syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last_mut()?;
    let syn::PathArguments::AngleBracketed(args) = &mut last.arguments else {
        return None;
    };
    if last.ident == "Json" && args.args.len() == 1 {
        let Some(syn::GenericArgument::Type(inner)) = args.args.first_mut() else {
            return None;
        };
        return Some(std::mem::replace(inner, syn::parse_quote!(())));
    }
    if last.ident == "Result" {
        if let Some(syn::GenericArgument::Type(ok)) = args.args.first_mut() {
            return json_arg(ok);
        }
    }
    None
}
