//! `#[resource]` and `#[prompt]`: the same pipeline as `#[tool]` (attribute grammar ->
//! model of the function -> checks -> expansion), for the two other things an MCP server
//! offers. Both read a plain function whose parameters are strings from the client (template
//! variables, prompt arguments) parsed through `tool_core::catalog::ArgumentValue`.

mod app;
mod attr;
mod item;
mod prompt;
mod resource;
mod template;

pub use prompt::prompt_fn;
pub use resource::resource_fn;
