//! Tasks on 2025-11-25 sessions, as the transports see them. That revision has tasks of its
//! own (`params.task` on `tools/call`, `tasks/get`, `tasks/result`, `tasks/cancel`, the
//! `tasks` capability, `execution.taskSupport` on tools); rmcp's model knows only the
//! 2026-07-28 extension: it drops `params.task`, `ServerCapabilities.tasks` and
//! `Tool.execution`, and reads `tasks/get` and `tasks/cancel` as the extension's methods.
//!
//! So, before rmcp reads a message (JSON in), the transports route these requests to methods
//! of ours, which rmcp hands on untouched as custom requests, and the server answers them in
//! this revision's shapes (`server::handshake_tasks`, JSON out). `tasks/result` needs no
//! routing: rmcp does not know it. A request that carries 2026-07-28 request metadata
//! (`_meta["io.modelcontextprotocol/protocolVersion"]`) is never routed. On the way out, the
//! `initialize` answer of a 2025-11-25 session gains the `tasks` capability.

use std::borrow::Cow;

use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

/// The revision whose tasks this module carries.
pub(crate) const PROTOCOL_VERSION: &str = "2025-11-25";

/// Whether a request came on a session of the revision these tasks belong to.
pub(crate) fn takes_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() == PROTOCOL_VERSION)
}

/// `tools/call` with `params.task`.
pub(crate) const CALL: &str = "tool-core/2025-11-25/tools/call";
/// `tools/list` of a session before 2026-07-28 (to add `execution` on 2025-11-25).
pub(crate) const LIST_TOOLS: &str = "tool-core/2025-11-25/tools/list";
/// `tasks/get` of a session before 2026-07-28.
pub(crate) const GET: &str = "tool-core/2025-11-25/tasks/get";
/// `tasks/cancel` of a session before 2026-07-28.
pub(crate) const CANCEL: &str = "tool-core/2025-11-25/tasks/cancel";
/// `tasks/result`, which rmcp passes on as it is.
pub(crate) const RESULT: &str = "tasks/result";

/// Where 2026-07-28 requests carry their protocol version.
const MODERN_META: &str = "io.modelcontextprotocol/protocolVersion";

/// Whether a request of `method` may need routing (`has_task`: its params have a `task`).
/// A cheap test on a borrowed look at a message, before anything is built.
pub(crate) fn may_route(method: &str, has_task: bool) -> bool {
    match method {
        "tools/call" => has_task,
        "tools/list" | "tasks/get" | "tasks/cancel" => true,
        _ => false,
    }
}

/// Routes one JSON-RPC message in place; `true` when it was changed.
pub(crate) fn route(message: &mut Value) -> bool {
    let Some(object) = message.as_object_mut() else {
        return false;
    };
    // Notifications and responses are never routed.
    if !object.contains_key("id") {
        return false;
    }
    let params = object.get("params");
    let modern = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(MODERN_META))
        .is_some();
    if modern {
        return false;
    }
    let has_task = params
        .and_then(|p| p.get("task"))
        .is_some_and(|task| !task.is_null());
    let routed = match object.get("method").and_then(Value::as_str) {
        Some("tools/call") if has_task => CALL,
        Some("tools/list") => LIST_TOOLS,
        Some("tasks/get") => GET,
        Some("tasks/cancel") => CANCEL,
        _ => return false,
    };
    object.insert("method".to_owned(), Value::from(routed));
    true
}

/// The fields a borrowed look at a message reads.
#[derive(Deserialize)]
struct Look<'a> {
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(default)]
    params: Option<LookParams>,
}

#[derive(Deserialize)]
struct LookParams {
    #[serde(default)]
    task: Option<IgnoredAny>,
}

/// A message (one line, one POST body) routed, when it needs to be: `None` leaves it as it
/// is. Most messages cost one borrowed look.
pub(crate) fn route_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let look: Look<'_> = serde_json::from_slice(bytes).ok()?;
    let has_task = look.params.is_some_and(|p| p.task.is_some());
    if !may_route(look.method.as_deref()?, has_task) {
        return None;
    }
    let mut message: Value = serde_json::from_slice(bytes).ok()?;
    if !route(&mut message) {
        return None;
    }
    serde_json::to_vec(&message).ok()
}

