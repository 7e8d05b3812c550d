//! The attribute grammar, strict: unknown keys, duplicate keys and values of the wrong kind are
//! spanned errors. Parsing only records what was written; `check` judges it.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Expr, Lit, LitBool, LitInt, LitStr, Path};

use crate::ctxt::Ctxt;
use crate::metadata::Metadata;

/// A value and where it was written.
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// `#[tool(name = "...", title = "...", description = "...", read_only, destructive, idempotent, open_world,
/// timeout_ms = 5000, defer_loading, allowed_callers = "program", app = "ui://..", crate = path,
/// icon = "...", meta(..))]` (`icon` and `meta`:
/// see `metadata`)
#[derive(Default)]
pub struct ToolAttr {
    pub name: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub read_only: Option<Spanned<bool>>,
    pub destructive: Option<Spanned<bool>>,
    pub idempotent: Option<Spanned<bool>>,
    pub open_world: Option<Spanned<bool>>,
    pub timeout_ms: Option<Spanned<u64>>,
    /// Offered to the model only once a tool search has found it (a bare flag).
    pub defer_loading: Option<Span>,
    /// Who may call the tool: `"direct"` (the default), `"program"` or `"any"`.
    pub allowed_callers: Option<Spanned<String>>,
    /// Functions only: an MCP client may run the tool as a task; `task` alone is
    /// `"optional"`, else `task = "optional"` or `task = "required"`.
    pub task: Option<Spanned<String>>,
    /// The `ui://` resource of the tool's interactive view (MCP Apps).
    pub app: Option<Spanned<String>>,
    pub krate: Option<Path>,
    /// `#[derive(Tool)]` only: a side-channel tool that sends its arguments as this event.
    pub event: Option<Spanned<String>>,
    /// `#[derive(Tool)]` only: the confirmation a side-channel tool gives the model.
    pub reply: Option<Spanned<String>>,
    /// `icon = ".."` / `icon(..)` (repeatable) and `meta(..)`.
    pub metadata: Metadata,
}

pub const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "timeout_ms",
    "defer_loading",
    "allowed_callers",
    "app",
    "crate",
    "icon",
    "meta",
];

/// The keys `#[tool(..)]` on a function takes besides `TOOL_KEYS` (a `#[derive(Tool)]`
/// struct only carries its arguments to the application, at once: never a task).
pub const FN_ONLY_KEYS: &[&str] = &["task"];

/// The values `task = ".."` takes.
pub const TASK_SUPPORT: &[&str] = &["optional", "required"];

/// The values `allowed_callers = ".."` takes.
pub const ALLOWED_CALLERS: &[&str] = &["direct", "program", "any"];

/// The keys `#[tool_def(..)]` on a `#[derive(Tool)]` struct takes besides `TOOL_KEYS`.
pub const STRUCT_ONLY_KEYS: &[&str] = &["event", "reply"];

/// `#[arg(rename = "...", default = EXPR, description = "...")]`
#[derive(Default)]
pub struct ArgAttr {
    pub rename: Option<Spanned<String>>,
    pub default: Option<Expr>,
    pub description: Option<Spanned<String>>,
}

pub const ARG_KEYS: &[&str] = &["rename", "default", "description"];

