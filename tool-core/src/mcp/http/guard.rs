//! What stands between an HTTP POST and rmcp: the body is read once (bounded), garbage is
//! answered with JSON-RPC errors, a `tools/call` over the concurrency limit is answered "server
//! busy", one the caller's token lacks the scopes for is answered 403, and every request
//! holds a ticket until its reply has been sent (what graceful shutdown waits for).

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::{Method, StatusCode};
use axum::response::Response;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::super::auth::{self, Authorization};
use super::super::lines::{self, Incoming};
use crate::mcp::listings::LiveTools;
use crate::principal::Principal;

/// The JSON-RPC error code of a `tools/call` refused because the server is at its limit of
/// concurrent calls (in the range JSON-RPC reserves for servers).
pub const SERVER_BUSY: i32 = -32000;

/// Shared state of the guard middleware.
#[derive(Clone)]
pub(super) struct Guard {
    pub(super) body_limit: usize,
    pub(super) calls: Arc<Semaphore>,
    pub(super) max_calls: usize,
    pub(super) in_flight: Arc<InFlight>,
    /// The served tools as they are at each request (the application may change them).
    pub(super) tools: Arc<LiveTools>,
    pub(super) authorization: Option<Arc<Authorization>>,
}

/// Requests whose replies have not been sent yet.
#[derive(Default)]
pub(super) struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

impl InFlight {
    fn enter(self: &Arc<Self>) -> Ticket {
        self.count.fetch_add(1, Ordering::AcqRel);
        Ticket(self.clone())
    }

    /// How many requests are in flight.
    pub(super) fn count(&self) -> usize {
        self.count.load(Ordering::Acquire)
    }

    /// Returns once no request is in flight.
    pub(super) async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            // Registered before the check, so a ticket dropped in between still wakes us.
            notified.as_mut().enable();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }
}

struct Ticket(Arc<InFlight>);

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// A response body that holds the request's ticket (and its call slot) until the body has
/// been sent or dropped: an SSE reply ends only after the call's result went out.
struct Held {
    inner: axum::body::Body,
    _ticket: Ticket,
    _slot: Option<OwnedSemaphorePermit>,
}

impl http_body::Body for Held {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The middleware (see the module documentation). GET and DELETE pass untouched: a GET is
/// the long-lived notification stream, which must not hold up shutdown.
pub(super) async fn guard(
    axum::extract::State(guard): axum::extract::State<Guard>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let ticket = guard.in_flight.enter();
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, guard.body_limit).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let too_long = std::error::Error::source(&error)
                .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
            return if too_long {
                json_reply(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    lines::oversized(guard.body_limit),
                )
            } else {
                // The client stopped sending mid-body; it is unlikely to read this.
                json_reply(
                    StatusCode::BAD_REQUEST,
                    lines::error_line(
                        serde_json::Value::Null,
                        ErrorData::invalid_request(
                            format!("Invalid Request: the request body could not be read: {error}"),
                            None,
                        ),
                    ),
                )
            };
        }
    };
    let mut slot = None;
    match lines::classify(&bytes) {
        Incoming::Reply(reply) => return json_reply(StatusCode::BAD_REQUEST, reply),
        Incoming::Message(message) => {
            if let ClientJsonRpcMessage::Request(request) = &*message {
                if let ClientRequest::CallToolRequest(call) = &request.request {
                    let principal = parts.extensions.get::<Principal>();
                    if let Some(refusal) = guard.scope_refusal(&call.params.name, principal) {
                        return refusal;
                    }
                    match guard.calls.clone().try_acquire_owned() {
                        Ok(permit) => slot = Some(permit),
                        Err(_) => {
                            let id = serde_json::to_value(&request.id)
                                .unwrap_or(serde_json::Value::Null);
                            return json_reply(StatusCode::OK, busy(id, guard.max_calls));
                        }
                    }
                }
            }
        }
        Incoming::Skip => {}
    }
    let body = axum::body::Body::from(bytes);
    let response = next
        .run(axum::extract::Request::from_parts(parts, body))
        .await;
    let (parts, body) = response.into_parts();
    let held = Held {
        inner: body,
        _ticket: ticket,
        _slot: slot,
    };
    Response::from_parts(parts, axum::body::Body::new(held))
}

impl Guard {
    /// With authorization configured, a call of a tool whose scopes the token lacks is
    /// answered 403 `insufficient_scope` naming them, so the client can ask for a token that
    /// has them (the server handler refuses it too, should this be bypassed).
    fn scope_refusal(&self, tool: &str, principal: Option<&Principal>) -> Option<Response> {
        let authorization = self.authorization.as_ref()?;
        let served = self.tools.current();
        let required = served.registry.required_scopes(tool);
        let missing = match principal {
            Some(principal) => principal.missing_scopes(required),
            None => required.iter().map(String::as_str).collect(),
        };
        if missing.is_empty() {
            return None;
        }
        Some(auth::insufficient_scope(authorization, required))
    }
}

fn busy(id: serde_json::Value, max_calls: usize) -> Vec<u8> {
    lines::error_line(
        id,
        ErrorData::new(
            ErrorCode(SERVER_BUSY),
            format!(
                "server busy: {max_calls} tool calls are already running, the most this server \
                 runs at once; retry in a moment"
            ),
            Some(serde_json::json!({ "maxConcurrentCalls": max_calls })),
        ),
    )
}

pub(super) fn json_reply(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = Response::new(axum::body::Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    response
}
