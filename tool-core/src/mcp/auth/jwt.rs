//! [`JwtValidator`]: JWT access tokens checked against an authorization server's JWKS
//! (feature `mcp-auth-jwt`, on the `jsonwebtoken` crate).

use std::fmt;
use std::time::{Duration, Instant};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};
use tokio::sync::RwLock;

use super::{TokenError, TokenValidator, ValidateFuture};
use crate::principal::Principal;

/// How often an unknown key id may make the validator fetch the JWKS again (keys rotate;
/// garbage tokens must not turn into a request flood against the authorization server).
const REFETCH_AFTER: Duration = Duration::from_secs(30);

/// How long fetching the JWKS may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Validates JWT access tokens: the signature against a key of the authorization server's
/// JWKS (chosen by the token's `kid`; the algorithm must fit the key, so `none` and HMAC
/// tricks fail), `iss` = the issuer, `aud` = this server's resource URL, `exp` in the future
/// (with a leeway, default 60 s), `sub` present. The principal is `sub`, its scopes are the
/// `scope` claim (space-separated, as RFC 9068 has it) or `scp` (an array), its claims all
/// of the token's claims.
///
/// The JWKS is fetched on first use and again when a token names a key id it does not
/// hold (at most every 30 s), so key rotation needs no restart.
///
/// ```no_run
/// use tool_core::mcp::auth::{Authorization, JwtValidator};
///
/// let validator = JwtValidator::new(
///     "https://auth.example.com/.well-known/jwks.json",
///     "https://auth.example.com",
///     "https://mcp.example.com/mcp",
/// );
/// let authorization = Authorization::new(validator)
///     .with_resource("https://mcp.example.com/mcp")
///     .with_authorization_server("https://auth.example.com");
/// # let _ = authorization;
/// ```
pub struct JwtValidator {
    jwks_url: Option<String>,
    issuer: String,
    audience: String,
    leeway: u64,
    keys: RwLock<Keys>,
    http: reqwest::Client,
}

#[derive(Default)]
struct Keys {
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

impl JwtValidator {
    /// Tokens issued by `issuer` for `audience` (this server's resource URL), signed with a
    /// key of the JWKS at `jwks_url`.
    pub fn new(jwks_url: &str, issuer: &str, audience: &str) -> Self {
        // reqwest is built without a default crypto provider (aws-lc-rs would need cmake).
        let _ = rustls::crypto::ring::default_provider().install_default();
        JwtValidator {
            jwks_url: Some(jwks_url.to_owned()),
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            leeway: 60,
            keys: RwLock::new(Keys::default()),
            http: reqwest::Client::builder()
                .timeout(FETCH_TIMEOUT)
                .build()
                .unwrap_or_default(),
        }
    }

    /// Tokens signed with a key of `jwks` (a JWKS document), never fetched.
    ///
    /// ```
    /// use tool_core::mcp::auth::JwtValidator;
    /// let jwks = r#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"pNVpieT799keWgDCik8Zewc5ff4pKqNCXVZLMnFTQYU"}]}"#;
    /// assert!(JwtValidator::from_jwks(jwks, "https://auth.example.com", "https://mcp.example.com/mcp").is_ok());
    /// assert!(JwtValidator::from_jwks("{}", "i", "a").is_err());
    /// ```
    pub fn from_jwks(jwks: &str, issuer: &str, audience: &str) -> Result<Self, TokenError> {
        let set: JwkSet = serde_json::from_str(jwks)
            .map_err(|e| TokenError::Unavailable(format!("the JWKS is not valid: {e}")))?;
        let mut validator = JwtValidator::new("", issuer, audience);
        validator.jwks_url = None;
        validator.keys = RwLock::new(Keys {
            set: Some(set),
            fetched: Some(Instant::now()),
        });
        Ok(validator)
    }

    /// How many seconds of clock skew `exp` and `nbf` tolerate (default 60).
    pub fn with_leeway(mut self, seconds: u64) -> Self {
        self.leeway = seconds;
        self
    }

