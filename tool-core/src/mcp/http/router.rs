//! The axum router of [`McpServer`]: rmcp's streamable HTTP service behind the guard, the
//! token check and a span per request; beside it the health endpoint and the Protected
//! Resource Metadata.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::super::auth::{self, middleware::AuthState};
use super::super::McpServer;
use super::config::HttpConfig;
use super::guard::{self, Guard, InFlight};

/// rmcp's own limit on a POST body, which [`McpServer::with_max_message_bytes`] and
/// [`HttpConfig::body_limit`] override.
const DEFAULT_HTTP_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A built router and the handles serving needs for a graceful shutdown.
pub(super) struct Built {
    pub(super) router: axum::Router,
    pub(super) in_flight: Arc<InFlight>,
    pub(super) draining: Arc<AtomicBool>,
}

impl McpServer {
    /// The server as an axum [`Router`](axum::Router) answering MCP's streamable HTTP at
    /// `path` (e.g. `"/mcp"`), with the defaults of [`HttpConfig`]: see
    /// [`McpServer::http_router_with`].
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, tool, tools};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let app: axum::Router = McpServer::new(tools![add]).http_router("/mcp");
    /// # let _ = app;
    /// ```
    pub fn http_router(self, path: &str) -> axum::Router {
        self.http_router_with(HttpConfig::new().with_path(path))
    }

    /// The server as an axum [`Router`](axum::Router) configured by `config`, to merge
    /// into an application's own router. Each client session gets its own clone of the
    /// server (the registry is shared).
    ///
    /// On a listener of your own, turn Nagle's algorithm off on every accepted socket
    /// (`axum::serve(listener.tap_io(|tcp| { let _ = tcp.set_nodelay(true); }), app)`):
    /// rmcp writes each SSE reply in two small writes, and with `TCP_NODELAY` off the second
    /// waits for the client's delayed ACK, about 40 ms per call.
    /// [`McpServer::serve_http_with`] does this for you.
    ///
    /// A POST body that is not JSON is answered with HTTP 400 and a JSON-RPC `-32700` error,
    /// JSON that is not JSON-RPC with 400 and `-32600`, a body over the size limit with 413
    /// and `-32600`; each without touching the session.
    ///
    /// ```
    /// use tool_core::{mcp::{HttpConfig, McpServer}, tool, tools};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let config = HttpConfig::new().with_path("/tools").allowed_hosts(["mcp.example.com"]);
    /// let app: axum::Router = McpServer::new(tools![add]).http_router_with(config);
    /// # let _ = app;
    /// ```
    pub fn http_router_with(self, config: HttpConfig) -> axum::Router {
        build(self, &config, CancellationToken::new()).router
    }
}

/// Builds the router; `sessions` ends every session when cancelled.
pub(super) fn build(server: McpServer, config: &HttpConfig, sessions: CancellationToken) -> Built {
    let body_limit = config
        .body_limit
        .or(server.http_body_limit())
        .unwrap_or(DEFAULT_HTTP_BODY_BYTES);
    let mut rmcp_config = StreamableHttpServerConfig::default()
        .with_cancellation_token(sessions)
        .with_max_request_body_bytes(body_limit)
        .with_sse_keep_alive(config.sse_keep_alive)
        .with_legacy_session_mode(config.legacy_sessions)
        .with_json_response(config.json_response);
    rmcp_config = match &config.allowed_hosts {
        Some(hosts) => rmcp_config.with_allowed_hosts(hosts.clone()),
        None => rmcp_config.disable_allowed_hosts(),
    };
    rmcp_config = match &config.allowed_origins {
        // Enforced even when the list is empty: then every browser origin is refused.
        Some(origins) => rmcp_config
            .with_allowed_origins(origins.clone())
            .enforce_origin_validation(),
        None => rmcp_config.disable_allowed_origins(),
    };
    rmcp_config.session_store = config.session_store.clone();

    let server = server.with_call_timeout(config.call_timeout);
    let tools = server.live_tools();
    let service = Rmcp(Arc::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        rmcp_config,
    )));
    let in_flight = Arc::new(InFlight::default());
    let guard = Guard {
        body_limit,
        calls: Arc::new(Semaphore::new(config.max_concurrent_calls)),
        max_calls: config.max_concurrent_calls,
        in_flight: in_flight.clone(),
        tools,
        authorization: config.authorization.clone(),
    };
    // Layers wrap the routes added before them; the last added runs first.
    let mut router = axum::Router::new()
        .route_service(&config.path, service)
        .layer(axum::middleware::from_fn_with_state(guard, guard::guard));
    if let Some(authorization) = &config.authorization {
        let state = AuthState {
            authorization: authorization.clone(),
            path: config.path.as_str().into(),
        };
        router = router.layer(axum::middleware::from_fn_with_state(
            state,
            auth::require_token,
        ));
    }
    router = router.layer(axum::middleware::from_fn(trace_request));
    if let Some(authorization) = &config.authorization {
        router = auth::metadata_routes(router, authorization.clone(), &config.path);
    }
    let draining = Arc::new(AtomicBool::new(false));
    if let Some(path) = &config.health_path {
        let draining = draining.clone();
        router = router.route(
            path,
            axum::routing::get(move || async move {
                if draining.load(Ordering::Acquire) {
                    guard::json_reply(
                        StatusCode::SERVICE_UNAVAILABLE,
                        br#"{"status":"draining"}"#.to_vec(),
                    )
                } else {
                    guard::json_reply(StatusCode::OK, br#"{"status":"ok"}"#.to_vec())
                }
            }),
        );
    }
    Built {
        router,
        in_flight,
        draining,
    }
}

/// rmcp's streamable HTTP service behind an `Arc`. axum clones a route's service for every
/// request, and rmcp clones itself again in `call`: each clone copies its whole configuration
/// (every allowed host and origin, as owned strings). Shared, a request costs one reference
/// count instead.
#[derive(Clone)]
struct Rmcp(Arc<StreamableHttpService<McpServer, LocalSessionManager>>);

impl tower_service::Service<axum::extract::Request> for Rmcp {
    type Response = axum::http::Response<
        http_body_util::combinators::BoxBody<axum::body::Bytes, std::convert::Infallible>,
    >;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Self::Response, Self::Error>> + Send>,
    >;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        let service = self.0.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

/// One span per MCP request: HTTP method, session id, principal (recorded by the token
/// check) and status. Tokens never go into it. With no subscriber interested in the span
/// (the usual case in production without tracing), nothing is recorded or stored: the
/// request passes on with no allocation.
async fn trace_request(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    const SESSION: &str = "mcp-session-id";
    let span = tracing::info_span!(
        "mcp_http_request",
        method = %request.method(),
        session_id = tracing::field::Empty,
        principal = tracing::field::Empty,
        status = tracing::field::Empty,
    );
    if span.is_disabled() {
        let response = next.run(request).await;
        tracing::debug!("mcp http request served");
        return response;
    }
    let session = request.headers().get(SESSION).and_then(|v| v.to_str().ok());
    let has_session = session.is_some();
    if let Some(session) = session {
        span.record("session_id", session);
    }
    request.extensions_mut().insert(span.clone());
    let inner = span.clone();
    async move {
        let response = next.run(request).await;
        inner.record("status", response.status().as_u16());
        if !has_session {
            // A new session's id comes back on the `initialize` reply.
            if let Some(id) = response
                .headers()
                .get(SESSION)
                .and_then(|v| v.to_str().ok())
            {
                inner.record("session_id", id);
            }
        }
        tracing::debug!("mcp http request served");
        response
    }
    .instrument(span)
    .await
}
