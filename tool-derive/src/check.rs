//! Validation: every rule a tool must satisfy, each broken rule a spanned error. All errors are
//! collected before the macro gives up.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::{FnArg, Pat, Signature, Type};

use crate::ctxt::Ctxt;
use crate::model::ToolModel;

/// What a `self` receiver may be.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Receiver {
    /// A free function: no receiver.
    Forbidden,
    /// A `#[toolbox]` method: `&self` and nothing else.
    SharedRef,
}

/// The longest description any provider accepts (OpenAI: 1024 characters).
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// Rules on the function's signature itself.
pub fn signature(sig: &Signature, receiver: Receiver, cx: &mut Ctxt) {
    if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            "#[tool] functions cannot be generic: a tool needs one concrete JSON Schema. \
             Write a non-generic wrapper that calls the generic function",
        );
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        cx.error_spanned_by(where_clause, "#[tool] functions cannot have a where clause");
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        cx.error_spanned_by(unsafety, "#[tool] functions cannot be `unsafe`: a model must not be able to trigger undefined behaviour");
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, "#[tool] functions cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, "#[tool] functions cannot be variadic");
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        if contains_impl_trait(ty) {
            cx.error_spanned_by(
                ty,
                "#[tool] functions cannot return `impl Trait`: name the type, e.g. `String` or `Json<T>`",
            );
        }
    }
    let has_receiver = sig.receiver().is_some();
    if receiver == Receiver::SharedRef && !has_receiver {
        cx.error_spanned_by(
            &sig.ident,
            "a #[tool] method in a #[toolbox] impl takes `&self`: the tool is bound to the shared instance. \
             Move a function without `self` out of the impl and mark it #[tool] there",
        );
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) if receiver == Receiver::Forbidden => cx.error_spanned_by(
                r,
                "`self` is not allowed in a free-function #[tool]: a tool method needs its impl block marked #[toolbox]",
            ),
            FnArg::Receiver(r) => {
                let shared_ref = matches!(r.kind, syn::ReceiverKind::Reference(_, _, None));
                if !shared_ref {
                    cx.error_spanned_by(
                        r,
                        "tool methods take `&self`: calls run concurrently on one shared instance, so `&mut self` \
                         and `self` cannot work. Use interior mutability (a Mutex, atomics) for state that changes",
                    );
                }
            }
            FnArg::Typed(pt) => {
                match &*pt.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {}
                    other => cx.error_spanned_by(
                        other,
                        "#[tool] parameters must be plain identifiers (the parameter name is the argument name the model sends); \
                         destructure inside the function body instead",
                    ),
                }
                check_param_type(&pt.ty, cx);
            }
        }
    }
}

fn check_param_type(ty: &Type, cx: &mut Ctxt) {
    if contains_impl_trait(ty) {
        cx.error_spanned_by(
            ty,
            "`impl Trait` cannot be a #[tool] parameter: the model's JSON is decoded into one concrete type. Use a concrete type",
        );
        return;
    }
    let mut finder = Finder::default();
    finder.visit_type(ty);
    if let Some(span) = finder.infer {
        cx.error_at(
            span,
            "#[tool] parameter types must be written out; `_` cannot be inferred",
        );
    }
    match ty {
        Type::Reference(r) if r.mutability.is_some() => cx.error_spanned_by(
            ty,
            "`&mut` parameters are not supported: the arguments come from the model; take the value by value instead",
        ),
        Type::Reference(r) if matches!(&*r.elem, Type::Reference(_)) => {
            cx.error_spanned_by(ty, "nested references cannot be #[tool] parameters")
        }
        Type::FnPtr(_) | Type::TraitObject(_) | Type::Never(_) | Type::Ptr(_) => cx.error_spanned_by(
            ty,
            "this type cannot be a #[tool] parameter: it must be decodable from JSON (Deserialize + JsonSchema)",
        ),
        _ => {}
    }
}

#[derive(Default)]
struct Finder {
    impl_trait: bool,
    infer: Option<proc_macro2::Span>,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
        self.impl_trait = true;
    }
    fn visit_type_infer(&mut self, i: &'ast syn::TypeInfer) {
        self.infer.get_or_insert(i.underscore_token.span);
    }
}

fn contains_impl_trait(ty: &Type) -> bool {
    let mut finder = Finder::default();
    finder.visit_type(ty);
    finder.impl_trait
}

/// Whether `name` matches `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
pub fn is_valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
}

