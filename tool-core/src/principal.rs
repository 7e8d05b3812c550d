//! Who is calling: the authenticated caller of a tool, as an MCP server's authorization
//! established it (or as an application sets it for its own calls). A tool receives it through
//! its context, never from the model's arguments.

use std::fmt;

use serde_json::{Map, Value};

use crate::context::{FromToolContext, ToolContext};
use crate::response::{ToolErrorCode, ToolResponse};

/// The authenticated caller of a tool: a subject, the scopes its token grants, and the token's
/// other claims.
///
/// An MCP server with authorization configured puts it into every call's context; any other
/// caller can do the same with [`CallContext::with_extension`](crate::CallContext::with_extension).
/// A tool takes it as a `#[context] principal: Principal` parameter (a call without one is
/// then an `ERROR` response, `PERMISSION_DENIED`) or as `#[context] principal: Option<Principal>`,
/// or reads [`ToolContext::extension`](crate::ToolContext::extension)`::<Principal>()`.
/// It never holds the token itself, so it can be logged.
///
/// ```
/// use tool_core::{tool, tools, CallContext, Principal, ToolCall};
///
/// /// Says who is asking.
/// #[tool]
/// fn whoami(#[context] principal: Principal) -> String {
///     format!("{} with {:?}", principal.subject(), principal.scopes())
/// }
///
/// let ctx = CallContext::new().with_extension(Principal::new("ada").with_scopes(["read"]));
/// let call = ToolCall::new("1", "whoami", "{}");
/// let reply = tool_core::block_on(tools![whoami].call_in(&call, &ctx));
/// assert_eq!(reply.model_text(), r#"ada with ["read"]"#);
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Principal {
    subject: String,
    scopes: Vec<String>,
    claims: Map<String, Value>,
}

impl Principal {
    /// A principal with this subject, no scopes and no other claims.
    pub fn new(subject: impl Into<String>) -> Self {
        Principal {
            subject: subject.into(),
            ..Principal::default()
        }
    }

    /// Adds scopes (duplicates are kept once).
    ///
    /// ```
    /// let p = tool_core::Principal::new("ci").with_scopes(["read", "write", "read"]);
    /// assert_eq!(p.scopes(), ["read", "write"]);
    /// ```
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        for scope in scopes {
            let scope = scope.into();
            if !self.scopes.contains(&scope) {
                self.scopes.push(scope);
            }
        }
        self
    }

    /// Sets the token's claims (all of them, as the token carried them).
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = claims;
        self
    }

    /// Who the caller is (a JWT's `sub`, a static token's name).
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes the caller's token grants, in the token's order.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The scopes of `required` the token does not grant (empty: all granted). Only the MCP
    /// server's gate asks.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn missing_scopes<'a>(&self, required: &'a [String]) -> Vec<&'a str> {
        required
            .iter()
            .filter(|scope| !self.has_scope(scope))
            .map(String::as_str)
            .collect()
    }

    /// All claims of the caller's token (empty for a static token).
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// One claim of the caller's token.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Claim values may be personal data; their names are enough to debug with.
        f.debug_struct("Principal")
            .field("subject", &self.subject)
            .field("scopes", &self.scopes)
            .field("claims", &self.claims.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl<'a> FromToolContext<'a> for Principal {
    fn from_context(ctx: &ToolContext<'a>) -> Result<Self, ToolResponse> {
        ctx.extension::<Principal>().cloned().ok_or_else(|| {
            ToolResponse::error(
                ToolErrorCode::PermissionDenied,
                format!(
                    "tool '{}' needs an authenticated caller and this call has none; the server \
                     must be configured with authorization",
                    ctx.tool_name()
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn missing_scopes_example() {
        let p = crate::Principal::new("ci").with_scopes(["read"]);
        assert_eq!(
            p.missing_scopes(&["read".into(), "write".into()]),
            ["write"]
        );
    }
}
