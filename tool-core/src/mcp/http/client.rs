//! [`McpClient::connect_http`] and its options: a bearer token or any header, a timeout, a
//! caller's own `reqwest::Client`; a server that wants a token is reported with the
//! authorization server to get one from.

use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;

use super::super::{McpClient, McpClientBuilder, McpError, McpErrorKind};

/// How [`McpClient::connect_http_with`] connects: credentials, headers, time limit, HTTP
/// client.
///
/// ```
/// use std::time::Duration;
/// use tool_core::mcp::HttpClientOptions;
///
/// let options = HttpClientOptions::new()
///     .bearer_token("s3cret")
///     .header("x-tenant", "acme")
///     .timeout(Duration::from_secs(10));
/// # let _ = options;
/// ```
#[derive(Clone, Default)]
pub struct HttpClientOptions {
    bearer: Option<String>,
    headers: Vec<(String, String)>,
    timeout: Option<Duration>,
    client: Option<reqwest::Client>,
}

impl HttpClientOptions {
    /// No credentials, no extra headers, a 60-second time limit, a client of our own.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends `Authorization: Bearer <token>` with every request.
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer = Some(token.into());
        self
    }

    /// Sends this header with every request (an API key, a tenant id). Invalid names or
    /// values make the connection fail with an error saying which.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Bounds the handshake, the tool list and each call (default 60 seconds).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// Uses this HTTP client (proxies, certificates, pools of your own). Ours follows no
    /// redirects, so that the session id is never replayed to another host; yours should
    /// not either.
    pub fn client(mut self, client: reqwest::Client) -> Self {
        self.client = Some(client);
        self
    }
}

impl fmt::Debug for HttpClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token or header values (they are often credentials).
        f.debug_struct("HttpClientOptions")
            .field("bearer", &self.bearer.as_ref().map(|_| "<set>"))
            .field(
                "headers",
                &self.headers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("timeout", &self.timeout)
            .field("own_client", &self.client.is_some())
            .finish()
    }
}

impl McpClient {
    /// Connects to an MCP server over streamable HTTP at `url` (e.g.
    /// `"http://127.0.0.1:8080/mcp"`), runs the handshake and fetches the tool list, each
    /// bounded by 60 seconds (see [`HttpClientOptions::timeout`]). `https://` uses rustls with the `ring` provider
    /// (installed as the process default unless the application chose one). A server that
    /// goes away later makes calls of its tools `SERVICE_UNAVAILABLE` or `NETWORK_ERROR`
    /// responses.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::{mcp::McpClient, ToolRegistry};
    ///
    /// let client = McpClient::connect_http("http://127.0.0.1:8080/mcp").await?;
    /// let mut registry = ToolRegistry::new();
    /// client.register_into(&mut registry, Some("calc_"))?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_http(url: &str) -> Result<McpClient, McpError> {
        Self::connect_http_with(url, HttpClientOptions::new()).await
    }

    /// [`McpClient::connect_http`] with credentials, headers, a timeout or an HTTP client of
    /// your own. A server that answers 401 is reported as an [`McpErrorKind::Handshake`] error naming the
    /// authorization server its Protected Resource Metadata lists (this client does not run
    /// OAuth flows: get a token there, e.g. with rmcp's `auth` feature, and pass it as
    /// [`HttpClientOptions::bearer_token`]).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::mcp::{HttpClientOptions, McpClient};
    ///
    /// let token = std::env::var("MCP_TOKEN").unwrap_or_default();
    /// let client = McpClient::connect_http_with(
    ///     "https://mcp.example.com/mcp",
    ///     HttpClientOptions::new().bearer_token(token),
    /// )
    /// .await?;
    /// # let _ = client; Ok(()) }
    /// ```
    pub async fn connect_http_with(
        url: &str,
        options: HttpClientOptions,
    ) -> Result<McpClient, McpError> {
        McpClient::builder().connect_http(url, options).await
    }
}

