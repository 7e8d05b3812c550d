//! [`McpServer::serve_http`]: a listener with `TCP_NODELAY` on every socket, the router, and
//! [`HttpServing`], which reports the server's end and shuts it down gracefully.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio_util::sync::CancellationToken;

use super::super::{McpError, McpErrorKind, McpServer};
use super::config::HttpConfig;
use super::guard::InFlight;
use super::router;

/// After the grace period, how long connections get to close before the server stops
/// waiting for them.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

impl McpServer {
    /// Listens on `addr` (`"127.0.0.1:0"` picks a free port) and serves MCP's streamable
    /// HTTP with the defaults of [`HttpConfig`] (at `/mcp`) in a background task until
    /// [`HttpServing::shutdown`] or until the returned handle is dropped. Must run inside a
    /// tokio runtime with I/O enabled.
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
        self.serve_http_with(addr, HttpConfig::new()).await
    }

    /// Listens on `addr` and serves MCP's streamable HTTP as `config` says, in a background
    /// task. Every accepted socket has `TCP_NODELAY` set, so a reply leaves at once (with
    /// Nagle's algorithm each SSE reply waited about 40 ms for the client's delayed ACK).
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use tool_core::{mcp::{HttpConfig, McpServer}, tool, tools};
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// let config = HttpConfig::new().call_timeout(Duration::from_secs(30));
    /// let serving = McpServer::new(tools![add]).serve_http_with("127.0.0.1:8080", config).await?;
    /// let stop = serving.shutdown_signal();
    /// tokio::spawn(async move {
    ///     tokio::time::sleep(Duration::from_secs(3600)).await; // or a signal, a message …
    ///     stop.shutdown();
    /// });
    /// serving.join().await?; // the server's error, or Ok after a clean shutdown
    /// # Ok(()) }
    /// ```
    pub async fn serve_http_with(
        self,
        addr: impl tokio::net::ToSocketAddrs,
        config: HttpConfig,
    ) -> Result<HttpServing, McpError> {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            McpError::new(McpErrorKind::Transport, format!("could not listen: {e}")).with_source(e)
        })?;
        let local = listener.local_addr().map_err(|e| {
            McpError::new(
                McpErrorKind::Transport,
                format!("could not read the bound address: {e}"),
            )
            .with_source(e)
        })?;
        let sessions = CancellationToken::new();
        let built = router::build(self, &config, sessions.clone());
        let stop = CancellationToken::new();
        let listener = listener.tap_io(|tcp| {
            // Best effort: a socket that refuses is still served, only slower.
            let _ = tcp.set_nodelay(true);
        });
        let graceful = stop.clone();
        let serve = axum::serve(listener, built.router)
            .with_graceful_shutdown(async move { graceful.cancelled().await });
        let task = tokio::spawn(run(
            std::future::IntoFuture::into_future(serve),
            Drain {
                stop: stop.clone(),
                sessions,
                in_flight: built.in_flight,
                draining: built.draining,
                grace: config.shutdown_grace,
            },
        ));
        Ok(HttpServing {
            addr: local,
            path: config.path,
            stop,
            task: Some(task),
        })
    }
}

/// The HTTP server itself failed (the listener broke).
fn server_stopped(error: std::io::Error) -> McpError {
    McpError::new(
        McpErrorKind::Transport,
        format!("the HTTP server stopped: {error}"),
    )
    .with_source(error)
}

/// What a graceful shutdown needs.
struct Drain {
    stop: CancellationToken,
    sessions: CancellationToken,
    in_flight: Arc<InFlight>,
    draining: Arc<AtomicBool>,
    grace: Duration,
}

/// Serves until `stop`, then: stop accepting, let requests in flight send their replies
/// (up to the grace period), end the sessions (their open streams), give connections a
/// moment to close.
async fn run(
    serve: impl std::future::Future<Output = std::io::Result<()>>,
    drain: Drain,
) -> Result<(), McpError> {
    tokio::pin!(serve);
    tokio::select! {
        result = &mut serve => {
            return result.map_err(server_stopped);
        }
        () = drain.stop.cancelled() => {}
    }
    drain.draining.store(true, Ordering::Release);
    let drained = tokio::select! {
        // Keep driving the server (it stops accepting; connections finish their requests).
        result = &mut serve => {
            drain.sessions.cancel();
            return result.map_err(server_stopped);
        }
        drained = tokio::time::timeout(drain.grace, drain.in_flight.idle()) => drained.is_ok(),
    };
    let left = drain.in_flight.count();
    drain.sessions.cancel();
    if let Ok(Err(e)) = tokio::time::timeout(CLOSE_WAIT, &mut serve).await {
        return Err(server_stopped(e));
    }
    if drained {
        Ok(())
    } else {
        Err(McpError::new(
            McpErrorKind::Transport,
            format!(
                "{left} request(s) were still running when the shutdown grace period of {:?} \
                 ended; they were cut off",
                drain.grace
            ),
        ))
    }
}

/// A running [`McpServer::serve_http`]. Dropping it starts a graceful shutdown;
/// [`HttpServing::shutdown`] also waits until it has stopped.
#[derive(Debug)]
pub struct HttpServing {
    addr: SocketAddr,
    path: String,
    stop: CancellationToken,
    task: Option<tokio::task::JoinHandle<Result<(), McpError>>>,
}

/// Starts the graceful shutdown of an [`HttpServing`] from anywhere (a signal handler);
/// cheap to clone.
#[derive(Debug, Clone)]
pub struct ShutdownSignal(CancellationToken);

impl ShutdownSignal {
    /// Stops accepting connections; calls in flight may finish within the grace period.
    pub fn shutdown(&self) {
        self.0.cancel();
    }
}

impl HttpServing {
    /// The address the server listens on (with the port chosen for `:0`).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL clients connect to: `http://` + address + the MCP path.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.addr, self.path)
    }

    /// A handle that starts the graceful shutdown, for use while [`HttpServing::join`]
    /// waits.
    pub fn shutdown_signal(&self) -> ShutdownSignal {
        ShutdownSignal(self.stop.clone())
    }

    /// Waits until the server ends: after a [`ShutdownSignal`], or on its own when it fails.
    /// `Err` says why it failed, or that requests were still running when the grace period
    /// ([`HttpConfig::shutdown_grace`]) ended.
    pub async fn join(mut self) -> Result<(), McpError> {
        match self.task.take() {
            Some(task) => task.await.unwrap_or_else(|e| {
                Err(McpError::new(
                    McpErrorKind::Transport,
                    format!("the HTTP server task failed: {e}"),
                )
                .with_source(e))
            }),
            None => Ok(()),
        }
    }

    /// Graceful shutdown: stops accepting connections, lets calls in flight send their
    /// replies (up to [`HttpConfig::shutdown_grace`]), ends the sessions and waits for the
    /// server task. The same as [`HttpServing::shutdown_signal`] then [`HttpServing::join`],
    /// ignoring the outcome.
    pub async fn shutdown(self) {
        self.stop.cancel();
        let _ = self.join().await;
    }
}

impl Drop for HttpServing {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
