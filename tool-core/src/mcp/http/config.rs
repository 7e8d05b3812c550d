//! [`HttpConfig`]: every option of the streamable HTTP side in one builder, with safe
//! defaults. rmcp's `StreamableHttpServerConfig` is built from it in `router.rs`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::SessionStore;

use super::super::auth::Authorization;
use super::DEFAULT_HTTP_PATH;

/// The `Host` names a server accepts unless told otherwise: loopback only (against DNS
/// rebinding, as rmcp does).
pub(crate) const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The browser origins a server accepts unless told otherwise: pages served from this
/// machine, on any port. Every other `Origin` is answered with 403.
pub(crate) const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// How many `tools/call` requests run at once unless told otherwise; one more is answered
/// at once with a "server busy" JSON-RPC error.
pub(crate) const DEFAULT_MAX_CONCURRENT_CALLS: usize = 1024;

/// How long [`HttpServing::shutdown`](super::HttpServing::shutdown) lets calls in flight
/// finish unless told otherwise.
pub(crate) const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The HTTP side of an [`McpServer`](crate::mcp::McpServer): which `Host` and `Origin`
/// headers are accepted, how replies are framed, how much a client may send and run at
/// once, authorization and the session store. Pass it to
/// [`McpServer::serve_http_with`](crate::mcp::McpServer::serve_http_with) or
/// [`McpServer::http_router_with`](crate::mcp::McpServer::http_router_with).
///
/// The defaults are closed: loopback `Host` names only; browser `Origin`s from loopback only
/// (any other is answered 403, as the MCP specification asks against DNS rebinding; requests
/// without `Origin`, i.e. not from a browser, pass); SSE replies; sessions for clients on
/// session-based protocol versions, kept in this process; 15 s SSE keep-alive; 4 MiB bodies
/// (or [`McpServer::with_max_message_bytes`](crate::mcp::McpServer::with_max_message_bytes));
/// no per-call time limit beyond the registry's; at most 1024 calls at once; MCP at `/mcp`,
/// health at `/health`; no authorization.
///
/// ```
/// use std::time::Duration;
/// use tool_core::mcp::HttpConfig;
///
/// let config = HttpConfig::new()
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .json_response(true)
///     .call_timeout(Duration::from_secs(30))
///     .max_concurrent_calls(64);
/// assert_eq!(config.path(), "/mcp");
/// assert_eq!(config.max_calls(), 64);
/// ```
#[derive(Clone)]
pub struct HttpConfig {
    pub(super) path: String,
    pub(super) health_path: Option<String>,
    /// `None`: any host.
    pub(super) allowed_hosts: Option<Vec<String>>,
    /// `None`: any origin.
    pub(super) allowed_origins: Option<Vec<String>>,
    pub(super) json_response: bool,
    pub(super) legacy_sessions: bool,
    pub(super) sse_keep_alive: Option<Duration>,
    pub(super) body_limit: Option<usize>,
    pub(super) call_timeout: Option<Duration>,
    pub(super) max_concurrent_calls: usize,
    pub(super) shutdown_grace: Duration,
    pub(super) authorization: Option<Arc<Authorization>>,
    pub(super) session_store: Option<Arc<dyn SessionStore>>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            path: DEFAULT_HTTP_PATH.to_owned(),
            health_path: Some("/health".to_owned()),
            allowed_hosts: Some(LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect()),
            allowed_origins: Some(LOOPBACK_ORIGINS.iter().map(|o| (*o).to_owned()).collect()),
            json_response: false,
            legacy_sessions: true,
            sse_keep_alive: Some(Duration::from_secs(15)),
            body_limit: None,
            call_timeout: None,
            max_concurrent_calls: DEFAULT_MAX_CONCURRENT_CALLS,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            authorization: None,
            session_store: None,
        }
    }
}

impl HttpConfig {
    /// The safe defaults (see the type's documentation).
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves MCP at `path` instead of `/mcp` (a missing leading `/` is added).
    pub fn with_path(mut self, path: &str) -> Self {
        self.path = leading_slash(path);
        self
    }

    /// Serves `GET path` → `200 {"status":"ok"}` (503 `"draining"` once shutdown began), or
    /// no health endpoint with `None`. It needs no token and is not subject to `Host` checks.
    pub fn health_path(mut self, path: Option<&str>) -> Self {
        self.health_path = path.map(leading_slash);
        self
    }

