//! The model of one tool: everything `expand` needs, read once from the item and its
//! attributes. Generation never looks at raw attributes again. Three items become tools — a
//! free function, a method of a `#[toolbox]` impl, a `#[derive(Tool)]` struct — and all three
//! are read into the same model.

use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, FnArg, Ident, Pat, Path, Signature, Type};

use crate::attr::{self, Spanned, ToolAttr};
use crate::ctxt::Ctxt;
use crate::docs::{self, ArgumentDoc};

pub struct ToolModel {
    pub ident: Ident,
    pub name: Spanned<String>,
    pub description: Option<Spanned<String>>,
    pub attr: ToolAttr,
    pub krate: Path,
    pub params: Vec<Param>,
    pub is_async: bool,
    pub ret_span: Span,
    /// The declared return type (`None` for `()` and for struct tools).
    pub ret_ty: Option<Type>,
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
    /// The type as written.
    pub ty: Type,
    /// The type the parameters struct stores (owned).
    pub stored_ty: Type,
    pub pass: Pass,
    pub is_option: bool,
    pub description: Option<String>,
    pub default: Option<Expr>,
    pub arg_attr: Option<Span>,
    /// Filled by the dispatcher from the call's context, never sent by the model.
    pub injected: bool,
}

/// The description (attribute over doc comment) and any `# Arguments` bullets.
struct Described {
    description: Option<Spanned<String>>,
    arg_docs: Vec<ArgumentDoc>,
    doc_span: Option<Span>,
}

fn describe(attrs: &[Attribute], attr: &ToolAttr, cx: &mut Ctxt) -> Described {
    let docs = docs::collect(attrs, cx);
    let (from_docs, arg_docs) = match &docs {
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
        None => from_docs,
    };
    Described {
        description,
        arg_docs,
        doc_span: docs.map(|d| d.span),
    }
}

impl Described {
    /// The `# Arguments` bullets as (name, text) pairs, for the parameter readers.
    fn bullets(&self) -> Vec<(String, String)> {
        self.arg_docs
            .iter()
            .map(|a| (a.name.clone(), a.text.clone()))
            .collect()
    }
}

impl ToolModel {
    fn new(ident: &Ident, default_name: String, attr: ToolAttr, described: Described) -> ToolModel {
        let name = match &attr.name {
            Some(n) => Spanned {
                value: n.value.clone(),
                span: n.span,
            },
            None => Spanned {
                value: default_name,
                span: ident.span(),
            },
        };
        let krate = attr
            .krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::tool_core));
        let doc_span = described.doc_span.unwrap_or(ident.span());
        ToolModel {
            ident: ident.clone(),
            name,
            description: described.description,
            attr,
            krate,
            params: Vec::new(),
            is_async: false,
            ret_span: ident.span(),
            ret_ty: None,
            documented_args: described
                .arg_docs
                .iter()
                .map(|a| (a.name.clone(), doc_span))
                .collect(),
        }
    }

    /// Reads a function or method. Signature problems are `check`'s to report; parameters
    /// that are not plain identifiers are left out of the model.
    pub fn from_fn(
        sig: &Signature,
        attrs: &[Attribute],
        attr: ToolAttr,
        cx: &mut Ctxt,
    ) -> ToolModel {
        let described = describe(attrs, &attr, cx);
        let arg_docs = described.bullets();
        let default_name = unraw(&sig.ident);
        let mut model = ToolModel::new(&sig.ident, default_name, attr, described);
        for input in &sig.inputs {
            let FnArg::Typed(pt) = input else { continue };
            let Pat::Ident(pat) = &*pt.pat else { continue };
            if pat.by_ref.is_some() || pat.subpat.is_some() {
                continue;
            }
            model
                .params
                .push(read_param(&pat.ident, &pt.ty, &pt.attrs, &arg_docs, cx));
        }
        model.is_async = sig.asyncness.is_some();
        model.ret_span = match &sig.output {
            syn::ReturnType::Default => sig.ident.span(),
            syn::ReturnType::Type(_, ty) => ty.span(),
        };
        if let syn::ReturnType::Type(_, ty) = &sig.output {
            model.ret_ty = Some((**ty).clone());
        }
        model
    }

    /// Reads a `#[derive(Tool)]` struct: its named fields are the parameters.
    pub fn from_struct(
        ident: &Ident,
        attrs: &[Attribute],
        fields: &syn::FieldsNamed,
        attr: ToolAttr,
        cx: &mut Ctxt,
    ) -> ToolModel {
        let described = describe(attrs, &attr, cx);
        let arg_docs = described.bullets();
        let mut model = ToolModel::new(ident, snake_case(&unraw(ident)), attr, described);
        for field in &fields.named {
            if let Some(field_ident) = &field.ident {
                model.params.push(read_param(
                    field_ident,
                    &field.ty,
                    &field.attrs,
                    &arg_docs,
                    cx,
                ));
            }
        }
        model
    }

    /// The parameters the model sends.
    pub fn model_params(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| !p.injected)
    }
}

fn read_param(
    ident: &Ident,
    ty: &Type,
    attrs: &[Attribute],
    arg_docs: &[(String, String)],
    cx: &mut Ctxt,
) -> Param {
    let arg_attrs: Vec<&Attribute> = attrs.iter().filter(|a| a.path().is_ident("arg")).collect();
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
    let marked_context = attrs.iter().any(|a| a.path().is_ident("context"));
    let plain = unraw(ident);
    let param_docs = docs::collect(attrs, cx).map(|d| d.text);
    let from_section = arg_docs
        .iter()
        .find(|(name, _)| *name == plain)
        .map(|(_, text)| text.clone());
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
                span: ident.span(),
            },
        ),
    };
    let (stored_ty, pass) = owned_form(ty);
    Param {
        ident: ident.clone(),
        wire_name,
        renamed,
        is_option: option_inner(ty).is_some(),
        ty: ty.clone(),
        stored_ty,
        pass,
        description,
        default: arg.default,
        arg_attr: arg_attrs.first().map(|a| a.span()),
        injected: marked_context || is_context_type(ty),
    }
}

pub fn unraw(ident: &Ident) -> String {
    ident.to_string().trim_start_matches("r#").to_string()
}

/// `ShowRecommendationCards` -> `show_recommendation_cards`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let before_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && (after_lower || (before_lower && chars[i - 1].is_uppercase())) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

/// The context types `#[tool]` recognises without `#[context]`.
const CONTEXT_TYPES: &[&str] = &[
    "ToolContext",
    "CallId",
    "Extension",
    "CancelFlag",
    "ProgressReporter",
];

pub fn is_context_type(ty: &Type) -> bool {
    let ty = option_inner(ty).unwrap_or(ty);
    let Type::Path(tp) = ty else { return false };
    tp.qself.is_none()
        && tp
            .path
            .segments
            .last()
            .is_some_and(|s| CONTEXT_TYPES.iter().any(|c| s.ident == c))
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

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn struct_names_become_snake_case_tool_names() {
        assert_eq!(
            snake_case("ShowRecommendationCards"),
            "show_recommendation_cards"
        );
        assert_eq!(snake_case("HTTPGet"), "http_get");
        assert_eq!(snake_case("Reverse"), "reverse");
        assert_eq!(snake_case("Get2Items"), "get2_items");
    }
}