    async fn check(&self, token: &str) -> Result<Principal, TokenError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| TokenError::Invalid(format!("not a JWT: {e}")))?;
        let jwk = self.key(header.kid.as_deref()).await?;
        if !fits(header.alg, &jwk.algorithm) {
            return Err(TokenError::Invalid(format!(
                "the token's algorithm {:?} does not fit its signing key",
                header.alg
            )));
        }
        let key = DecodingKey::from_jwk(&jwk)
            .map_err(|e| TokenError::Unavailable(format!("a JWKS key is unusable: {e}")))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = self.leeway;
        let data =
            jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation).map_err(|e| {
                match e.kind() {
                    ErrorKind::ExpiredSignature => TokenError::Expired,
                    ErrorKind::InvalidAudience => TokenError::Invalid(format!(
                        "the token is for another resource; this server is {}",
                        self.audience
                    )),
                    ErrorKind::InvalidIssuer => {
                        TokenError::Invalid(format!("the token was not issued by {}", self.issuer))
                    }
                    ErrorKind::ImmatureSignature => {
                        TokenError::Invalid("the token is not valid yet".to_owned())
                    }
                    ErrorKind::InvalidSignature => {
                        TokenError::Invalid("the token's signature does not verify".to_owned())
                    }
                    ErrorKind::MissingRequiredClaim(claim) => {
                        TokenError::Invalid(format!("the token has no '{claim}' claim"))
                    }
                    _ => TokenError::Invalid(format!("the token could not be verified: {e}")),
                }
            })?;
        Ok(principal(data.claims))
    }

    /// The key for `kid` (or the only key, for a token without `kid`), fetching the JWKS
    /// when it is not known yet or the key id is new.
    async fn key(&self, kid: Option<&str>) -> Result<Jwk, TokenError> {
        {
            let keys = self.keys.read().await;
            if let Some(jwk) = keys.set.as_ref().and_then(|set| pick(set, kid)) {
                return Ok(jwk);
            }
            let recent = keys.fetched.is_some_and(|at| at.elapsed() < REFETCH_AFTER);
            if recent || self.jwks_url.is_none() {
                return Err(TokenError::Invalid(
                    "the token's signing key is not in the authorization server's key set"
                        .to_owned(),
                ));
            }
        }
        let mut keys = self.keys.write().await;
        // Another request may have fetched meanwhile.
        if keys.fetched.is_none_or(|at| at.elapsed() >= REFETCH_AFTER) {
            let url = self.jwks_url.as_deref().unwrap_or_default();
            keys.fetched = Some(Instant::now());
            keys.set = Some(self.fetch(url).await?);
        }
        keys.set
            .as_ref()
            .and_then(|set| pick(set, kid))
            .ok_or_else(|| {
                TokenError::Invalid(
                    "the token's signing key is not in the authorization server's key set"
                        .to_owned(),
                )
            })
    }

    async fn fetch(&self, url: &str) -> Result<JwkSet, TokenError> {
        let unavailable = |e: &dyn fmt::Display| {
            TokenError::Unavailable(format!("the JWKS at {url} could not be fetched: {e}"))
        };
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| unavailable(&e))?;
        if !response.status().is_success() {
            return Err(unavailable(&format!("HTTP {}", response.status())));
        }
        let body = response.bytes().await.map_err(|e| unavailable(&e))?;
        serde_json::from_slice(&body).map_err(|e| unavailable(&e))
    }
}

fn pick(set: &JwkSet, kid: Option<&str>) -> Option<Jwk> {
    match kid {
        Some(kid) => set.find(kid).cloned(),
        None if set.keys.len() == 1 => set.keys.first().cloned(),
        None => None,
    }
}

/// Whether a token's `alg` belongs to the key's family (RFC 8725 section 3.1: never let the
/// token choose how it is checked).
fn fits(alg: Algorithm, key: &AlgorithmParameters) -> bool {
    use Algorithm::*;
    match key {
        AlgorithmParameters::RSA(_) => matches!(alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512),
        AlgorithmParameters::EllipticCurve(_) => matches!(alg, ES256 | ES384),
        AlgorithmParameters::OctetKeyPair(_) => matches!(alg, EdDSA),
        // A shared secret in a published key set is a misconfiguration, not a key.
        AlgorithmParameters::OctetKey(_) => false,
    }
}

fn principal(claims: Map<String, Value>) -> Principal {
    let subject = claims
        .get("sub")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let scopes: Vec<String> = match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(scopes)) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    Principal::new(subject)
        .with_scopes(scopes)
        .with_claims(claims)
}

impl TokenValidator for JwtValidator {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(self.check(token))
    }
}

impl fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtValidator")
            .field("jwks_url", &self.jwks_url)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .finish_non_exhaustive()
    }
}
