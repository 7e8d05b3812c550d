//! [`McpClient`]: a connection to an MCP server whose tools go into a [`ToolRegistry`]. The
//! one file where rmcp's client types meet ours (with `remote` for the tools themselves).

// Sampling and roots are deprecated by the 2026-07-28 revision (SEP-2577); handshake-era
// servers, most of today's, still ask for them.
#![allow(deprecated)]

use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ListRootsResult, ProgressNotificationParam,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RunningService,
    ServiceExt,
};
use rmcp::{ClientHandler, ErrorData, RoleClient};
use serde::de::DeserializeOwned;
use tokio::sync::watch;

use super::client_handlers::Handlers;
use super::progress::ProgressRoutes;
use super::remote::RemoteTool;
use super::{McpError, McpErrorKind};
use crate::registry::{is_valid_tool_name, RegistryError, ToolRegistry};

/// How long the client waits for the handshake, a `tools/list`, or one tool call, unless
/// told otherwise.
pub(crate) const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// Our side of the connection: routes progress, keeps the tool list fresh and answers the
/// server's questions with the application's handlers.
pub(super) struct Handler {
    routes: ProgressRoutes,
    tools: Arc<RwLock<Vec<rmcp::model::Tool>>>,
    changed: watch::Sender<u64>,
    timeout: Duration,
    answers: Arc<Handlers>,
}

/// One of our JSON answers as rmcp's result type.
fn typed<T: DeserializeOwned>(answer: serde_json::Value) -> Result<T, ErrorData> {
    serde_json::from_value(answer).map_err(|e| {
        ErrorData::internal_error(format!("the client's answer is malformed: {e}"), None)
    })
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.capabilities = self.answers.capabilities();
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = serde_json::to_value(&params).unwrap_or_default();
        typed(self.answers.create_message(&params).await?)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let params = serde_json::to_value(&request).unwrap_or_default();
        typed(self.answers.elicit(&params).await?)
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        typed(self.answers.list_roots()?)
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.routes.deliver(params);
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        // Fetch the new list off the connection's task, so a slow server cannot stall it.
        let (tools, changed, timeout) = (self.tools.clone(), self.changed.clone(), self.timeout);
        tokio::spawn(async move {
            if let Ok(Ok(list)) = tokio::time::timeout(timeout, context.peer.list_all_tools()).await
            {
                *tools.write().unwrap_or_else(PoisonError::into_inner) = list;
                changed.send_modify(|generation| *generation += 1);
            }
        });
    }
}

/// A connection to one MCP server, with its tool list.
///
/// Connect over any rmcp transport ([`McpClient::connect`]) or start the server as a child
/// process speaking stdio ([`McpClient::spawn`]); the tool list is fetched on connect and again
/// whenever the server sends `notifications/tools/list_changed`. [`McpClient::register_into`]
/// puts the tools into a registry as [`RemoteTool`]s; rebuild the registry after
/// [`McpClient::list_changes`] reports a change to pick up added or removed tools. To answer
/// the server's sampling, elicitation or roots requests (on either protocol era), or to speak
/// the 2026-07-28 revision, connect through [`McpClient::builder`].
///
/// Dropping the client closes the connection (a child process is killed).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), tool_core::mcp::McpError> {
/// use tool_core::{mcp::{McpClient, McpServer}, tool, tools, ToolCall, ToolRegistry};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// // An in-memory connection to our own server; a real one is a child process or a URL.
/// let (near, far) = tokio::io::duplex(64 * 1024);
/// tokio::spawn(async move { McpServer::new(tools![add]).serve_on(far).await?.waiting().await.ok(); Ok::<_, tool_core::mcp::McpError>(()) });
/// let client = McpClient::connect(near).await?;
///
/// let mut registry = ToolRegistry::new();
/// client.register_into(&mut registry, Some("calc_"))?;
/// let reply = registry.call(&ToolCall::new("1", "calc_add", r#"{"a":2,"b":3}"#)).await;
/// assert_eq!(reply.model_text(), "5");
/// # Ok(()) }
/// ```
pub struct McpClient {
    service: RunningService<RoleClient, Handler>,
    server: Arc<str>,
    tools: Arc<RwLock<Vec<rmcp::model::Tool>>>,
    changes: watch::Receiver<u64>,
    routes: ProgressRoutes,
    timeout: Duration,
    answers: Arc<Handlers>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.server)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// rmcp's tasks, tokio's child processes and timers panic outside a tokio runtime; the
/// client says so as an error instead, before anything starts.
pub(crate) fn require_tokio(what: &str) -> Result<(), McpError> {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => Ok(()),
        Err(_) => Err(McpError::new(
            McpErrorKind::Transport,
            format!(
                "{what} needs a tokio runtime: run it inside one (e.g. #[tokio::main], or \
                 tokio::runtime::Runtime::block_on)"
            ),
        )),
    }
}

