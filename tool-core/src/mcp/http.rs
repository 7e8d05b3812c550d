//! MCP over streamable HTTP (feature `mcp-http`): [`McpServer`] as an axum router or a
//! listening server, and [`McpClient::connect_http`]. Both sides are rmcp's streamable HTTP
//! transports; this file only wires them to our types.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio_util::sync::CancellationToken;

use super::lines::{self, Incoming};
use super::{McpClient, McpError, McpServer};

/// The path [`McpServer::serve_http`] serves MCP on.
pub const DEFAULT_HTTP_PATH: &str = "/mcp";

/// rmcp's own limit on a POST body, which [`McpServer::with_max_message_bytes`] overrides.
const DEFAULT_HTTP_BODY_BYTES: usize = 4 * 1024 * 1024;

/// Reads a POST body (at most `limit` bytes) before rmcp does and answers garbage with a
/// JSON-RPC error body: HTTP 413 and `-32600` for an oversized body, 400 and `-32700` for one
/// that is not JSON, 400 and `-32600` for JSON that is not JSON-RPC. rmcp alone answers these
/// with plain-text 413/415 responses a client cannot parse as JSON-RPC. A good body goes on
/// to rmcp unchanged (and is parsed there a second time: cheap next to the HTTP round trip).
async fn reject_garbage(
    axum::extract::State(limit): axum::extract::State<usize>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{Method, StatusCode};
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let too_long = std::error::Error::source(&error)
                .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
            return if too_long {
                json_error(StatusCode::PAYLOAD_TOO_LARGE, lines::oversized(limit))
            } else {
                // The client stopped sending mid-body; it is unlikely to read this.
                json_error(
                    StatusCode::BAD_REQUEST,
                    lines::error_line(
                        serde_json::Value::Null,
                        rmcp::model::ErrorData::invalid_request(
                            format!("Invalid Request: the request body could not be read: {error}"),
                            None,
                        ),
                    ),
                )
            };
        }
    };
    if let Incoming::Reply(reply) = lines::classify(&bytes) {
        return json_error(StatusCode::BAD_REQUEST, reply);
    }
    let body = axum::body::Body::from(bytes);
    next.run(axum::extract::Request::from_parts(parts, body))
        .await
}

fn json_error(status: axum::http::StatusCode, body: Vec<u8>) -> axum::response::Response {
    let mut response = axum::response::Response::new(axum::body::Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    response
}

impl McpServer {
    /// The server as an axum [`Router`](axum::Router) answering MCP's streamable HTTP at
    /// `path` (e.g. `"/mcp"`), to merge into an application's own router. Each client session
    /// gets its own clone of the server (the registry is shared).
    ///
    /// rmcp accepts only loopback `Host` headers by default (against DNS rebinding); a public
    /// deployment puts a reverse proxy in front that sets `Host` accordingly.
    ///
    /// A POST body that is not JSON is answered with HTTP 400 and a JSON-RPC `-32700` error,
    /// JSON that is not JSON-RPC with 400 and `-32600`, a body over the size limit
    /// ([`McpServer::with_max_message_bytes`], default 4 MiB as in rmcp) with 413 and
    /// `-32600`; each without touching the session.
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
        self.router_with(path, CancellationToken::new())
    }

    fn router_with(self, path: &str, cancel: CancellationToken) -> axum::Router {
        let limit = self.http_body_limit().unwrap_or(DEFAULT_HTTP_BODY_BYTES);
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(cancel)
            .with_max_request_body_bytes(limit);
        let service = StreamableHttpService::new(
            move || Ok(self.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        axum::Router::new()
            .route_service(path, service)
            .layer(axum::middleware::from_fn_with_state(limit, reject_garbage))
    }

    /// Listens on `addr` (`"127.0.0.1:0"` picks a free port) and serves MCP's streamable
    /// HTTP at [`DEFAULT_HTTP_PATH`] in a background task until [`HttpServing::shutdown`] or
    /// until the returned handle is dropped. Must run inside a tokio runtime with I/O enabled.
    ///
    /// ```no_run
    /// use tool_core::{mcp::McpServer, tool, tools};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// let serving = McpServer::new(tools![add]).serve_http("127.0.0.1:8080").await?;
    /// println!("MCP at {}", serving.url());
    /// serving.shutdown().await;
    /// # Ok(()) }
    /// ```
    pub async fn serve_http(
        self,
        addr: impl tokio::net::ToSocketAddrs,
    ) -> Result<HttpServing, McpError> {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| McpError::Transport(format!("could not listen: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| McpError::Transport(format!("could not read the bound address: {e}")))?;
        let cancel = CancellationToken::new();
        let router = self.router_with(DEFAULT_HTTP_PATH, cancel.clone());
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
        });
        Ok(HttpServing {
            addr: local,
            cancel,
            task: Some(task),
        })
    }
}

/// A running [`McpServer::serve_http`]. Dropping it stops the server (open sessions are
/// ended); [`HttpServing::shutdown`] also waits until it has stopped.
#[derive(Debug)]
pub struct HttpServing {
    addr: SocketAddr,
    cancel: CancellationToken,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl HttpServing {
    /// The address the server listens on (with the port chosen for `:0`).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL clients connect to: `http://` + address + [`DEFAULT_HTTP_PATH`].
    pub fn url(&self) -> String {
        format!("http://{}{DEFAULT_HTTP_PATH}", self.addr)
    }

    /// Stops accepting connections, ends the sessions and waits for the server task.
    pub async fn shutdown(mut self) {
        self.cancel.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for HttpServing {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

impl McpClient {
    /// Connects to an MCP server over streamable HTTP at `url` (e.g.
    /// `"http://127.0.0.1:8080/mcp"`), runs the handshake and fetches the tool list, each
    /// bounded by [`DEFAULT_CALL_TIMEOUT`](super::DEFAULT_CALL_TIMEOUT). `https://` uses
    /// rustls with the `ring` provider (installed as the process default unless the
    /// application chose one). A server that goes away later makes calls of its tools
    /// `SERVICE_UNAVAILABLE` or `NETWORK_ERROR` responses.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::{mcp::McpClient, ToolRegistry};
    ///
    /// let client = McpClient::connect_http("http://127.0.0.1:8080/mcp").await?;
    /// let mut registry = ToolRegistry::new();
    /// client.register_into(&mut registry, Some("calc_"))?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_http(url: &str) -> Result<McpClient, McpError> {
        // reqwest is built without a default crypto provider (aws-lc-rs would need cmake).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            // A redirect could replay the session id to another host; rmcp's own default
            // client follows same-origin ones only, ours follows none.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| McpError::Transport(format!("could not build the HTTP client: {e}")))?;
        let transport = StreamableHttpClientTransport::with_client(
            http,
            StreamableHttpClientTransportConfig::with_uri(url),
        );
        Self::connect(transport).await
    }
}
