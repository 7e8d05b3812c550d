//! [`McpServer`]: a [`ToolRegistry`] served over MCP with rmcp. The one file where our
//! definitions and responses meet rmcp's server types.

use std::sync::Arc;
use std::time::Duration;

#[allow(deprecated)] // logging/setLevel: see `peers`.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::NotificationContext;
use rmcp::service::{RequestContext, RunningService, ServiceExt};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::gate;

mod asking;
mod call;
mod catalog_reads;
mod extensions;
mod handshake_tasks;
mod results;
mod rounds;
mod settings;
mod tasks;
mod tool_list;

use super::listings::LiveTools;

use super::input_required::{self, Sealer};
use super::lines::LineTransport;
use super::peers::{ServerHandle, Shared};
use super::tasks::worker::TaskHost;
use super::tasks::MemoryTaskStore;
use super::{prompts, resources, McpError};
use crate::catalog::Catalog;
use crate::registry::ToolRegistry;

/// How many tools one `tools/list` page holds unless [`McpServer::with_page_size`] says
/// otherwise: large enough that ordinary registries fit in one page.
pub(crate) const DEFAULT_PAGE_SIZE: usize = 100;

/// A [`ToolRegistry`] as an MCP server.
///
/// `tools/list` comes from the registry's cached definitions (converted once, here);
/// `tools/call` goes through [`ToolRegistry::call_in`], so limits, scoping, approval, the
/// breaker and time limits apply as for any other call. A tool's failure is a result with
/// `isError: true` whose text is the model text of the `ERROR` response; only an unknown tool
/// is a JSON-RPC error (`-32602`, with the registry's did-you-mean text), as the MCP spec asks.
/// `notifications/cancelled` raises the call's [`CancelFlag`](crate::CancelFlag); progress a tool reports goes to
/// the client as `notifications/progress` when its request carried a progress token.
///
/// rmcp logs through `tracing`; stdout carries only the protocol, so install any subscriber
/// with a stderr writer.
///
/// ```
/// use tool_core::{mcp::McpServer, tool, tools};
///
/// /// Adds two integers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let server = McpServer::new(tools![add]).with_server_info("calc", "1.0.0");
/// assert_eq!(server.tool_count(), 1);
/// // In `main`, inside a tokio runtime: `server.serve_stdio().await?;`
/// ```
#[derive(Clone)]
pub struct McpServer {
    /// The registry and its MCP listing; [`ServerHandle`] changes them while serving.
    tools: Arc<LiveTools>,
    page_size: usize,
    /// `None`: each transport's default (ours on streams, rmcp's on HTTP).
    max_message_bytes: Option<usize>,
    config: ServerConfig,
    /// Resources, prompts and connected clients, shared by every connection.
    shared: Arc<Shared>,
    /// The per-call time limit of the HTTP configuration, if any.
    call_timeout: Option<Duration>,
    /// Seals the state of calls that ask their client questions on 2026-07-28 sessions.
    sealer: Arc<Sealer>,
    /// Where tasks are kept and how they are timed (see [`McpServer::with_task_store`]).
    tasks: Arc<TaskHost>,
}