/// Parses `#[tool(..)]` (`for_struct == false`) or `#[tool_def(..)]` on a derive.
pub fn parse_tool_attr(tokens: TokenStream, for_struct: bool, cx: &mut Ctxt) -> ToolAttr {
    let (attr_name, extra) = if for_struct {
        ("#[tool_def]", STRUCT_ONLY_KEYS)
    } else {
        ("#[tool]", FN_ONLY_KEYS)
    };
    let valid: Vec<&str> = TOOL_KEYS.iter().chain(extra).copied().collect();
    let mut attr = ToolAttr::default();
    let parser = syn::meta::parser(|meta| {
        let key = meta_key(&meta);
        match key.as_str() {
            "name" => set(cx, &meta, &mut attr.name, "name", parse_string(&meta)?),
            "title" => set(cx, &meta, &mut attr.title, "title", parse_string(&meta)?),
            "description" => set(
                cx,
                &meta,
                &mut attr.description,
                "description",
                parse_string(&meta)?,
            ),
            "read_only" => set(
                cx,
                &meta,
                &mut attr.read_only,
                "read_only",
                parse_flag(&meta)?,
            ),
            "destructive" => set(
                cx,
                &meta,
                &mut attr.destructive,
                "destructive",
                parse_flag(&meta)?,
            ),
            "idempotent" => set(
                cx,
                &meta,
                &mut attr.idempotent,
                "idempotent",
                parse_flag(&meta)?,
            ),
            "open_world" => set(
                cx,
                &meta,
                &mut attr.open_world,
                "open_world",
                parse_flag(&meta)?,
            ),
            "app" => set(cx, &meta, &mut attr.app, "app", parse_string(&meta)?),
            "timeout_ms" => set(
                cx,
                &meta,
                &mut attr.timeout_ms,
                "timeout_ms",
                parse_u64(&meta)?,
            ),
            "defer_loading" => {
                let span = parse_bare_flag(&meta)?;
                if attr.defer_loading.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate `defer_loading`: give it once");
                } else {
                    attr.defer_loading = Some(span);
                }
            }
            "allowed_callers" => {
                let value = parse_string(&meta)?;
                if !ALLOWED_CALLERS.contains(&value.value.as_str()) {
                    cx.error_at(
                        value.span,
                        format!(
                            "unknown `allowed_callers` value \"{}\": use \"direct\" (only the model, the default), \"program\" (only code the model writes) or \"any\"",
                            value.value
                        ),
                    );
                } else {
                    set(
                        cx,
                        &meta,
                        &mut attr.allowed_callers,
                        "allowed_callers",
                        value,
                    );
                }
            }
            "task" if !for_struct => {
                let value = if meta.input.peek(syn::Token![=]) {
                    parse_string(&meta)?
                } else {
                    Spanned {
                        value: "optional".to_owned(),
                        span: parse_bare_flag(&meta)?,
                    }
                };
                if TASK_SUPPORT.contains(&value.value.as_str()) {
                    set(cx, &meta, &mut attr.task, "task", value);
                } else {
                    cx.error_at(
                        value.span,
                        format!(
                            "unknown `task` value \"{}\": write `task` or `task = \"optional\"` (a task when the client supports tasks) or `task = \"required\"` (only as a task)",
                            value.value
                        ),
                    );
                }
            }
            "crate" => {
                let path: Path = meta.value()?.parse()?;
                if attr.krate.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate `crate` in #[tool]");
                } else {
                    attr.krate = Some(path);
                }
            }
            "icon" | "meta" => {
                attr.metadata.parse_key(&key, &meta, cx)?;
            }
            "event" if for_struct => set(cx, &meta, &mut attr.event, "event", parse_string(&meta)?),
            "reply" if for_struct => set(cx, &meta, &mut attr.reply, "reply", parse_string(&meta)?),
            _ => {
                unknown_key(cx, &meta, &key, attr_name, &valid);
                skip_value(&meta)?;
            }
        }
        Ok(())
    });
    if let Err(e) = parser.parse2(tokens) {
        cx.push(e);
    }
    attr
}

