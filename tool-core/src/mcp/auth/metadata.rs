//! The Protected Resource Metadata document (RFC 9728) and the URLs that point at it.

use std::sync::Arc;

use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Authorization;

/// Where RFC 9728 puts the document: this prefix, then the resource's path.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The resource URL for a request: the configured one, or `http://` + the request's `Host`
/// (already checked against the allowed hosts) + the MCP path.
pub(crate) fn resource(authorization: &Authorization, headers: &HeaderMap, path: &str) -> String {
    if let Some(resource) = &authorization.resource {
        return resource.clone();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        // Only a well-formed authority goes into a header we send back.
        .filter(|h| h.parse::<axum::http::uri::Authority>().is_ok())
        .unwrap_or("localhost");
    format!("http://{host}{path}")
}

/// The metadata URL of a resource URL: the well-known prefix between its authority and its
/// path, as RFC 9728 section 3.1 builds it.
pub(crate) fn metadata_url(resource: &str) -> String {
    match resource.parse::<Uri>() {
        Ok(uri) => match (uri.scheme_str(), uri.authority()) {
            (Some(scheme), Some(authority)) => {
                let path = uri.path().trim_end_matches('/');
                format!("{scheme}://{authority}{WELL_KNOWN}{path}")
            }
            _ => format!("{}{WELL_KNOWN}", resource.trim_end_matches('/')),
        },
        Err(_) => format!("{}{WELL_KNOWN}", resource.trim_end_matches('/')),
    }
}

/// The document itself.
fn document(authorization: &Authorization, resource: String) -> serde_json::Value {
    let mut scopes = authorization.scopes_supported.clone();
    for scope in &authorization.required_scopes {
        if !scopes.contains(scope) {
            scopes.push(scope.clone());
        }
    }
    json!({
        "resource": resource,
        "authorization_servers": authorization.authorization_servers,
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    })
}

/// Adds `GET /.well-known/oauth-protected-resource` and the path-suffixed form for `path`
/// (and for the configured resource's path, when that differs) to `router`.
pub(crate) fn metadata_routes(
    router: axum::Router,
    authorization: Arc<Authorization>,
    path: &str,
) -> axum::Router {
    let mut paths = vec![WELL_KNOWN.to_owned(), format!("{WELL_KNOWN}{path}")];
    if let Some(resource_path) = authorization
        .resource
        .as_deref()
        .and_then(|r| r.parse::<Uri>().ok())
        .map(|uri| uri.path().trim_end_matches('/').to_owned())
    {
        let suffixed = format!("{WELL_KNOWN}{resource_path}");
        if !paths.contains(&suffixed) {
            paths.push(suffixed);
        }
    }
    let mcp_path = path.to_owned();
    let mut router = router;
    for route in paths {
        let authorization = authorization.clone();
        let mcp_path = mcp_path.clone();
        router = router.route(
            &route,
            axum::routing::get(move |headers: HeaderMap| async move {
                let resource = resource(&authorization, &headers, &mcp_path);
                let body = document(&authorization, resource).to_string();
                Response::builder()
                    .status(StatusCode::OK)
                    .header(header::CONTENT_TYPE, "application/json")
                    // Browser-based clients fetch it cross-origin before they have a token.
                    .header(header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                    .body(axum::body::Body::from(body))
                    .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
            }),
        );
    }
    router
}

#[cfg(test)]
mod tests {
    use super::metadata_url;

    #[test]
    fn the_well_known_prefix_goes_between_authority_and_path() {
        assert_eq!(
            metadata_url("https://mcp.example.com/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        );
    }
}
