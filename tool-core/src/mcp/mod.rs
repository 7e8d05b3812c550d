//! Model Context Protocol both ways, on the official Rust SDK (rmcp): serve a
//! [`ToolRegistry`](crate::ToolRegistry) as an MCP server ([`McpServer`]), and use an MCP
//! server's tools in a registry next to `#[tool]` ones ([`McpClient`], [`RemoteTool`]).
//! Feature `mcp`.
//!
//! The same `#[tool]` functions reach every MCP client without a second definition:
//!
//! ```no_run
//! use tool_core::{mcp::McpServer, tool, tools};
//!
//! /// Adds two integers.
//! #[tool(read_only)]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), tool_core::mcp::McpError> {
//!     McpServer::new(tools![add]).serve_stdio().await
//! }
//! ```
//!
//! And a remote server's tools sit in a registry beside local ones, so dialects, prompts,
//! the text parser and dispatch treat them alike:
//!
//! ```no_run
//! use tool_core::{mcp::McpClient, ToolCall, ToolRegistry};
//!
//! # async fn run() -> Result<(), tool_core::mcp::McpError> {
//! let client = McpClient::spawn(tokio::process::Command::new("my-mcp-server")).await?;
//! let mut registry = ToolRegistry::new();
//! client.register_into(&mut registry, Some("remote_"))?;
//! let reply = registry.call(&ToolCall::new("1", "remote_add", r#"{"a":1,"b":2}"#)).await;
//! # let _ = reply; Ok(()) }
//! ```

#[cfg(feature = "mcp-http")]
pub mod auth;
mod client;
mod client_builder;
mod client_catalog;
mod client_handlers;
mod error;
mod gate;
#[cfg(feature = "mcp-http")]
mod http;
mod input_required;
mod lines;
mod listings;
mod peer;
mod peers;
mod progress;
mod prompts;
mod remote;
mod remote_task;
mod resources;
mod server;
#[cfg(feature = "mcp-redis")]
mod session_store;
mod tasks;

pub use client::McpClient;
pub use client_builder::{McpClientBuilder, ProtocolEra};
pub use client_catalog::RemoteResource;
pub use client_handlers::{ElicitationRequest, Roots};
pub use error::{McpError, McpErrorKind};
#[cfg(feature = "mcp-http")]
pub use http::{
    HttpClientOptions, HttpConfig, HttpServing, ShutdownSignal, DEFAULT_HTTP_PATH, SERVER_BUSY,
};
pub use peers::ServerHandle;
pub use remote::RemoteTool;
pub use server::McpServer;
#[cfg(feature = "mcp-redis")]
pub use session_store::RedisSessionStore;
#[cfg(feature = "mcp-redis")]
pub use tasks::RedisTaskStore;
pub use tasks::{MemoryTaskStore, TaskRecord, TaskState, TaskStore, TaskStoreFuture};

/// The official Rust SDK this module is built on (rmcp, pinned), for what needs the raw SDK:
/// a `#[tool_router]` server, a transport of your own, OAuth flows with its `auth` feature.
// Hidden from the docs' item list on purpose: rustc then never names serde's and schemars'
// traits through it (`tool_core::mcp::rmcp::serde::Deserialize`) in users' error messages.
#[doc(hidden)]
pub use rmcp;

/// An [`McpServer`] for these `#[tool]`s whose `serverInfo` is the calling crate's name and
/// version (read with `env!` where the macro is written, so in your crate, not ours).
///
/// ```
/// use tool_core::{mcp_server, tool};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let server = mcp_server![add];
/// assert_eq!(server.server_info(), (env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")));
/// ```
#[macro_export]
macro_rules! mcp_server {
    ($($tool:path),* $(,)?) => {
        $crate::mcp::McpServer::new($crate::tools![$($tool),*])
            .with_server_info(::core::env!("CARGO_PKG_NAME"), ::core::env!("CARGO_PKG_VERSION"))
    };
}