impl McpServer {
    /// Serves `registry`; its definitions are converted to MCP tools now, once (and again
    /// after each change through [`McpServer::handle`]).
    pub fn new(registry: impl Into<Arc<ToolRegistry>>) -> Self {
        let tools = Arc::new(LiveTools::new(registry.into()));
        // `logging`: tools log through their context (`ToolContext::log`). Deprecated by the
        // 2026-07-28 revision, and what handshake-era clients (most of today's) speak.
        #[allow(deprecated)]
        let config = ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new("tool-core", env!("CARGO_PKG_VERSION")));
        let mut config = config;
        extensions::advertise_served(&mut config.capabilities, &tools.current());
        McpServer {
            tools,
            page_size: DEFAULT_PAGE_SIZE,
            max_message_bytes: None,
            config,
            shared: Arc::new(Shared::new(Catalog::new())),
            call_timeout: None,
            sealer: Arc::new(Sealer::random()),
            tasks: Arc::new(TaskHost::new(
                Arc::new(MemoryTaskStore::new()),
                crate::mcp::tasks::DEFAULT_TTL,
                crate::mcp::tasks::DEFAULT_POLL_INTERVAL,
            )),
        }
    }

    /// Offers a catalog's resources and prompts beside the tools: `resources/list`,
    /// `resources/templates/list`, `resources/read`, `resources/subscribe`, `prompts/list`,
    /// `prompts/get` and `completion/complete` (with the catalog's completers). The
    /// capabilities say so: `resources` (with `subscribe` and `listChanged`) when the catalog
    /// has resources, `prompts` (with `listChanged`) when it has prompts, `completions` when
    /// it has either. A catalog that is empty now advertises neither.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, prompt, prompts, ToolRegistry};
    ///
    /// /// Says hello.
    /// #[prompt]
    /// fn hello() -> &'static str { "Hello!" }
    ///
    /// let server = McpServer::new(ToolRegistry::new()).with_catalog(prompts![hello]);
    /// assert!(server.capabilities().prompts.is_some());
    /// assert!(server.capabilities().resources.is_none());
    /// ```
    pub fn with_catalog(mut self, catalog: Catalog) -> Self {
        let caps = &mut self.config.capabilities;
        let has_resources = catalog.resources().next().is_some();
        let has_prompts = catalog.prompts().next().is_some();
        caps.resources = has_resources.then(|| {
            let mut c = rmcp::model::ResourcesCapability::default();
            c.subscribe = Some(true);
            c.list_changed = Some(true);
            c
        });
        caps.prompts = has_prompts.then(|| {
            let mut c = rmcp::model::PromptsCapability::default();
            c.list_changed = Some(true);
            c
        });
        caps.completions = (has_resources || has_prompts).then(Default::default);
        self.shared = Arc::new(Shared::new(catalog));
        self
    }

    /// The capabilities `initialize` reports.
    pub fn capabilities(&self) -> &ServerCapabilities {
        &self.config.capabilities
    }

    /// The name and version `initialize` reports (see [`McpServer::with_server_info`] and
    /// [`mcp_server!`](crate::mcp_server), which uses the calling crate's).
    pub fn server_info(&self) -> (&str, &str) {
        (
            &self.config.server_info.name,
            &self.config.server_info.version,
        )
    }

    /// A handle to change the tools, resources and prompts while serving and tell clients
    /// about it (see [`ServerHandle`]). Take it after [`McpServer::with_catalog`]: a later
    /// `with_catalog` starts a new catalog.
    pub fn handle(&self) -> ServerHandle {
        ServerHandle {
            shared: self.shared.clone(),
            tools: self.tools.clone(),
        }
    }

    /// Serves one client over this process's stdin and stdout until the client closes them.
    /// Must run inside a tokio runtime with I/O enabled.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = self.serve_stream(stdin, stdout).await?;
        running
            .waiting()
            .await
            .map(drop)
            .map_err(McpError::transport)
    }

    /// Serves one client on any rmcp transport (an in-memory `tokio::io::duplex` pair, a
    /// socket split into reader and writer …); the returned service runs in the background
    /// until the peer leaves or it is cancelled.
    ///
    /// rmcp's transports carry only the 2026-07-28 tasks extension: on a 2025-11-25 session
    /// served here, task-capable tools answer plainly. [`McpServer::serve_stdio`],
    /// [`McpServer::serve_stream`] and the HTTP server also serve that revision's own tasks
    /// (`params.task`, `tasks/get`, `tasks/result`, `tasks/cancel`).
    pub async fn serve_on<T, E, A>(
        self,
        transport: T,
    ) -> Result<RunningService<RoleServer, McpServer>, McpError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.serve(transport).await.map_err(McpError::handshake)
    }

    /// Serves one client on a byte stream (newline-delimited JSON-RPC, as on stdio), with the
    /// message size limit of [`McpServer::with_max_message_bytes`].
    ///
    /// Garbage gets a JSON-RPC error and the server reads on: a line that is not JSON (or not
    /// UTF-8) `-32700` with id `null`; JSON that is not JSON-RPC `-32600` (with the message's
    /// id when it has one); a line over the size limit `-32600` with id `null`, skipped
    /// without being buffered; an unknown method `-32601`. Notifications are never answered.
    ///
    /// Tools that may run as tasks run as tasks for 2026-07-28 clients that declare the
    /// extension and for 2025-11-25 clients that call them with `params.task` (that revision's
    /// `tasks/get`, `tasks/result` and `tasks/cancel` included).
    /// Must run inside a tokio runtime (a task of its own writes the replies).
    pub async fn serve_stream<R, W>(
        self,
        reader: R,
        writer: W,
    ) -> Result<RunningService<RoleServer, McpServer>, McpError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let transport = LineTransport::new(reader, writer, self.max_message_bytes())
            .with_tools(self.tools.clone());
        self.serve_on(transport).await
    }

    fn page(
        &self,
        cursor: Option<&str>,
        principal: Option<&crate::Principal>,
        modern: bool,
    ) -> Result<ListToolsResult, ErrorData> {
        // A caller sees only the tools it may call (see `ToolRegistry::with_required_scopes`).
        let served = self.tools.current();
        let visible: Vec<&rmcp::model::Tool> = served
            .listed(modern)
            .iter()
            .filter(|tool| gate::may_use(&served.registry, &tool.name, principal))
            .collect();
        let start = match cursor {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|&start| start <= visible.len())
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        format!(
                            "invalid tools/list cursor '{cursor}': pass back the nextCursor of the previous page, or none for the first page"
                        ),
                        None,
                    )
                })?,
        };
        let end = start.saturating_add(self.page_size).min(visible.len());
        let page = visible.get(start..end).unwrap_or_default();
        let mut result =
            ListToolsResult::with_all_items(page.iter().map(|t| (*t).clone()).collect());
        if end < visible.len() {
            result.next_cursor = Some(end.to_string());
        }
        Ok(result)
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        self.info()
    }

    /// What 2026-07-28 clients learn instead of `initialize`'s answer: the same, without
    /// `logging`, which that revision deprecates (SEP-2577) and which tools on its sessions
    /// log to the server's own `tracing` instead.
    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::DiscoverResult, ErrorData> {
        let mut info = self.info();
        #[allow(deprecated)]
        {
            info.capabilities.logging = None;
        }
        Ok(rmcp::model::DiscoverResult::from_server_info(
            ServerHandler::supported_protocol_versions(self).into_owned(),
            info,
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.shared.connected(&context.peer);
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        if self.config.capabilities.resources.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListResourcesRequestMethod,
            >());
        }
        resources::list(&self.shared, cursor, self.page_size)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        if self.config.capabilities.resources.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListResourceTemplatesRequestMethod,
            >());
        }
        resources::list_templates(&self.shared, cursor, self.page_size)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read_catalog_resource(request, context).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.config.capabilities.resources.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SubscribeRequestMethod,
            >());
        }
        self.shared.subscribe(&context.peer, &request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.shared.unsubscribe(&context.peer, &request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        if self.config.capabilities.prompts.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListPromptsRequestMethod,
            >());
        }
        prompts::list(&self.shared, cursor, self.page_size)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.get_catalog_prompt(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        if self.config.capabilities.completions.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::CompleteRequestMethod,
            >());
        }
        prompts::complete(&self.shared, &request)
    }

    #[allow(deprecated)] // logging/setLevel: see `peers`.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Not offered on 2026-07-28 sessions (see `discover`).
        if self.config.capabilities.logging.is_none() || input_required::is_modern(&context) {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SetLevelRequestMethod,
            >());
        }
        self.shared.set_level(&context.peer, request.level);
        Ok(())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let principal = gate::principal_of(&context);
        self.page(
            request.as_ref().and_then(|r| r.cursor.as_deref()),
            principal.as_ref(),
            input_required::is_modern(&context),
        )
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        // `tools` was built from the definitions, in registry order.
        let served = self.tools.current();
        served
            .registry
            .position(name)
            .and_then(|i| served.tools.get(i))
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await
    }

    /// The tasks of 2025-11-25 sessions, which the transports route here (see
    /// `handshake_tasks`).
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        // Boxed: rmcp awaits every request's handler inside one future, as large as the
        // largest handler, and moves it into a task per request. Inline, this one (which may
        // wait for a task's result) made every `tools/call` copy more bytes: 12,000 more
        // instructions a call under callgrind (scripts/mcp_http_wrk.py).
        Box::pin(self.handshake_request(request, context)).await
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, ErrorData> {
        self.get_task_now(request).await
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.cancel_task_now(request).await
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Tasks here never wait for input (a tool's questions need a plain call).
        Err(ErrorData::invalid_params(
            format!(
                "task '{}' does not wait for input: its tools ask no questions while running as a task",
                request.task_id
            ),
            None,
        ))
    }
}