/// Rules on the model: names, descriptions, annotations, parameters.
pub fn tool(model: &ToolModel, for_struct: bool, cx: &mut Ctxt) {
    if let (true, Some(reply), None) = (for_struct, &model.attr.reply, &model.attr.event) {
        cx.error_at(
            reply.span,
            "`reply` needs `event = \"...\"`: it is the confirmation of a side-channel tool",
        );
    }

    let name = &model.name;
    if !is_valid_name(&name.value) {
        cx.error_at(
            name.span,
            format!(
                "invalid tool name {:?}: use 1 to 64 ASCII letters, digits, '_' or '-', starting with a letter or '_' \
                 (^[A-Za-z_][A-Za-z0-9_-]{{0,63}}$), as every provider requires",
                name.value
            ),
        );
    }

    match &model.description {
        None => cx.error_at(
            model.ident.span(),
            format!(
                "tool `{}` has no description: add a doc comment (`/// What it does, when to use it, what it returns.`) \
                 or #[tool(description = \"...\")]. The model chooses tools by their descriptions",
                name.value
            ),
        ),
        Some(d) if d.value.trim().is_empty() => cx.error_at(d.span, "the tool description is empty: say what the tool does"),
        Some(d) if d.value.chars().count() > MAX_DESCRIPTION_CHARS => cx.error_at(
            d.span,
            format!(
                "the tool description is {} characters long; providers accept at most {MAX_DESCRIPTION_CHARS}. \
                 Shorten it, or move details into parameter descriptions",
                d.value.chars().count()
            ),
        ),
        Some(_) => {}
    }

    if let (Some(ro), Some(de)) = (&model.attr.read_only, &model.attr.destructive) {
        if ro.value && de.value {
            cx.error_at(
                de.span,
                "a tool cannot be both `read_only` and `destructive`",
            );
        }
    }
    if let Some(t) = &model.attr.timeout_ms {
        if t.value == 0 {
            cx.error_at(t.span, "`timeout_ms` must be at least 1");
        }
    }
    if let Some(app) = &model.attr.app {
        if let Some(message) = app_uri_error(&app.value) {
            cx.error_at(app.span, message);
        }
    }

    let mut seen: HashMap<&str, proc_macro2::Span> = HashMap::new();
    for param in model.params.iter().filter(|p| p.injected) {
        if let Some(span) = param.arg_attr {
            cx.error_at(
                span,
                format!(
                    "`{}` is filled by the dispatcher from the call's context, so #[arg] does not apply to it",
                    param.ident
                ),
            );
        }
    }
    for param in model.model_params() {
        let wire = &param.wire_name;
        if param.renamed && !is_valid_name(&wire.value) {
            cx.error_at(
                wire.span,
                format!(
                    "invalid parameter name {:?}: use 1 to 64 ASCII letters, digits, '_' or '-', starting with a letter or '_'",
                    wire.value
                ),
            );
        }
        if seen.insert(wire.value.as_str(), wire.span).is_some() {
            cx.error_at(
                wire.span,
                format!("two parameters are both named {:?} for the model; rename one with #[arg(rename = \"...\")]", wire.value),
            );
        }
        if let Some(default) = &param.default {
            if param.is_option {
                cx.error_spanned_by(
                    default,
                    format!(
                        "`default` cannot be used on the `Option` parameter `{}`: an absent Option is already `None`. \
                         Drop the `Option` to give it a default, or drop the default",
                        param.ident
                    ),
                );
            }
        }
        if let Some(d) = &param.description {
            if d.chars().count() > MAX_DESCRIPTION_CHARS {
                cx.error_at(
                    param.arg_attr.unwrap_or(param.ident.span()),
                    format!(
                        "the description of `{}` is longer than {MAX_DESCRIPTION_CHARS} characters",
                        param.ident
                    ),
                );
            }
        }
    }

    for (documented, span) in &model.documented_args {
        let known = model
            .params
            .iter()
            .any(|p| p.ident.to_string().trim_start_matches("r#") == documented);
        if !known {
            cx.error_at(
                *span,
                format!(
                    "the `# Arguments` section documents `{documented}`, but `{}` has no parameter of that name",
                    model.ident
                ),
            );
        }
    }
}

/// Why an MCP Apps view URI would be refused by hosts: it must use the `ui://` scheme and
/// name something (`#[tool(app = "..")]`, `#[resource(uri = "..", app)]`).
pub fn app_uri_error(uri: &str) -> Option<String> {
    match uri.strip_prefix("ui://") {
        Some(rest) if !rest.is_empty() && !rest.contains(char::is_whitespace) => None,
        _ => Some(format!(
            "an app's view is a `ui://` resource: write its URI as `ui://server/view`, e.g. \
             `ui://weather/dashboard` (got `{uri}`)"
        )),
    }
}