impl McpClient {
    /// Connects with these handlers: the one place a connection starts.
    pub(super) async fn start<T, E, A>(
        transport: T,
        timeout: Duration,
        lifecycle: ClientLifecycleMode,
        answers: Arc<Handlers>,
    ) -> Result<McpClient, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        require_tokio("connecting an MCP client")?;
        let tools = Arc::new(RwLock::new(Vec::new()));
        let (changed, changes) = watch::channel(0);
        let routes = ProgressRoutes::default();
        let handler = Handler {
            routes: routes.clone(),
            tools: tools.clone(),
            changed,
            timeout,
            answers: answers.clone(),
        };
        let started = match lifecycle {
            // The plain handshake as before (the lifecycle entry point is the newer path).
            ClientLifecycleMode::Initialize => {
                tokio::time::timeout(timeout, handler.serve(transport)).await
            }
            other => {
                tokio::time::timeout(timeout, handler.serve_with_lifecycle(transport, other)).await
            }
        };
        let service = match started {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => return Err(McpError::handshake(e)),
            Err(_) => {
                return Err(McpError::new(
                    McpErrorKind::Handshake,
                    format!(
                        "no answer to initialize or server/discover within {} ms",
                        timeout.as_millis()
                    ),
                ))
            }
        };
        let server = service
            .peer()
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|i| i.name.clone()))
            .unwrap_or_else(|| "mcp".to_owned())
            .into();
        answers.set_server(Arc::clone(&server));
        if let Some(roots) = answers.roots() {
            roots.attach(service.peer().clone());
        }
        let client = McpClient {
            service,
            server,
            tools,
            changes,
            routes,
            timeout,
            answers,
        };
        client.refresh().await?;
        Ok(client)
    }

    /// Sets the time limit of each tool call (for tools handed out after this).
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The server's name from its `initialize` answer (`"mcp"` if it gave none).
    pub fn server_name(&self) -> &str {
        &self.server
    }

    /// The connection and the per-request time limit, for the resource and prompt requests
    /// in `client_catalog`.
    pub(super) fn peer_and_timeout(&self) -> (&rmcp::Peer<RoleClient>, Duration) {
        (self.service.peer(), self.timeout)
    }

    /// The running connection, whose `read_resource` and `get_prompt` answer a 2026-07-28
    /// server's input requests with our handlers and retry.
    pub(super) fn service(&self) -> &RunningService<RoleClient, Handler> {
        &self.service
    }

    /// Fetches the tool list again; returns how many tools the server has.
    pub async fn refresh(&self) -> Result<usize, McpError> {
        let list = tokio::time::timeout(self.timeout, self.service.peer().list_all_tools())
            .await
            .map_err(|_| {
                McpError::new(
                    McpErrorKind::Request,
                    format!(
                        "no answer to tools/list within {} ms",
                        self.timeout.as_millis()
                    ),
                )
            })?
            .map_err(McpError::request)?;
        let count = list.len();
        *self.tools.write().unwrap_or_else(PoisonError::into_inner) = list;
        Ok(count)
    }

    /// A receiver whose value changes each time the server's tool list changed and was
    /// fetched again.
    pub fn list_changes(&self) -> watch::Receiver<u64> {
        self.changes.clone()
    }

    /// The server's tools as [`RemoteTool`]s, named `prefix` + the server's name.
    pub fn tools(&self, prefix: Option<&str>) -> Vec<RemoteTool> {
        let prefix = prefix.unwrap_or_default();
        self.tools
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|tool| {
                RemoteTool::from_listed(
                    tool,
                    format!("{prefix}{}", tool.name),
                    self.server.clone(),
                    self.timeout,
                    self.service.peer().clone(),
                    self.routes.clone(),
                )
                .answering_with(self.answers.clone())
            })
            .collect()
    }

    /// Registers every tool of the server in `registry`, named `prefix` + the server's name.
    /// All or nothing: if any name is invalid for providers or already taken (by a local tool
    /// or another server's), nothing is registered and the error names it. Returns how many
    /// tools were added.
    pub fn register_into(
        &self,
        registry: &mut ToolRegistry,
        prefix: Option<&str>,
    ) -> Result<usize, McpError> {
        let tools = self.tools(prefix);
        let mut seen = std::collections::HashSet::new();
        for tool in &tools {
            if !is_valid_tool_name(&tool.name) {
                return Err(McpError::register(RegistryError::InvalidName(
                    tool.name.clone(),
                )));
            }
            if registry.get(&tool.name).is_some() || !seen.insert(tool.name.as_str()) {
                return Err(McpError::register(RegistryError::DuplicateName(
                    tool.name.clone(),
                )));
            }
        }
        let count = tools.len();
        for tool in tools {
            registry.register(tool).map_err(McpError::register)?;
        }
        Ok(count)
    }

    /// Closes the connection (a child process is killed) and waits until it is closed.
    pub async fn close(mut self) {
        let _ = self.service.close().await;
    }
}
