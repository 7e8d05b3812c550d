//! Procedural macros behind `tool-core`. Use them through `tool_core::{tool, toolbox, Tool,
//! tool_type}`.
//!
//! The pipeline is the same for every macro: parse the attribute grammar (`attr`), build a
//! model of the item (`model`, `docs`), check it (`check`), then generate code from the model
//! alone (`expand`, `targets`).

mod attr;
mod catalog;
mod check;
mod ctxt;
mod docs;
mod expand;
mod metadata;
mod model;
mod targets;
mod tool_type;
mod type_checks;

use proc_macro::TokenStream;

/// Turns a documented function into a tool. See `tool_core::tool` for the full grammar.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    targets::tool_fn(attr.into(), item.into()).into()
}

/// Turns the `#[tool]` methods of an inherent impl block into tools bound to a shared
/// instance.
#[proc_macro_attribute]
pub fn toolbox(attr: TokenStream, item: TokenStream) -> TokenStream {
    targets::toolbox(attr.into(), item.into()).into()
}

/// Makes a struct with named fields a tool: the fields are its parameters.
#[proc_macro_derive(Tool, attributes(tool_def, arg, context))]
pub fn derive_tool(item: TokenStream) -> TokenStream {
    targets::derive_tool(item.into()).into()
}

/// Derives `Deserialize`, `Serialize` and `JsonSchema` through tool-core's re-exports, so a
/// crate can use its own types as tool parameters with no serde or schemars dependency.
///
/// Like every struct (or struct-like enum variant) used as a tool parameter, the type is a
/// closed object: its schema says `additionalProperties: false`, and a key the model misspells
/// inside it is an `INVALID_PARAM` error naming its path (`opts.verbos`). To accept any key,
/// use a map, a `#[serde(flatten)]` map field, or mark the type
/// `#[schemars(extend("additionalProperties" = true))]`.
#[proc_macro_attribute]
pub fn tool_type(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool_type::tool_type(attr.into(), item.into()).into()
}

/// Makes a documented function a resource readable by URI. See `tool_core::resource`.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    catalog::resource_fn(attr.into(), item.into()).into()
}

/// Makes a documented function a prompt whose parameters are its arguments. See
/// `tool_core::prompt`.
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    catalog::prompt_fn(attr.into(), item.into()).into()
}
