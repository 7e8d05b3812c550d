//! [`StaticTokens`]: fixed bearer tokens, each standing for one principal.

use std::fmt;

use super::{TokenError, TokenValidator, ValidateFuture};
use crate::principal::Principal;

/// A fixed set of bearer tokens (API keys, CI secrets), each with the [`Principal`] it
/// stands for. Tokens are compared in constant time, all of them on every check.
///
/// ```
/// use tool_core::mcp::auth::{StaticTokens, TokenValidator};
/// use tool_core::Principal;
///
/// let tokens = StaticTokens::new().with_token("t0ken", Principal::new("ci").with_scopes(["read"]));
/// let principal = tool_core::block_on(tokens.validate("t0ken")).unwrap();
/// assert!(principal.has_scope("read"));
/// assert!(tool_core::block_on(tokens.validate("guess")).is_err());
/// ```
#[derive(Clone, Default)]
pub struct StaticTokens {
    tokens: Vec<(Vec<u8>, Principal)>,
}

impl StaticTokens {
    /// No tokens: every request is refused until tokens are added.
    pub fn new() -> Self {
        Self::default()
    }

    /// Accepts `token` as `principal`.
    pub fn with_token(mut self, token: impl Into<String>, principal: Principal) -> Self {
        self.tokens.push((token.into().into_bytes(), principal));
        self
    }

    /// How many tokens are accepted.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether no token is accepted.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    fn find(&self, token: &[u8]) -> Option<&Principal> {
        // Every entry is compared, and each comparison looks at every byte, so the time taken
        // does not tell how much of a guess was right.
        let mut found = None;
        for (candidate, principal) in &self.tokens {
            if constant_time_eq(candidate, token) && found.is_none() {
                found = Some(principal);
            }
        }
        found
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl TokenValidator for StaticTokens {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let result = self
            .find(token.as_bytes())
            .cloned()
            .ok_or_else(|| TokenError::Invalid("unknown token".to_owned()));
        Box::pin(std::future::ready(result))
    }
}

impl fmt::Debug for StaticTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the tokens themselves.
        f.debug_struct("StaticTokens")
            .field(
                "principals",
                &self
                    .tokens
                    .iter()
                    .map(|(_, p)| p.subject())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
