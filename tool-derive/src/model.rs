//! The model of one tool: everything `expand` needs, read once from the function and its
//! attributes. Generation never looks at raw attributes again.

use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{Expr, FnArg, Ident, ItemFn, Pat, Path, Type};

use crate::attr::{self, Spanned, ToolAttr};
use crate::ctxt::Ctxt;
use crate::docs;

pub struct ToolFn {
    pub ident: Ident,
    pub vis: syn::Visibility,
    pub name: Spanned<String>,
    pub description: Option<Spanned<String>>,
    pub attr: ToolAttr,
    pub krate: Path,
    pub params: Vec<Param>,
    pub is_async: bool,
    pub ret_span: Span,
    /// Names documented in a `# Arguments` section, with where the docs start.
    pub documented_args: Vec<(String, Span)>,
}

/// How a stored (owned) parameter is handed to the function.
pub enum Pass {
    /// By value.
    Owned,
    /// `&str` from `String`, `&[T]` from `Vec<T>`, `&T` from `T::Owned`.
    Borrowed,
    /// `Option<&str>` from `Option<String>`, `Option<&[T]>` from `Option<Vec<T>>`.
    OptionDeref,
}

pub struct Param {
    pub ident: Ident,
    pub wire_name: Spanned<String>,
    pub renamed: bool,
    /// The type the parameters struct stores (owned).
    pub stored_ty: Type,
    pub pass: Pass,
    pub is_option: bool,
    pub description: Option<String>,
    pub default: Option<Expr>,
    pub arg_attr_span: Option<Span>,
}

impl ToolFn {
    /// Reads the function. Signature problems are `check`'s to report; parameters that are not
    /// plain identifiers are left out of the model.
    pub fn read(func: &ItemFn, attr: ToolAttr, cx: &mut Ctxt) -> ToolFn {
        let ident = func.sig.ident.clone();
        let name = match &attr.name {
            Some(n) => Spanned {
                value: n.value.clone(),
                span: n.span,
            },
            None => Spanned {
                value: ident.to_string().trim_start_matches("r#").to_string(),
                span: ident.span(),
            },
        };

        let fn_docs = docs::collect(&func.attrs, cx);
        let (doc_description, arg_docs) = match &fn_docs {
            Some(d) => {
                let (text, args) = docs::split_arguments_section(&d.text);
                (
                    Some(Spanned {
                        value: text,
                        span: d.span,
                    }),
                    args,
                )
            }
            None => (None, Vec::new()),
        };
        let description = match &attr.description {
            Some(d) => Some(Spanned {
                value: d.value.clone(),
                span: d.span,
            }),
            None => doc_description,
        };
        let doc_span = fn_docs.as_ref().map_or(ident.span(), |d| d.span);

        let mut params = Vec::new();
        for input in &func.sig.inputs {
            let FnArg::Typed(pt) = input else { continue };
            let Pat::Ident(pat) = &*pt.pat else { continue };
            if pat.by_ref.is_some() || pat.subpat.is_some() {
                continue;
            }
            let arg_attrs: Vec<&syn::Attribute> = pt
                .attrs
                .iter()
                .filter(|a| a.path().is_ident("arg"))
                .collect();
            for extra in arg_attrs.iter().skip(1) {
                cx.error_spanned_by(
                    extra,
                    "duplicate #[arg] on one parameter: merge the keys into one #[arg(...)]",
                );
            }
            let arg = arg_attrs
                .first()
                .map(|a| attr::parse_arg_attr(a, cx))
                .unwrap_or_default();
            let param_ident = pat.ident.clone();
            let plain = param_ident.to_string().trim_start_matches("r#").to_string();
            let param_docs = docs::collect(&pt.attrs, cx).map(|d| d.text);
            let from_section = arg_docs
                .iter()
                .find(|a| a.name == plain)
                .map(|a| a.text.clone());
            let description = arg
                .description
                .as_ref()
                .map(|d| d.value.clone())
                .or(param_docs)
                .or(from_section)
                .filter(|d| !d.is_empty());
            let (renamed, wire_name) = match arg.rename {
                Some(r) => (true, r),
                None => (
                    false,
                    Spanned {
                        value: plain,
                        span: param_ident.span(),
                    },
                ),
            };
            let (stored_ty, pass) = owned_form(&pt.ty);
            params.push(Param {
                ident: param_ident,
                wire_name,
                renamed,
                is_option: option_inner(&pt.ty).is_some(),
                stored_ty,
                pass,
                description,
                default: arg.default,
                arg_attr_span: arg_attrs.first().map(|a| a.span()),
            });
        }

        let krate = attr
            .krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::tool_core));
        ToolFn {
            ident,
            vis: func.vis.clone(),
            name,
            description,
            krate,
            params,
            is_async: func.sig.asyncness.is_some(),
            ret_span: match &func.sig.output {
                syn::ReturnType::Default => func.sig.ident.span(),
                syn::ReturnType::Type(_, ty) => ty.span(),
            },
            documented_args: arg_docs.into_iter().map(|a| (a.name, doc_span)).collect(),
            attr,
        }
    }
}

/// `T` for `Option<T>` (also spelled `std::option::Option<T>` / `core::option::Option<T>`).
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(tp) = ty else { return None };
    if tp.qself.is_some() {
        return None;
    }
    let last = tp.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The owned type stored in the parameters struct, and how to hand it to the function.
fn owned_form(ty: &Type) -> (Type, Pass) {
    if let Type::Reference(r) = ty {
        return (owned_of(&r.elem), Pass::Borrowed);
    }
    if let Some(Type::Reference(r)) = option_inner(ty) {
        let owned = owned_of(&r.elem);
        return (
            syn::parse_quote!(::core::option::Option<#owned>),
            Pass::OptionDeref,
        );
    }
    (ty.clone(), Pass::Owned)
}

fn owned_of(elem: &Type) -> Type {
    match elem {
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => {
            syn::parse_quote!(::std::string::String)
        }
        Type::Slice(s) => {
            let inner = &s.elem;
            syn::parse_quote!(::std::vec::Vec<#inner>)
        }
        other => syn::parse_quote!(<#other as ::std::borrow::ToOwned>::Owned),
    }
}
