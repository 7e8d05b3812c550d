//! The axum middleware that checks bearer tokens, and the 401/403 replies it sends.

use std::sync::Arc;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::metadata::{metadata_url, resource};
use super::{Authorization, TokenError};

/// Middleware state: the authorization and the MCP path (for the resource URL).
#[derive(Clone)]
pub(crate) struct AuthState {
    pub(crate) authorization: Arc<Authorization>,
    pub(crate) path: Arc<str>,
}

/// Checks the request's bearer token; on success the [`Principal`](crate::Principal) goes
/// into the request's extensions (where the MCP handler finds it) and into the request's
/// span. Never logs the token.
pub(crate) async fn require_token(
    axum::extract::State(state): axum::extract::State<AuthState>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let authorization = &state.authorization;
    // The metadata URL goes only into refusals: built when one is sent, not on every request.
    let metadata = |request: &axum::extract::Request| {
        metadata_url(&resource(authorization, request.headers(), &state.path))
    };
    let Some(token) = bearer(request.headers()) else {
        return unauthorized(&metadata(&request), None);
    };
    let principal = match authorization.validator.validate(token).await {
        Ok(principal) => principal,
        Err(TokenError::Unavailable(why)) => {
            tracing::warn!(reason = %why, "token validation unavailable");
            return reply(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                json!({ "error": "temporarily_unavailable", "error_description": why }),
            );
        }
        Err(error) => {
            tracing::debug!(reason = %error, "rejected a bearer token");
            return unauthorized(&metadata(&request), Some(&error));
        }
    };
    // The request's span travels in its extensions (see the router's `trace_request`), so
    // the principal is recorded whatever subscriber tracks the current span.
    if let Some(span) = request.extensions().get::<tracing::Span>() {
        span.record("principal", principal.subject());
    }
    let missing = principal.missing_scopes(&authorization.required_scopes);
    if !missing.is_empty() {
        return insufficient_scope_at(&metadata(&request), &authorization.required_scopes);
    }
    request.extensions_mut().insert(principal);
    next.run(request).await
}

/// The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// 401: no token (`error` absent, as RFC 6750 section 3.1 asks) or a rejected one.
fn unauthorized(metadata: &str, error: Option<&TokenError>) -> Response {
    let (challenge, body) = match error {
        None => (
            format!("Bearer resource_metadata=\"{}\"", quoted(metadata)),
            json!({
                "error": "invalid_request",
                "error_description": "this server needs an OAuth bearer token: send `Authorization: Bearer <token>`; the resource metadata names the authorization server to get one from",
                "resource_metadata": metadata,
            }),
        ),
        Some(error) => {
            let description = error.to_string();
            (
                format!(
                    "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{}\"",
                    quoted(&description),
                    quoted(metadata)
                ),
                json!({
                    "error": "invalid_token",
                    "error_description": description,
                    "resource_metadata": metadata,
                }),
            )
        }
    };
    reply(StatusCode::UNAUTHORIZED, Some(challenge), body)
}

/// 403 `insufficient_scope`, naming every scope `required` (RFC 6750 section 3.1).
pub(crate) fn insufficient_scope(authorization: &Authorization, required: &[String]) -> Response {
    // The resource URL without a request: the configured one, or the path-only form.
    let metadata = authorization
        .resource
        .as_deref()
        .map(metadata_url)
        .unwrap_or_else(|| "/.well-known/oauth-protected-resource".to_owned());
    insufficient_scope_at(&metadata, required)
}

fn insufficient_scope_at(metadata: &str, required: &[String]) -> Response {
    let scope = required.join(" ");
    let challenge = format!(
        "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\"",
        quoted(&scope),
        quoted(metadata)
    );
    reply(
        StatusCode::FORBIDDEN,
        Some(challenge),
        json!({
            "error": "insufficient_scope",
            "error_description": format!("this request needs a token with the scopes: {scope}"),
            "scope": scope,
        }),
    )
}

fn reply(status: StatusCode, challenge: Option<String>, body: serde_json::Value) -> Response {
    let mut response = Response::new(axum::body::Body::from(body.to_string()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Some(challenge) = challenge.and_then(|c| HeaderValue::try_from(c).ok()) {
        headers.insert(header::WWW_AUTHENTICATE, challenge);
    }
    response
}

/// Text safe inside a quoted-string of a header: no quotes, backslashes or control bytes.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_control() || !c.is_ascii() => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_case_insensitively_and_never_empty() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer abc"),
        );
        assert_eq!(bearer(&headers), Some("abc"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer(&headers), None);
    }
}
