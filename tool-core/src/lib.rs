//! Declarative tool calling for language models.
//!
//! One `#[tool]` attribute on a plain function gives a JSON Schema for its parameters, a
//! description from its doc comments, provider-ready definitions, and a typed dispatcher that
//! always answers with a [`ToolResponse`].
//!
//! ```
//! use tool_core::{tool, tools, Json, ToolCall};
//!
//! #[tool_core::tool_type]
//! struct Weather { city: String, temp_c: f32 }
//!
//! /// Current weather for a city.
//! #[tool(read_only)]
//! fn get_weather(
//!     /// City name, e.g. "Paris".
//!     city: String,
//! ) -> Json<Weather> {
//!     Json(Weather { city, temp_c: 21.5 })
//! }
//!
//! let registry = tools![get_weather];
//! let reply = registry.call_blocking(&ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#));
//! assert_eq!(reply.model_text(), r#"{"city":"Paris","temp_c":21.5}"#);
//! ```
//!
//! # Failures
//!
//! Dispatch never panics and answers every call with exactly one response: panicking tools,
//! hostile arguments (oversized, too deeply nested, not UTF-8), unoffered or unapproved tools,
//! time-outs and open circuits each have a code and an instructive message. See
//! [`ToolRegistry::call_with`], [`CallOptions`], [`Limits`], [`BreakerConfig`], [`RetryPolicy`]
//! and `docs/failure-behaviour.md`.
//!
//! # What to send on every turn
//!
//! [`ToolRegistry::tool_list`] keeps each provider's tools JSON ready ([`ToolListFormat`]):
//! built once, handed out by reference. Dispatch with [`ToolCallRef`] (borrowed strings) and
//! take the text with [`ToolResponse::into_model_text`] to keep a call close to hand-written
//! serde code. [`testing`] checks a registry against every provider's rules in your tests.
//!
//! # Agent loop
//!
//! [`runner::Runner`] runs the loop from a user message to the final answer on any
//! [`model::Model`]: streamed text, concurrent calls, approval pauses, typed limits. The loop
//! itself is the sans-IO [`runner::Run`]; [`model::ScriptedModel`] and [`model::TextMode`] (tool
//! calling over a text-only model in any [`parse::ToolFormat`]) need no network.
//!
//! # Cargo features
//!
//! - `tokio` (off): time limits (`#[tool(timeout_ms = N)]`,
//!   [`ToolRegistry::with_default_timeout`]) and retry back-offs use tokio's timer inside a
//!   tokio runtime. Without it, or outside a runtime, they are enforced all the same on one
//!   timer thread of the crate's own, so the core works under any executor.
//! - `tracing` (off): one `tool_call` span per call with tool, call id, status, code, duration.
//! - `http` (off; implies `tokio`): model adapters over HTTP for OpenAI Chat Completions,
//!   OpenAI Responses, Anthropic Messages and Gemini (`model::OpenAiChat`, ...;
//!   `model::from_env`), on reqwest (rustls with ring), eventsource-stream and backon; see
//!   the `http` module.
//! - `mcp` (off; implies `tokio`): the `mcp` module, an MCP server for any registry and an MCP client
//!   whose tools join a registry, on rmcp and tokio.

#![warn(missing_docs)]
// Failures are `ToolResponse`s by design: the caller hands them back to the model as they
// are. Boxing them to please this lint would add an allocation to every failure path.
#![allow(clippy::result_large_err)]

mod args;
mod call;
pub mod catalog;
mod clock;
mod context;
mod definition;
mod dispatch;
mod executor;
#[cfg(feature = "http")]
pub mod http;
mod into_response;
#[cfg(feature = "mcp")]
pub mod mcp;
mod metadata;
pub mod model;
mod namespace;
mod output_schema;
pub mod parse;
mod peer;
mod policy;
mod principal;
pub mod prompt;
mod prompt_message;
pub mod provider;
mod raw_json;
mod registry;
mod response;
pub mod runner;
pub mod schema;
pub mod search;
mod struct_tool;
mod suggest;
mod task_support;
pub mod testing;
mod timer;
mod tool;
mod tool_fn;
mod type_checks;

pub use call::{AllowedCallers, Caller, ToolCall, ToolCallRef};
pub use context::{
    CallContext, CallId, CancelFlag, Extension, Extensions, FromToolContext, ToolContext,
};
pub use context::{Progress, ProgressReporter};
pub use definition::{StrictMode, ToolAnnotations, ToolDefinition};
pub use dispatch::CallOptions;
pub use executor::block_on;
pub use into_response::{Audio, File, Image, IntoToolResponse, Json, ToolError};
pub use metadata::{Icon, IconTheme, Meta};
pub use namespace::ToolNamespace;
pub use output_schema::{output_schema_of, StructuredOutput};
pub use peer::{
    ClientPeer, Elicited, LogLevel, PeerError, PeerFuture, Root, SamplingReply, SamplingRequest,
};
pub use policy::{Approval, ApprovalHook, BreakerConfig, CircuitState, Limits, RetryPolicy};
pub use principal::Principal;
pub use raw_json::RawJson;
pub use registry::Shape;
pub use registry::{
    is_valid_tool_name, RegistryError, ToolKey, ToolList, ToolListFormat, ToolRegistry,
};
pub use response::{Attachment, AttachmentKind};
pub use response::{ErrorInfo, Stats, ToolErrorCode, ToolEvent, ToolResponse, ToolStatus};
pub use struct_tool::{StructTool, ToolHandler, ToolOf};
pub use task_support::TaskSupport;
pub use tool::{CallFuture, Tool, ToolSet};
pub use tool_core_derive::{prompt, resource, tool, tool_type, toolbox, Tool};
pub use tool_fn::ToolFn;
// What a compile error about a parameter or result type names; not for use in your own code.
#[doc(hidden)]
pub use type_checks::{missing, ToolOutput, ToolParam};

