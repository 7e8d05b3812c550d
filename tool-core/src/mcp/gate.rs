//! What the MCP server checks around a request, whatever the transport: who the caller is
//! (the [`Principal`] an authorizing transport established), whether it may see and call a
//! tool (the registry's required scopes), and the per-call time limit.

use std::time::Duration;

use rmcp::service::RequestContext;
use rmcp::RoleServer;

use crate::principal::Principal;
use crate::registry::ToolRegistry;
use crate::response::{ToolErrorCode, ToolResponse};

/// The caller of a request: over streamable HTTP with authorization, the principal the
/// token check put into the HTTP request, which rmcp hands on in the request's extensions.
pub(super) fn principal_of(context: &RequestContext<RoleServer>) -> Option<Principal> {
    #[cfg(feature = "mcp-http")]
    {
        context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .cloned()
    }
    #[cfg(not(feature = "mcp-http"))]
    {
        let _ = context;
        None
    }
}

/// Whether `principal` may see and call `tool`: a tool without required scopes is open to
/// everyone; one with scopes only to a principal holding all of them.
pub(super) fn may_use(registry: &ToolRegistry, tool: &str, principal: Option<&Principal>) -> bool {
    let required = registry.required_scopes(tool);
    required.is_empty() || principal.is_some_and(|p| p.missing_scopes(required).is_empty())
}

/// Runs a call under the server's per-call time limit, if it has one.
pub(super) async fn within(
    limit: Option<Duration>,
    tool: &str,
    call: impl std::future::Future<Output = ToolResponse>,
) -> ToolResponse {
    let Some(limit) = limit else {
        return call.await;
    };
    match tokio::time::timeout(limit, call).await {
        Ok(response) => response,
        Err(_) => ToolResponse::error(
            ToolErrorCode::Timeout,
            format!(
                "tool '{tool}' did not finish within the server's limit of {} ms per call and \
                 was stopped; try a smaller request",
                limit.as_millis()
            ),
        ),
    }
}
