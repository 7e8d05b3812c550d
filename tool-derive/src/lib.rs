//! Procedural macros behind `tool-core`. Use them through `tool_core::{tool, tool_type}`.
//!
//! The pipeline is the same for every macro: parse the attribute grammar (`attr`), build a
//! checked model of the item (`model`, `docs`, `check`), then generate code from the model
//! alone (`expand`).

mod attr;
mod check;
mod ctxt;
mod docs;
mod expand;
mod model;

use proc_macro::TokenStream;

/// Turns a documented function into a tool. See `tool_core::tool` for the full grammar.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(attr.into(), item.into()).into()
}

/// Derives `Deserialize`, `Serialize` and `JsonSchema` through tool-core's re-exports, so a
/// crate can use its own types as tool parameters with no serde or schemars dependency.
#[proc_macro_attribute]
pub fn tool_type(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool_type(attr.into(), item.into()).into()
}