/// The `tasks` capability of a server whose tools may run as tasks: task-augmented
/// `tools/call` and `tasks/cancel` (not `tasks/list`, which a store shared by replicas
/// cannot answer per requestor).
fn capability() -> Value {
    json!({ "requests": { "tools": { "call": {} } }, "cancel": {} })
}

/// Adds the `tasks` capability to a JSON-RPC message that answers `initialize` on a
/// 2025-11-25 session; `true` when it did.
pub(crate) fn amend_initialize(message: &mut Value) -> bool {
    let Some(result) = message.get_mut("result") else {
        return false;
    };
    if result.get("protocolVersion").and_then(Value::as_str) != Some(PROTOCOL_VERSION) {
        return false;
    }
    let Some(capabilities) = result
        .get_mut("capabilities")
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    capabilities.insert("tasks".to_owned(), capability());
    true
}

/// [`amend_initialize`] on an HTTP reply body: one JSON message, or an SSE stream whose
/// `data:` lines carry messages. `None` when nothing changed.
pub(crate) fn amend_initialize_body(body: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(body).ok()?;
    if text.trim_start().starts_with('{') {
        let mut message: Value = serde_json::from_str(text).ok()?;
        return amend_initialize(&mut message)
            .then(|| serde_json::to_vec(&message).ok())
            .flatten();
    }
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let amended = content
            .strip_prefix("data:")
            .map(|data| data.strip_prefix(' ').unwrap_or(data))
            .and_then(|data| serde_json::from_str::<Value>(data).ok())
            .and_then(|mut message| {
                amend_initialize(&mut message)
                    .then(|| serde_json::to_string(&message).ok())
                    .flatten()
            });
        match amended {
            Some(message) => {
                changed = true;
                out.push_str("data: ");
                out.push_str(&message);
                out.push_str(&line[content.len()..]);
            }
            None => out.push_str(line),
        }
    }
    changed.then(|| out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routed(message: Value) -> Option<String> {
        let bytes = route_bytes(&serde_json::to_vec(&message).unwrap())?;
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        Some(value["method"].as_str().unwrap().to_owned())
    }

    #[test]
    fn handshake_task_requests_are_routed_and_others_are_not() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "long_count", "arguments": {}, "task": {"ttl": 1000}}});
        assert_eq!(routed(call).as_deref(), Some(CALL));
        let plain = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "long_count", "arguments": {}}});
        assert_eq!(routed(plain), None);
        for (method, to) in [
            ("tools/list", LIST_TOOLS),
            ("tasks/get", GET),
            ("tasks/cancel", CANCEL),
        ] {
            let request =
                json!({"jsonrpc": "2.0", "id": 2, "method": method, "params": {"taskId": "t"}});
            assert_eq!(routed(request).as_deref(), Some(to), "{method}");
        }
        // 2026-07-28 requests and notifications pass as they are.
        let modern = json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {
            "taskId": "t", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        assert_eq!(routed(modern), None);
        let notification = json!({"jsonrpc": "2.0", "method": "tasks/get", "params": {}});
        assert_eq!(routed(notification), None);
        assert_eq!(route_bytes(b"not json"), None);
    }

    #[test]
    fn a_handshake_initialize_answer_gains_the_tasks_capability_in_json_and_sse() {
        let answer = |version: &str| {
            json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": version,
                "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}})
        };
        let body = serde_json::to_vec(&answer("2025-11-25")).unwrap();
        let amended: Value =
            serde_json::from_slice(&amend_initialize_body(&body).unwrap()).unwrap();
        assert_eq!(amended["result"]["capabilities"]["tasks"], capability());
        let sse = format!(
            "id: 0\ndata: {}\n\n",
            serde_json::to_string(&answer("2025-11-25")).unwrap()
        );
        let amended = String::from_utf8(amend_initialize_body(sse.as_bytes()).unwrap()).unwrap();
        assert!(amended.starts_with("id: 0\ndata: {"), "{amended}");
        assert!(amended.ends_with("}\n\n"), "{amended}");
        assert!(amended.contains(r#""tasks":{"#), "{amended}");
        // Other revisions have no such capability.
        let older = serde_json::to_vec(&answer("2025-06-18")).unwrap();
        assert_eq!(amend_initialize_body(&older), None);
    }
}
