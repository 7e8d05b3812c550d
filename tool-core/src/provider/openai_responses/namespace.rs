//! Namespaces on the Responses API: tools in a namespace go out grouped in one
//! `{"type": "namespace", ...}` entry under their own names, calls come back with a
//! `namespace` field and are read to the qualified name (`namespace__tool`) the registry
//! knows, and a `tool_choice` naming such a tool names it with its namespace.

use serde_json::{json, Map, Value};

use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::namespace::ToolNamespace;
use crate::provider::{AllowedMode, ToolChoice};

/// The `tools` array: tools without a namespace as `tool` writes them; each namespace as one
/// entry, where its first tool stands, holding its tools in registry order.
pub(super) fn tools(defs: &[ToolDefinition], tool: impl Fn(&ToolDefinition) -> Value) -> Value {
    let mut out: Vec<Value> = Vec::with_capacity(defs.len());
    // Where each namespace's entry is in `out`, by name.
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for def in defs {
        let Some(ns) = def.namespace() else {
            out.push(tool(def));
            continue;
        };
        let at = match groups.iter().find(|(name, _)| *name == ns.name) {
            Some((_, at)) => *at,
            None => {
                groups.push((ns.name.as_str(), out.len()));
                out.push(json!({
                    "type": "namespace",
                    "name": ns.name,
                    "description": ns.description,
                    "tools": [],
                }));
                out.len() - 1
            }
        };
        if let Some(Value::Array(tools)) = out.get_mut(at).and_then(|entry| entry.get_mut("tools"))
        {
            tools.push(tool(def));
        }
    }
    Value::Array(out)
}

/// A call read from a `function_call` item: with a `namespace`, named by the qualified name
/// and carrying the namespace.
pub(super) fn read_call(item: &Value, call: ToolCall) -> ToolCall {
    in_namespace(item.get("namespace").and_then(Value::as_str), call)
}

/// A call named by the function's own name, named as the registry knows it when the API
/// gave a `namespace` (every reader of a `function_call` item, whole or streamed, goes
/// through here, so a call has one name on every path).
pub(crate) fn in_namespace(namespace: Option<&str>, call: ToolCall) -> ToolCall {
    match namespace {
        Some(ns) if !ns.is_empty() => {
            if ns != call.name {
                let mut call = call;
                call.name = qualified(Some(ns), &call.name);
                return call.with_namespace(ns);
            }
            call.with_namespace(ns)
        }
        _ => call,
    }
}

/// The name the registry knows a function by: `namespace__name`, or `name` alone outside a
/// namespace. A function found by `tool_search` that is in no namespace comes back in one
/// named after itself (the search's path): the name is already the tool's.
pub(super) fn qualified(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) if !ns.is_empty() && ns != name => {
            format!("{ns}{}{name}", ToolNamespace::SEPARATOR)
        }
        _ => name.to_owned(),
    }
}

/// Writes a call's name into a `function_call` item: a call with a namespace under its own
/// name plus `namespace`, as the API sent it.
pub(super) fn write_call_name(item: &mut Map<String, Value>, call: &ToolCall) {
    let namespace = call.namespace.as_deref().filter(|ns| !ns.is_empty());
    let local = namespace.and_then(|ns| {
        call.name
            .strip_prefix(ns)
            .and_then(|rest| rest.strip_prefix(ToolNamespace::SEPARATOR))
    });
    match (namespace, local) {
        (Some(ns), None) if ns == call.name => {
            item.insert("name".into(), json!(call.name));
            item.insert("namespace".into(), json!(ns));
        }
        (Some(ns), Some(local)) => {
            item.insert("name".into(), json!(local));
            item.insert("namespace".into(), json!(ns));
        }
        _ => {
            item.insert("name".into(), json!(call.name));
        }
    }
}

/// One function as `tool_choice` and `allowed_tools` name it: `{"type": "function", "name"}`,
/// plus `namespace` (and the tool's own name) for a tool in one.
pub(super) fn function_ref(defs: &[ToolDefinition], name: &str) -> Value {
    match defs
        .iter()
        .find(|d| d.name == name)
        .and_then(|d| d.namespace().map(|ns| (ns, d.local_name())))
    {
        Some((ns, local)) => json!({"type": "function", "name": local, "namespace": ns.name}),
        None => json!({"type": "function", "name": name}),
    }
}

/// The `tool_choice` for a choice that names tools, when one of them is in a namespace: the
/// function form has no namespace field, so one namespaced tool is forced as the only
/// allowed tool with mode `required`. `None` when the plain form serves.
pub(super) fn choice(defs: &[ToolDefinition], choice: &ToolChoice) -> Option<Value> {
    match choice {
        ToolChoice::Tool(name) => {
            defs.iter().find(|d| &d.name == name)?.namespace()?;
            Some(allowed(
                defs,
                std::slice::from_ref(name),
                AllowedMode::Required,
            ))
        }
        ToolChoice::Allowed { tools, mode } => Some(allowed(defs, tools, *mode)),
        _ => None,
    }
}

/// `{"type": "allowed_tools", "mode", "tools"}`, each tool named as `function_ref` does.
pub(super) fn allowed(defs: &[ToolDefinition], tools: &[String], mode: AllowedMode) -> Value {
    json!({
        "type": "allowed_tools",
        "mode": mode.as_str(),
        "tools": tools.iter().map(|name| function_ref(defs, name)).collect::<Vec<_>>(),
    })
}