impl McpClientBuilder {
    /// [`McpClient::connect_http_with`] for a client built with these handlers and settings;
    /// a time limit set in `options` wins over the builder's.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::mcp::McpError> {
    /// use tool_core::mcp::{HttpClientOptions, McpClient};
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    ///
    /// let client = McpClient::builder()
    ///     .sampling(ScriptedModel::new([ModelTurn::text("Hi")]))
    ///     .connect_http("http://127.0.0.1:8080/mcp", HttpClientOptions::new())
    ///     .await?;
    /// # let _ = client; Ok(()) }
    /// ```
    pub async fn connect_http(
        self,
        url: &str,
        options: HttpClientOptions,
    ) -> Result<McpClient, McpError> {
        crate::mcp::client::require_tokio("connecting an MCP client over HTTP")?;
        // reqwest is built without a default crypto provider (aws-lc-rs would need cmake).
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = match options.client.clone() {
            Some(client) => client,
            None => reqwest::Client::builder()
                // A redirect could replay the session id to another host; rmcp's own
                // default client follows same-origin ones only, ours follows none.
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| {
                    McpError::new(
                        McpErrorKind::Transport,
                        format!("could not build the HTTP client: {e}"),
                    )
                    .with_source(e)
                })?,
        };
        let mut headers = HashMap::new();
        for (name, value) in &options.headers {
            let header = HeaderName::try_from(name.as_str()).map_err(|e| {
                McpError::new(
                    McpErrorKind::Transport,
                    format!("'{name}' is not a valid HTTP header name: {e}"),
                )
                .with_source(e)
            })?;
            let value = HeaderValue::try_from(value.as_str()).map_err(|e| {
                McpError::new(
                    McpErrorKind::Transport,
                    format!("the value of header '{name}' is not valid: {e}"),
                )
                .with_source(e)
            })?;
            headers.insert(header, value);
        }
        let mut config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(headers);
        if let Some(token) = &options.bearer {
            config = config.auth_header(token.clone());
        }
        let transport = StreamableHttpClientTransport::with_client(http.clone(), config);
        let builder = match options.timeout {
            Some(limit) => self.timeout(limit),
            None => self,
        };
        match builder.connect(transport).await {
            Ok(client) => Ok(client),
            Err(e) if e.kind() == McpErrorKind::Handshake => {
                match authorization_needed(&http, url, &options).await {
                    Some(explained) => {
                        Err(McpError::new(McpErrorKind::Handshake, explained).with_source(e))
                    }
                    None => Err(e),
                }
            }
            Err(other) => Err(other),
        }
    }
}

/// After a failed handshake: if the server answers 401 with a `resource_metadata`
/// challenge, says which authorization server to get a token from.
async fn authorization_needed(
    http: &reqwest::Client,
    url: &str,
    options: &HttpClientOptions,
) -> Option<String> {
    const PROBE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tool-core","version":"0"}}}"#;
    let mut request = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .timeout(Duration::from_secs(10))
        .body(PROBE);
    for (name, value) in &options.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    if let Some(token) = &options.bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.ok()?;
    if response.status() != reqwest::StatusCode::UNAUTHORIZED {
        return None;
    }
    let challenge = response
        .headers()
        .get(reqwest::header::WWW_AUTHENTICATE)?
        .to_str()
        .ok()?
        .to_owned();
    let metadata_url = parameter(&challenge, "resource_metadata")?;
    let servers = match http
        .get(&metadata_url)
        .timeout(Duration::from_secs(10))
        .send()
        .await
    {
        Ok(reply) => reply
            .json::<serde_json::Value>()
            .await
            .ok()
            .and_then(|doc| doc.get("authorization_servers").cloned())
            .and_then(|v| v.as_array().cloned())
            .map(|list| {
                list.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let rejected = match parameter(&challenge, "error_description") {
        Some(why) => format!("the token was rejected ({why})"),
        None if options.bearer.is_some() => "the token was rejected".to_owned(),
        None => "no token was sent".to_owned(),
    };
    let from = if servers.is_empty() {
        format!("its resource metadata at {metadata_url} names no authorization server")
    } else {
        format!(
            "get a token from the authorization server {}",
            servers.join(" or ")
        )
    };
    Some(format!(
        "the server requires authorization and {rejected}: {from} (resource metadata: \
         {metadata_url}) and pass it with HttpClientOptions::bearer_token"
    ))
}

/// The value of `name="value"` in a `WWW-Authenticate` challenge.
fn parameter(challenge: &str, name: &str) -> Option<String> {
    let start = challenge.find(&format!("{name}=\""))? + name.len() + 2;
    let rest = challenge.get(start..)?;
    let end = rest.find('"')?;
    rest.get(..end).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::parameter;

    #[test]
    fn challenge_parameters_are_read_by_name() {
        let c = r#"Bearer error="invalid_token", error_description="expired", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#;
        assert_eq!(
            parameter(c, "resource_metadata").as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(
            parameter(c, "error_description").as_deref(),
            Some("expired")
        );
        assert_eq!(parameter(c, "scope"), None);
    }
}
