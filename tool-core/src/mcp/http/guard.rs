//! What stands between an HTTP POST and rmcp: the body is read once (bounded), garbage is
//! answered with JSON-RPC errors, a `tools/call` over the concurrency limit is answered "server
//! busy", one the caller's token lacks the scopes for is answered 403, and every request
//! holds a ticket until its reply has been sent (what graceful shutdown waits for). The
//! tasks of 2025-11-25 sessions are routed here too (see `tasks::handshake_era`).

use std::borrow::Cow;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::super::auth::{self, Authorization};
use super::super::lines::{self, Incoming};
use crate::mcp::listings::LiveTools;
use crate::mcp::tasks::handshake_era;
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
    // The common case, a call this server may run or any other message that looks
    // well-formed, goes to rmcp on a quick look at the body; rmcp parses it in full. Only when
    // rmcp refuses it does the full check run here, so the body's parse error is answered as
    // if rmcp had never seen it (see `admit` for everything else).
    let peeked = peek(&bytes);
    // The tasks of 2025-11-25 sessions: requests rmcp cannot read as that revision means
    // them are routed first, and the `initialize` answer gains the `tasks` capability.
    let (route, initialize) = match &peeked {
        Some(Peek::Call { task, .. }) => (*task, false),
        Some(Peek::Other(method)) => {
            let method = method.as_deref().unwrap_or_default();
            (
                handshake_era::may_route(method, false),
                method == "initialize",
            )
        }
        None => (true, false),
    };
    let (slot, verify) = match peeked {
        Some(Peek::Call { name, .. }) => match guard.admit_quickly(&name, &parts) {
            Some(slot) => (Some(slot), true),
            None => match guard.admit(&parts, &bytes) {
                Ok(slot) => (slot, false),
                Err(refusal) => return refusal,
            },
        },
        Some(Peek::Other(_)) => (None, true),
        None => match guard.admit(&parts, &bytes) {
            Ok(slot) => (slot, false),
            Err(refusal) => return refusal,
        },
    };
    let bytes = match route.then(|| handshake_era::route_bytes(&bytes)).flatten() {
        Some(routed) => axum::body::Bytes::from(routed),
        None => bytes,
    };
    let body = axum::body::Body::from(bytes.clone());
    let response = next
        .run(axum::extract::Request::from_parts(parts, body))
        .await;
    if verify && !response.status().is_success() {
        if let Incoming::Reply(reply) = lines::classify(&bytes) {
            return json_reply(StatusCode::BAD_REQUEST, reply);
        }
    }
    let response = if initialize && guard.tools.current().offers_tasks {
        with_tasks_capability(response).await
    } else {
        response
    };
    let (parts, body) = response.into_parts();
    let held = Held {
        inner: body,
        _ticket: ticket,
        _slot: slot,
    };
    Response::from_parts(parts, axum::body::Body::new(held))
}

/// What a quick look at a POST body found: a `tools/call` of the named tool (with `task`:
/// its params ask for a task), or any other JSON object (with its method). `None`: not a
/// JSON object with the fields where JSON-RPC puts them.
enum Peek<'a> {
    Call { name: Cow<'a, str>, task: bool },
    Other(Option<Cow<'a, str>>),
}

/// The fields of a JSON-RPC message the guard needs, borrowed from the body where they are
/// not escaped; everything else is skipped without being built.
#[derive(serde::Deserialize)]
struct Fields<'a> {
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<Params<'a>>,
}

#[derive(serde::Deserialize)]
struct Params<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(default)]
    task: Option<serde::de::IgnoredAny>,
}

/// A quick look at `body`: rmcp reads a `tools/call` from the same top-level `method` and
/// `params.name`. A body this cannot read, or a `tools/call` without a tool name, is left to
/// the full check.
fn peek(body: &[u8]) -> Option<Peek<'_>> {
    // An object only: serde would also read a struct from an array.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let fields: Fields<'_> = serde_json::from_slice(body).ok()?;
    if fields.method.as_deref() != Some("tools/call") {
        return Some(Peek::Other(fields.method));
    }
    let params = fields.params?;
    let task = params.task.is_some();
    params.name.map(|name| Peek::Call { name, task })
}

