//! [`McpError`]: why an MCP connection could not be set up or used, with its cause.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

use crate::RegistryError;

/// What part of an MCP connection failed; see [`McpError::kind`].
///
/// ```
/// use tool_core::mcp::{McpError, McpErrorKind};
/// let e = McpError::new(McpErrorKind::Transport, "could not listen");
/// assert_eq!(e.kind(), McpErrorKind::Transport);
/// ```
// Non-exhaustive: new transports and features bring new ways to fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpErrorKind {
    /// The child process could not be started.
    Spawn,
    /// The `initialize` handshake failed (the peer is not an MCP peer, or it left).
    Handshake,
    /// The transport failed while serving.
    Transport,
    /// A request to the server failed (e.g. `tools/list`).
    Request,
    /// A remote tool could not be registered: its name (with the prefix) is taken or invalid.
    Register,
}

/// Why an MCP connection could not be set up or used (failures of single calls are
/// `ToolResponse`s, never this): the [`kind`](McpError::kind) of failure, a
/// [`message`](McpError::message) saying what happened, and the underlying error as
/// [`source`](std::error::Error::source) when there is one (the SDK's error, the I/O error,
/// the [`RegistryError`] of a tool that could not be registered).
///
/// ```
/// use tool_core::mcp::{McpError, McpErrorKind};
///
/// let e = McpError::new(McpErrorKind::Handshake, "connection refused");
/// assert_eq!(e.message(), "connection refused");
/// assert_eq!(e.to_string(), "the MCP initialize handshake failed: connection refused");
/// ```
// Opaque so what an error carries can grow without breaking callers; read it with the methods.
#[derive(Debug, Clone)]
pub struct McpError {
    kind: McpErrorKind,
    message: String,
    // `Arc` keeps the error `Clone` although the SDK's errors are not.
    source: Option<Arc<dyn Error + Send + Sync + 'static>>,
}

impl McpError {
    /// An error of `kind` saying `message` (what follows the kind's own words in the
    /// error's text).
    ///
    /// ```
    /// use tool_core::mcp::{McpError, McpErrorKind};
    /// let e = McpError::new(McpErrorKind::Request, "tools/list: method not found");
    /// assert_eq!(e.to_string(), "the MCP server did not answer a request: tools/list: method not found");
    /// ```
    pub fn new(kind: McpErrorKind, message: impl Into<String>) -> Self {
        McpError {
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// Keeps the error that caused this one, returned by
    /// [`source`](std::error::Error::source); the message stays as given.
    ///
    /// ```
    /// use std::error::Error;
    /// use tool_core::mcp::{McpError, McpErrorKind};
    ///
    /// let io = std::io::Error::new(std::io::ErrorKind::AddrInUse, "address in use");
    /// let e = McpError::new(McpErrorKind::Transport, format!("could not listen: {io}")).with_source(io);
    /// assert!(e.source().unwrap().is::<std::io::Error>());
    /// ```
    pub fn with_source(mut self, source: impl Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// What part of the connection failed.
    ///
    /// ```
    /// use tool_core::mcp::{McpError, McpErrorKind};
    /// assert_eq!(McpError::new(McpErrorKind::Spawn, "not found").kind(), McpErrorKind::Spawn);
    /// ```
    pub fn kind(&self) -> McpErrorKind {
        self.kind
    }

    /// What happened, without the kind's own words (the error's text is both).
    ///
    /// ```
    /// use tool_core::mcp::{McpError, McpErrorKind};
    /// assert_eq!(McpError::new(McpErrorKind::Spawn, "not found").message(), "not found");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// A `cause` whose text is the whole message.
    fn caused(kind: McpErrorKind, cause: impl Error + Send + Sync + 'static) -> Self {
        McpError::new(kind, cause.to_string()).with_source(cause)
    }

    /// The child process could not be started.
    pub(crate) fn spawn(cause: impl Error + Send + Sync + 'static) -> Self {
        Self::caused(McpErrorKind::Spawn, cause)
    }

    /// The `initialize` handshake failed.
    pub(crate) fn handshake(cause: impl Error + Send + Sync + 'static) -> Self {
        Self::caused(McpErrorKind::Handshake, cause)
    }

    /// The transport failed while serving.
    pub(crate) fn transport(cause: impl Error + Send + Sync + 'static) -> Self {
        Self::caused(McpErrorKind::Transport, cause)
    }

    /// A request to the server failed.
    pub(crate) fn request(cause: impl Error + Send + Sync + 'static) -> Self {
        Self::caused(McpErrorKind::Request, cause)
    }

    /// A remote tool could not be registered.
    pub(crate) fn register(cause: RegistryError) -> Self {
        Self::caused(McpErrorKind::Register, cause)
    }
}

/// Equal when kind and message are equal (the SDK's errors do not implement `PartialEq`).
impl PartialEq for McpError {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.message == other.message
    }
}

impl Eq for McpError {}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.message;
        match self.kind {
            McpErrorKind::Spawn => write!(f, "could not start the MCP server process: {e}"),
            McpErrorKind::Handshake => write!(f, "the MCP initialize handshake failed: {e}"),
            McpErrorKind::Transport => write!(f, "the MCP transport failed: {e}"),
            McpErrorKind::Request => write!(f, "the MCP server did not answer a request: {e}"),
            McpErrorKind::Register => write!(
                f,
                "a remote MCP tool could not be registered: {e}; pass a name prefix to keep \
                 remote tools apart from local ones"
            ),
        }
    }
}

impl Error for McpError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}
