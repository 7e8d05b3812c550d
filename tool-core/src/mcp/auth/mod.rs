//! Authorization for the streamable HTTP server, as the MCP specification's Authorization
//! section asks of a server: an OAuth 2.1 resource server. Every MCP request carries
//! `Authorization: Bearer <token>`; a [`TokenValidator`] turns the token into a
//! [`Principal`] (subject, scopes, claims) that reaches the tools through their context.
//!
//! - No token, or one the validator rejects: HTTP 401 with
//!   `WWW-Authenticate: Bearer resource_metadata="<metadata URL>"` (plus `error="invalid_token"`
//!   and a description when a token was sent).
//! - A token without a scope the server or the called tool requires: HTTP 403 with
//!   `error="insufficient_scope"` and the scopes needed.
//! - The Protected Resource Metadata document (RFC 9728) at
//!   `/.well-known/oauth-protected-resource` and at the same path with the MCP path
//!   appended, naming the resource, its authorization servers and scopes.
//!
//! Two validators come with the crate: [`StaticTokens`] (fixed tokens, each with its
//! principal) and, with feature `mcp-auth-jwt`, [`JwtValidator`] (JWT access tokens checked
//! against the authorization server's JWKS: signature, issuer, audience, expiry).
//!
//! ```
//! use tool_core::mcp::auth::{Authorization, StaticTokens};
//! use tool_core::mcp::HttpConfig;
//! use tool_core::Principal;
//!
//! let tokens = StaticTokens::new()
//!     .with_token("s3cret-ci-token", Principal::new("ci").with_scopes(["tools:read"]));
//! let config = HttpConfig::new().authorization(
//!     Authorization::new(tokens)
//!         .with_resource("https://mcp.example.com/mcp")
//!         .with_authorization_server("https://auth.example.com"),
//! );
//! # let _ = config;
//! ```

mod metadata;
pub(crate) mod middleware;
mod static_tokens;

#[cfg(feature = "mcp-auth-jwt")]
mod jwt;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub use static_tokens::StaticTokens;

#[cfg(feature = "mcp-auth-jwt")]
pub use jwt::JwtValidator;

pub(crate) use metadata::metadata_routes;
pub(crate) use middleware::{insufficient_scope, require_token};

use crate::principal::Principal;

/// The future a [`TokenValidator`] returns.
pub type ValidateFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Principal, TokenError>> + Send + 'a>>;

/// Turns a bearer token into the [`Principal`] it stands for, or says why it does not. The
/// seam for any token scheme: implement it for an introspection endpoint, an API-key table,
/// a session cookie service.
///
/// ```
/// use tool_core::mcp::auth::{TokenError, TokenValidator, ValidateFuture};
/// use tool_core::Principal;
///
/// /// Accepts tokens of the form `user:<name>`.
/// struct Prefix;
///
/// impl TokenValidator for Prefix {
///     fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
///         Box::pin(async move {
///             token
///                 .strip_prefix("user:")
///                 .map(Principal::new)
///                 .ok_or_else(|| TokenError::Invalid("not a user token".into()))
///         })
///     }
/// }
/// let principal = tool_core::block_on(Prefix.validate("user:ada")).unwrap();
/// assert_eq!(principal.subject(), "ada");
/// ```
pub trait TokenValidator: Send + Sync + 'static {
    /// Validates `token` (the text after `Bearer `). It must not log the token.
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a>;
}

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// Unknown, malformed, badly signed, for another audience or issuer: HTTP 401
    /// `invalid_token` with this description (it must not contain the token).
    Invalid(String),
    /// The token's lifetime is over: HTTP 401 `invalid_token`, "the token has expired".
    Expired,
    /// The validator could not decide (its key set could not be fetched): HTTP 503, so the
    /// client retries instead of asking the user to sign in again.
    Unavailable(String),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Invalid(why) => write!(f, "the token is not valid: {why}"),
            TokenError::Expired => f.write_str("the token has expired"),
            TokenError::Unavailable(why) => {
                write!(f, "the token could not be checked right now: {why}")
            }
        }
    }
}

impl std::error::Error for TokenError {}

/// The server's side of the MCP Authorization specification: the validator, this server's
/// resource URL, the authorization servers that issue its tokens, and the scopes every
/// request needs. Give it to [`HttpConfig::authorization`](crate::mcp::HttpConfig::authorization).
///
/// Without [`Authorization::with_resource`], the resource URL is taken from each request:
/// `http://` + its (already allowed) `Host` + the MCP path.
#[derive(Clone)]
pub struct Authorization {
    pub(crate) validator: Arc<dyn TokenValidator>,
    pub(crate) resource: Option<String>,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) scopes_supported: Vec<String>,
    pub(crate) required_scopes: Vec<String>,
}

impl Authorization {
    /// Every MCP request must carry a token `validator` accepts.
    pub fn new(validator: impl TokenValidator) -> Self {
        Authorization {
            validator: Arc::new(validator),
            resource: None,
            authorization_servers: Vec::new(),
            scopes_supported: Vec::new(),
            required_scopes: Vec::new(),
        }
    }

    /// This server's canonical URL (`https://mcp.example.com/mcp`): the `resource` of the
    /// metadata document, and what JWT audiences must name.
    pub fn with_resource(mut self, url: &str) -> Self {
        self.resource = Some(url.trim_end_matches('/').to_owned());
        self
    }

    /// An authorization server (issuer URL) clients get tokens from, listed in the metadata.
    pub fn with_authorization_server(mut self, url: &str) -> Self {
        self.authorization_servers.push(url.to_owned());
        self
    }

    /// Scopes listed in the metadata as `scopes_supported` (the required ones are added).
    pub fn with_scopes_supported(
        mut self,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.scopes_supported
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Scopes every request's token must grant (else HTTP 403 `insufficient_scope`).
    /// Per-tool scopes are set on the registry with
    /// [`ToolRegistry::with_required_scopes`](crate::ToolRegistry::with_required_scopes).
    pub fn with_required_scopes(
        mut self,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.required_scopes
            .extend(scopes.into_iter().map(Into::into));
        self
    }
}

impl fmt::Debug for Authorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authorization")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .field("required_scopes", &self.required_scopes)
            .finish_non_exhaustive()
    }
}