/// An `initialize` reply with the `tasks` capability added for a 2025-11-25 session. The
/// reply is short and ends with its one message, so it is read whole.
async fn with_tasks_capability(response: Response) -> Response {
    /// Far more than any `initialize` answer.
    const MAX_INITIALIZE_REPLY: usize = 1 << 20;
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_INITIALIZE_REPLY).await else {
        // Unreadable: the client sees the stream end and fails to connect, as it would have.
        return Response::from_parts(parts, axum::body::Body::empty());
    };
    match handshake_era::amend_initialize_body(&bytes) {
        Some(amended) => {
            parts.headers.remove(axum::http::header::CONTENT_LENGTH);
            Response::from_parts(parts, axum::body::Body::from(amended))
        }
        None => Response::from_parts(parts, axum::body::Body::from(bytes)),
    }
}

impl Guard {
    /// The quick admission of a `tools/call` of `tool`: its slot, when the caller may call
    /// it and a slot is free. `None` leaves the decision (and its answer) to [`Guard::admit`].
    fn admit_quickly(&self, tool: &str, parts: &Parts) -> Option<OwnedSemaphorePermit> {
        let principal = parts.extensions.get::<Principal>();
        if self.scope_refusal(tool, principal).is_some() {
            return None;
        }
        self.calls.clone().try_acquire_owned().ok()
    }

    /// The full check of a POST body, parsed as rmcp parses it: garbage is answered with a
    /// JSON-RPC error, a `tools/call` the caller's token lacks the scopes for with 403, one
    /// over the concurrency limit with "server busy"; an admitted call gets its slot.
    fn admit(&self, parts: &Parts, bytes: &[u8]) -> Result<Option<OwnedSemaphorePermit>, Response> {
        match lines::classify(bytes) {
            Incoming::Reply(reply) => Err(json_reply(StatusCode::BAD_REQUEST, reply)),
            Incoming::Message(message) => {
                if let ClientJsonRpcMessage::Request(request) = &*message {
                    if let ClientRequest::CallToolRequest(call) = &request.request {
                        let principal = parts.extensions.get::<Principal>();
                        if let Some(refusal) = self.scope_refusal(&call.params.name, principal) {
                            return Err(refusal);
                        }
                        return match self.calls.clone().try_acquire_owned() {
                            Ok(permit) => Ok(Some(permit)),
                            Err(_) => {
                                let id = serde_json::to_value(&request.id)
                                    .unwrap_or(serde_json::Value::Null);
                                Err(json_reply(StatusCode::OK, busy(id, self.max_calls)))
                            }
                        };
                    }
                }
                Ok(None)
            }
            Incoming::Skip => Ok(None),
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn call_name(body: &str) -> Option<String> {
        match peek(body.as_bytes())? {
            Peek::Call { name, .. } => Some(name.into_owned()),
            Peek::Other(_) => Some(String::new()),
        }
    }

    #[test]
    fn a_quick_look_finds_the_called_tool_where_json_rpc_puts_it() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#;
        assert_eq!(call_name(call).as_deref(), Some("add"));
        // Escapes are read as rmcp reads them.
        let escaped = r#"{"method":"tools\/call","params":{"name":"ad\u0064"},"id":2}"#;
        assert_eq!(call_name(escaped).as_deref(), Some("add"));
        let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"add"}}"#;
        assert_eq!(call_name(list).as_deref(), Some(""));
    }

    #[test]
    fn whatever_a_quick_look_cannot_read_is_left_to_the_full_check() {
        for body in [
            "}{ not json",
            "",
            "[]",
            r#"["tools/call",{"name":"add"}]"#,
            r#"{"method":7}"#,
            r#"{"method":"tools/call"}"#,
            r#"{"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"method":"tools/call","params":{"name":5}}"#,
            // A second `method` or `name` could make rmcp read another one.
            r#"{"method":"tools/list","method":"tools/call","params":{"name":"add"}}"#,
            r#"{"method":"tools/call","params":{"name":"add","name":"secret"}}"#,
            r#"{"method":"tools/call","params":{"name":"add"}} trailing"#,
        ] {
            assert!(peek(body.as_bytes()).is_none(), "{body}");
        }
    }
}