// The README's and the guide's examples compile and pass as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}

// The crate's own README, the page crates.io shows.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod crate_readme {}

#[cfg(doctest)]
mod guide {
    #[doc = include_str!("../../docs/defining-tools.md")]
    mod defining_tools {}
    #[doc = include_str!("../../docs/responses.md")]
    mod responses {}
    #[doc = include_str!("../../docs/xml-mode.md")]
    mod xml_mode {}
    #[doc = include_str!("../../docs/providers.md")]
    mod providers {}
    #[doc = include_str!("../../docs/failure-behaviour.md")]
    mod failure_behaviour {}
    #[doc = include_str!("../../docs/testing.md")]
    mod testing {}
    #[doc = include_str!("../../docs/performance.md")]
    mod performance {}
    #[doc = include_str!("../../docs/formats.md")]
    mod formats {}
    #[doc = include_str!("../../docs/tool_search.md")]
    mod tool_search {}
    #[cfg(feature = "mcp")]
    #[doc = include_str!("../../docs/mcp.md")]
    mod mcp {}
}

/// What `#[tool]` expands to uses these paths, so users need no serde, schemars or serde_json
/// dependency of their own. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use schemars;
    pub use serde;
    pub use serde_json;

    pub use crate::args::{decode_arguments, decode_tool_arguments, ClosedObjects};
    pub use crate::output_schema::{OutputProbe, ProbePlain, ProbeStructured};
    pub use crate::schema::canonical_schema;
    pub use crate::type_checks::{
        OutputCheck, OutputNoSerialize, OutputSerialize, ParamBoth, ParamCheck, ParamNeither,
        ParamNoDeserialize, ParamNoSchema, ParamsMissing, ParamsProbe, ParamsReady,
        ResponseMissing, ResponseProbe, ResponseReady,
    };
    use crate::{IntoToolResponse, ToolResponse};

    /// Converts a tool's return value; generated code calls it with the span of the return
    /// type, so a type that does not fit is reported there.
    #[inline]
    pub fn into_response<T: IntoToolResponse>(value: T) -> ToolResponse {
        value.into_tool_response()
    }

    /// The context a `#[resource]` or `#[prompt]` function's context parameters are taken
    /// from: the request's (over MCP, with the client as its peer); `name` stands where a
    /// tool's name would.
    pub fn catalog_context<'a>(
        ctx: &'a crate::CallContext,
        id: &'a str,
        name: &'a str,
    ) -> crate::ToolContext<'a> {
        crate::ToolContext::for_call(id, name, Some(ctx), crate::context::Extensions::empty())
    }

    /// Takes a context parameter of a `#[resource]` or `#[prompt]` function from the context.
    pub fn catalog_extract<'a, T: crate::FromToolContext<'a>>(
        ctx: &crate::ToolContext<'a>,
    ) -> Result<T, crate::catalog::CatalogError> {
        T::from_context(ctx).map_err(|response| crate::catalog::CatalogError::Failed {
            message: response.model_text().to_string(),
        })
    }

    /// A template variable's value, for `#[resource]` functions.
    pub fn template_var<'a>(vars: &'a [(String, String)], name: &str) -> Option<&'a str> {
        vars.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Converts a resource function's return value; called with the span of the return type.
    #[inline]
    pub fn into_resource_contents<T: crate::catalog::IntoResourceContents>(
        value: T,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<crate::catalog::ResourceContents, crate::catalog::CatalogError> {
        value.into_contents(uri, mime_type)
    }

    /// Converts a prompt function's return value; called with the span of the return type.
    #[inline]
    pub fn into_prompt_messages<T: crate::catalog::IntoPromptMessages>(
        value: T,
    ) -> Result<Vec<crate::catalog::PromptMessage>, crate::catalog::CatalogError> {
        value.into_messages()
    }

    /// `tools![..]` checks at compile time that no two tools share a name: the message for
    /// the first name listed twice. (The macro panics with it itself, so the error points at
    /// `tools![..]` and shows no helper of ours.)
    pub const fn first_duplicate<'a>(names: &[&str], messages: &[&'a str]) -> Option<&'a str> {
        let mut i = 0;
        while i < names.len() {
            let mut j = i + 1;
            while j < names.len() {
                if str_eq(names[i], names[j]) && j < messages.len() {
                    return Some(messages[j]);
                }
                j += 1;
            }
            i += 1;
        }
        None
    }

    const fn str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}