    /// Accepts exactly these `Host` values (names, or `name:port`), replacing the loopback
    /// defaults (`localhost`, `127.0.0.1`, `::1`): list the names a reverse proxy forwards, plus `localhost`/`127.0.0.1` if
    /// local clients should still reach the server directly. Any other is answered 403.
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// Accepts any `Host` header. Only behind a proxy that checks it already.
    pub fn allow_any_host(mut self) -> Self {
        self.allowed_hosts = None;
        self
    }

    /// Accepts browser requests from exactly these origins (`scheme://host[:port]`; `:*`
    /// matches any port), replacing the loopback defaults (`http` and `https` on `localhost`,
    /// `127.0.0.1` and `[::1]`, any port); any other `Origin` is answered 403. Requests without `Origin` (not from a browser) are not affected.
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// Accepts browser requests from any origin: any web page the user visits can then call
    /// the server's tools through the user's browser. Only with authorization configured.
    pub fn allow_any_origin(mut self) -> Self {
        self.allowed_origins = None;
        self
    }

    /// Answers a request that needs no streaming with one `application/json` body instead of
    /// an SSE stream (rmcp falls back to SSE when a call sends progress or logs first). Only
    /// takes effect with [`HttpConfig::legacy_sessions`]`(false)`.
    pub fn json_response(mut self, on: bool) -> Self {
        self.json_response = on;
        self
    }

    /// Whether clients on session-based protocol versions (before 2026-07-28: most clients
    /// in use today) get a session (`Mcp-Session-Id`). On by default. Off, every request is
    /// served on its own, which any replica can do without a session store.
    pub fn legacy_sessions(mut self, on: bool) -> Self {
        self.legacy_sessions = on;
        self
    }

    /// How often an idle SSE stream gets a keep-alive comment (default 15 s; `None`: never),
    /// so proxies with idle timeouts keep it open.
    pub fn sse_keep_alive(mut self, every: Option<Duration>) -> Self {
        self.sse_keep_alive = every;
        self
    }

    /// The largest POST body accepted (over it: HTTP 413 with a JSON-RPC error).
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = Some(bytes);
        self
    }

    /// How long one `tools/call` may run; past it the caller gets a `TIMEOUT` result and the
    /// tool's future is dropped.
    pub fn call_timeout(mut self, limit: Duration) -> Self {
        self.call_timeout = Some(limit);
        self
    }

    /// How many `tools/call` requests may run at once (default 1024, at least 1). One more gets an
    /// immediate JSON-RPC error `-32000` "server busy" (HTTP 200), so load never grows
    /// memory without bound; clients retry later.
    pub fn max_concurrent_calls(mut self, calls: usize) -> Self {
        self.max_concurrent_calls = calls.max(1);
        self
    }

    /// How long [`HttpServing::shutdown`](super::HttpServing::shutdown) waits for calls in
    /// flight to reply before it ends them (default 10 s).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Requires a valid bearer token on every MCP request (see
    /// [`Authorization`](crate::mcp::auth::Authorization)).
    pub fn authorization(mut self, authorization: Authorization) -> Self {
        self.authorization = Some(Arc::new(authorization));
        self
    }

    /// Keeps the sessions of session-based clients in `store` (e.g. Redis) so that any
    /// replica behind a load balancer can serve any session.
    pub fn session_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.session_store = Some(store);
        self
    }

    /// The path MCP is served at.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The limit on concurrent `tools/call` requests.
    pub fn max_calls(&self) -> usize {
        self.max_concurrent_calls
    }
}

impl fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpConfig")
            .field("path", &self.path)
            .field("health_path", &self.health_path)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("json_response", &self.json_response)
            .field("legacy_sessions", &self.legacy_sessions)
            .field("sse_keep_alive", &self.sse_keep_alive)
            .field("body_limit", &self.body_limit)
            .field("call_timeout", &self.call_timeout)
            .field("max_concurrent_calls", &self.max_concurrent_calls)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("authorization", &self.authorization.is_some())
            .field("session_store", &self.session_store.is_some())
            .finish()
    }
}

fn leading_slash(path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}