pub fn parse_arg_attr(attr: &syn::Attribute, cx: &mut Ctxt) -> ArgAttr {
    let mut out = ArgAttr::default();
    if let syn::Meta::Path(_) = attr.meta {
        cx.error_spanned_by(
            attr,
            "#[arg] needs at least one key: #[arg(rename = \"...\", default = ..., description = \"...\")]",
        );
        return out;
    }
    let result = attr.parse_nested_meta(|meta| {
        let key = meta_key(&meta);
        match key.as_str() {
            "rename" => set(cx, &meta, &mut out.rename, "rename", parse_string(&meta)?),
            "description" => set(
                cx,
                &meta,
                &mut out.description,
                "description",
                parse_string(&meta)?,
            ),
            "default" => {
                let expr: Expr = meta.value()?.parse()?;
                if out.default.is_some() {
                    cx.error_spanned_by(&meta.path, "duplicate `default` in #[arg]");
                } else {
                    out.default = Some(expr);
                }
            }
            _ => {
                unknown_key(cx, &meta, &key, "#[arg]", ARG_KEYS);
                skip_value(&meta)?;
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.push(e);
    }
    out
}

pub fn meta_key(meta: &ParseNestedMeta) -> String {
    let path = &meta.path;
    path.get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| quote::quote!(#path).to_string().replace(' ', ""))
}

pub fn set<T>(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta,
    slot: &mut Option<Spanned<T>>,
    key: &str,
    value: Spanned<T>,
) {
    if slot.is_some() {
        cx.error_spanned_by(&meta.path, format!("duplicate `{key}`: give it once"));
    } else {
        *slot = Some(value);
    }
}

pub fn unknown_key(cx: &mut Ctxt, meta: &ParseNestedMeta, key: &str, attr: &str, valid: &[&str]) {
    let hint = valid
        .iter()
        .find(|k| similar(k, key))
        .map(|k| format!(" Did you mean `{k}`?"))
        .unwrap_or_default();
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown key `{key}` in {attr}.{hint} Valid keys: {}.",
            valid.join(", ")
        ),
    );
}

/// A cheap typo test for attribute keys: same letters ignoring `_`, an abbreviation of at
/// least three letters, or one edit apart.
fn similar(a: &str, b: &str) -> bool {
    let fold = |s: &str| s.replace('_', "").to_lowercase();
    if fold(a) == fold(b) || (b.len() >= 3 && a.starts_with(b)) {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    a.len().max(b.len()) - prefix - suffix <= 1
}

pub fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

pub fn parse_string(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let key = meta_key(meta);
    let value = meta.value()?;
    let lit: Lit = value.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`{key}` takes a string literal, e.g. {key} = \"...\""),
        )
    })?;
    match lit {
        Lit::Str(s) => Ok(Spanned {
            value: s.value(),
            span: s.span(),
        }),
        other => Err(syn::Error::new(
            other.span(),
            format!("`{key}` takes a string literal, e.g. {key} = \"...\""),
        )),
    }
}

/// A flag that takes no value (`defer_loading`): a tool is deferred or it is not, and
/// `defer_loading = false` would only say what leaving it out says.
fn parse_bare_flag(meta: &ParseNestedMeta) -> syn::Result<Span> {
    let key = meta_key(meta);
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(syn::Error::new(
            meta.input.span(),
            format!("`{key}` takes no value: write `#[tool({key})]`, or leave it out"),
        ));
    }
    Ok(meta.path.segments[0].ident.span())
}

/// `read_only` alone means true; `read_only = false` is allowed for explicitness.
fn parse_flag(meta: &ParseNestedMeta) -> syn::Result<Spanned<bool>> {
    if meta.input.peek(syn::Token![=]) {
        let lit: LitBool = meta.value()?.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("`{}` takes `true` or `false`, or no value", meta_key(meta)),
            )
        })?;
        Ok(Spanned {
            value: lit.value,
            span: lit.span,
        })
    } else {
        Ok(Spanned {
            value: true,
            span: meta.path.segments[0].ident.span(),
        })
    }
}

fn parse_u64(meta: &ParseNestedMeta) -> syn::Result<Spanned<u64>> {
    let key = meta_key(meta);
    let lit: LitInt = meta.value()?.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`{key}` takes a whole number of milliseconds"),
        )
    })?;
    Ok(Spanned {
        value: lit.base10_parse()?,
        span: lit.span(),
    })
}

/// A string literal's value, for `#[doc = "..."]`.
pub fn doc_literal(attr: &syn::Attribute) -> Option<Result<LitStr, &Expr>> {
    if !attr.path().is_ident("doc") {
        return None;
    }
    match &attr.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(Ok(s.clone())),
            other => Some(Err(other)),
        },
        _ => None,
    }
}
