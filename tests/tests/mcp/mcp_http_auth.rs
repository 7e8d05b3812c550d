//! Authorization of the streamable HTTP server against real clients on loopback: 401s with
//! the `WWW-Authenticate` challenge, the RFC 9728 metadata document, static tokens and JWT
//! access tokens checked against a JWKS served by a loopback server, the principal reaching
//! a tool, and per-tool scopes (a tool out of scope is neither listed nor run).

#![cfg(feature = "mcp-http")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::auth::{Authorization, JwtValidator, StaticTokens};
use tool_core::mcp::{HttpConfig, HttpServing, McpServer};
use tool_core::{tool, tools, Principal, ToolRegistry};
use tool_tests::mcp::harness::bounded;

use crate::spans::{Recorder, Seen};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl-like","version":"1"}}}"#;
const SIGNING_KEY: &[u8] = include_bytes!("../../fixtures/keys/jwt_ed25519.pem");
const OTHER_KEY: &[u8] = include_bytes!("../../fixtures/keys/jwt_other_ed25519.pem");
/// The public half of `keys/jwt_ed25519.pem` (base64url of the raw Ed25519 key).
const SIGNING_KEY_X: &str = "pNVpieT799keWgDCik8Zewc5ff4pKqNCXVZLMnFTQYU";
const ISSUER: &str = "https://auth.test.invalid";

static RESETS: AtomicUsize = AtomicUsize::new(0);

/// Says who is asking, with the scopes and the `email` claim of the token.
#[tool]
fn whoami(#[context] principal: Principal) -> String {
    let email = principal
        .claim("email")
        .and_then(Value::as_str)
        .unwrap_or("-");
    format!(
        "{} [{}] {email}",
        principal.subject(),
        principal.scopes().join(" ")
    )
}

/// Resets everything (needs the `admin` scope).
#[tool]
fn reset() -> &'static str {
    RESETS.fetch_add(1, Ordering::SeqCst);
    "reset"
}

fn registry() -> ToolRegistry {
    tools![whoami, reset].with_required_scopes(reset {}, ["admin"])
}

fn http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn initialize(url: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = http()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(INITIALIZE);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

fn challenge(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .expect("a WWW-Authenticate header")
        .to_str()
        .unwrap()
        .to_owned()
}

async fn client(url: &str, token: &str) -> RunningService<RoleClient, ()> {
    let transport = StreamableHttpClientTransport::with_client(
        http(),
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token),
    );
    ().serve(transport).await.expect("the handshake succeeds")
}

async fn tool_names(client: &RunningService<RoleClient, ()>) -> Vec<String> {
    let tools = client.peer().list_all_tools().await.unwrap();
    tools.iter().map(|t| t.name.to_string()).collect()
}

async fn call_text(client: &RunningService<RoleClient, ()>, name: &str) -> Result<String, String> {
    client
        .peer()
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await
        .map(|r| {
            r.content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect()
        })
        .map_err(|e| e.to_string())
}

async fn serve(authorization: Authorization) -> HttpServing {
    McpServer::new(registry())
        .serve_http_with(
            "127.0.0.1:0",
            HttpConfig::new().authorization(authorization),
        )
        .await
        .unwrap()
}

fn static_tokens() -> StaticTokens {
    StaticTokens::new()
        .with_token("user-token", Principal::new("ada").with_scopes(["tools"]))
        .with_token(
            "admin-token",
            Principal::new("root").with_scopes(["tools", "admin"]),
        )
}

#[tokio::test]
async fn no_token_and_a_wrong_token_get_401_with_the_resource_metadata() {
    bounded(async {
        let serving =
            serve(Authorization::new(static_tokens()).with_authorization_server(ISSUER)).await;
        let url = serving.url();
        let metadata = format!(
            "http://{}/.well-known/oauth-protected-resource/mcp",
            serving.local_addr()
        );

        let missing = initialize(&url, None).await;
        assert_eq!(missing.status().as_u16(), 401);
        assert_eq!(
            challenge(&missing),
            format!("Bearer resource_metadata=\"{metadata}\"")
        );

        let wrong = initialize(&url, Some("guessed-token")).await;
        assert_eq!(wrong.status().as_u16(), 401);
        let header = challenge(&wrong);
        assert!(
            header.starts_with("Bearer error=\"invalid_token\""),
            "{header}"
        );
        assert!(
            header.contains(&format!("resource_metadata=\"{metadata}\"")),
            "{header}"
        );
        assert!(!header.contains("guessed-token"), "{header}");

        assert_eq!(
            initialize(&url, Some("user-token")).await.status().as_u16(),
            200
        );
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn the_protected_resource_metadata_document_validates() {
    bounded(async {
        let serving = serve(
            Authorization::new(static_tokens())
                .with_authorization_server(ISSUER)
                .with_scopes_supported(["tools", "admin"]),
        )
        .await;
        let base = format!("http://{}", serving.local_addr());
        for path in [
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource/mcp",
        ] {
            let response = http().get(format!("{base}{path}")).send().await.unwrap();
            assert_eq!(response.status().as_u16(), 200, "{path}");
            assert_eq!(response.headers()["content-type"], "application/json");
            let document: Value = response.json().await.unwrap();
            // RFC 9728 section 2: `resource` is required, an https/http URL without a
            // fragment, and must be the URL the client is talking to (section 3.3).
            assert_eq!(document["resource"], json!(serving.url()), "{path}");
            assert_eq!(document["authorization_servers"], json!([ISSUER]));
            assert_eq!(document["scopes_supported"], json!(["tools", "admin"]));
            assert_eq!(document["bearer_methods_supported"], json!(["header"]));
            let object = document.as_object().unwrap();
            for (key, value) in object {
                assert!(
                    value.is_string() || value.is_array(),
                    "{key} has an unexpected type"
                );
            }
        }
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn the_principal_reaches_the_tool_and_an_out_of_scope_tool_is_neither_listed_nor_run() {
    bounded(async {
        let serving = serve(Authorization::new(static_tokens())).await;
        let url = serving.url();
        let before = RESETS.load(Ordering::SeqCst);

        let user = client(&url, "user-token").await;
        assert_eq!(tool_names(&user).await, ["whoami"]);
        assert_eq!(call_text(&user, "whoami").await.unwrap(), "ada [tools] -");
        let refused = call_text(&user, "reset").await.unwrap_err();
        // HTTP 403 `insufficient_scope` (rmcp's client reports it by name).
        assert!(
            refused.to_lowercase().contains("insufficient scope"),
            "{refused}"
        );
        assert_eq!(RESETS.load(Ordering::SeqCst), before, "the tool never ran");

        let admin = client(&url, "admin-token").await;
        assert_eq!(tool_names(&admin).await, ["whoami", "reset"]);
        assert_eq!(call_text(&admin, "reset").await.unwrap(), "reset");
        assert_eq!(RESETS.load(Ordering::SeqCst), before + 1);
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn a_scope_every_request_needs_is_403_insufficient_scope() {
    bounded(async {
        let serving =
            serve(Authorization::new(static_tokens()).with_required_scopes(["admin"])).await;
        let response = initialize(&serving.url(), Some("user-token")).await;
        assert_eq!(response.status().as_u16(), 403);
        let header = challenge(&response);
        assert!(
            header.starts_with("Bearer error=\"insufficient_scope\", scope=\"admin\""),
            "{header}"
        );
        assert!(header.contains("resource_metadata=\""), "{header}");
        assert_eq!(
            initialize(&serving.url(), Some("admin-token"))
                .await
                .status()
                .as_u16(),
            200
        );
        serving.shutdown().await;
    })
    .await
}

/// A loopback server publishing the JWKS with the test key; counts fetches.
async fn jwks_server() -> (String, std::sync::Arc<AtomicUsize>) {
    let fetches = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = fetches.clone();
    let jwks = json!({ "keys": [
        { "kty": "OKP", "crv": "Ed25519", "kid": "k1", "alg": "EdDSA", "use": "sig", "x": SIGNING_KEY_X }
    ]})
    .to_string();
    let app = axum::Router::new().route(
        "/jwks.json",
        axum::routing::get(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            let jwks = jwks.clone();
            async move { jwks }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, fetches)
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn jwt(key: &[u8], claims: Value) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some("k1".to_owned());
    jsonwebtoken::encode(&header, &claims, &EncodingKey::from_ed_pem(key).unwrap()).unwrap()
}

#[tokio::test]
async fn jwt_access_tokens_are_checked_against_the_jwks() {
    bounded(async {
        let (jwks_url, fetches) = jwks_server().await;
        // The resource URL is only known once the port is: bind, then configure.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let resource = format!("http://{addr}/mcp");
        let validator = JwtValidator::new(&jwks_url, ISSUER, &resource).with_leeway(0);
        let serving = McpServer::new(registry())
            .serve_http_with(
                addr,
                HttpConfig::new().authorization(
                    Authorization::new(validator)
                        .with_resource(&resource)
                        .with_authorization_server(ISSUER),
                ),
            )
            .await
            .unwrap();
        assert_eq!(serving.url(), resource);
        let claims = |aud: &str, exp: u64| {
            json!({ "iss": ISSUER, "aud": aud, "sub": "grace", "exp": exp,
                    "scope": "tools admin", "email": "grace@example.com" })
        };

        let good = jwt(SIGNING_KEY, claims(&resource, now() + 300));
        let client = client(&resource, &good).await;
        assert_eq!(
            call_text(&client, "whoami").await.unwrap(),
            "grace [tools admin] grace@example.com"
        );
        assert_eq!(tool_names(&client).await, ["whoami", "reset"]);

        let expired = jwt(SIGNING_KEY, claims(&resource, now() - 120));
        let response = initialize(&resource, Some(&expired)).await;
        assert_eq!(response.status().as_u16(), 401);
        let header = challenge(&response);
        assert!(header.contains("error=\"invalid_token\""), "{header}");
        assert!(header.contains("expired"), "{header}");
        assert!(header.contains("resource_metadata=\"http://"), "{header}");

        let elsewhere = jwt(
            SIGNING_KEY,
            claims("https://other.example/mcp", now() + 300),
        );
        let response = initialize(&resource, Some(&elsewhere)).await;
        assert_eq!(response.status().as_u16(), 401);
        assert!(challenge(&response).contains("another resource"));

        let forged = jwt(OTHER_KEY, claims(&resource, now() + 300));
        let response = initialize(&resource, Some(&forged)).await;
        assert_eq!(response.status().as_u16(), 401);
        assert!(challenge(&response).contains("signature"));

        assert_eq!(
            initialize(&resource, Some("not.a.jwt"))
                .await
                .status()
                .as_u16(),
            401
        );
        // One fetch served every check (the key id was known after the first).
        assert_eq!(fetches.load(Ordering::SeqCst), 1);
        serving.shutdown().await;
    })
    .await
}

#[tokio::test]
async fn our_client_names_the_authorization_server_and_sends_its_token() {
    use tool_core::mcp::{HttpClientOptions, McpClient, McpErrorKind};
    bounded(async {
        let serving =
            serve(Authorization::new(static_tokens()).with_authorization_server(ISSUER)).await;
        let url = serving.url();
        let why = match McpClient::connect_http(&url).await {
            Err(e) if e.kind() == McpErrorKind::Handshake => e.message().to_owned(),
            _ => panic!("a server that needs a token refuses the handshake"),
        };
        assert!(why.contains(ISSUER), "{why}");
        assert!(why.contains("no token was sent"), "{why}");
        assert!(why.contains("oauth-protected-resource/mcp"), "{why}");

        let why = match McpClient::connect_http_with(
            &url,
            HttpClientOptions::new().bearer_token("wrong"),
        )
        .await
        {
            Err(e) if e.kind() == McpErrorKind::Handshake => e.message().to_owned(),
            _ => panic!("a wrong token is refused"),
        };
        assert!(why.contains("the token was rejected"), "{why}");
        assert!(!why.contains("wrong\""), "{why}");

        let client = McpClient::connect_http_with(
            &url,
            HttpClientOptions::new()
                .bearer_token("user-token")
                .header("x-tenant", "acme")
                .timeout(std::time::Duration::from_secs(5)),
        )
        .await
        .expect("the token is accepted");
        let mut registry = ToolRegistry::new();
        client.register_into(&mut registry, None).unwrap();
        assert_eq!(registry.names().collect::<Vec<_>>(), ["whoami"]);
        let reply = registry
            .call(&tool_core::ToolCall::new("1", "whoami", "{}"))
            .await;
        assert_eq!(reply.model_text(), "ada [tools] -");
        serving.shutdown().await;
    })
    .await
}

#[test]
fn each_request_has_a_span_with_session_and_principal_and_no_token_is_logged() {
    let seen: Seen = Default::default();
    // Global, not scoped: the server's tasks run on the runtime's threads, and a scoped
    // dispatcher races with the other tests of this binary over callsite interest. Spans of
    // those tests are recorded too, and checked for tokens as well.
    tracing::subscriber::set_global_default(Recorder::spans_and_events(seen.clone()))
        .expect("no other test installs a subscriber");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(bounded(async {
        let serving = serve(Authorization::new(static_tokens())).await;
        let user = client(&serving.url(), "user-token").await;
        assert_eq!(call_text(&user, "whoami").await.unwrap(), "ada [tools] -");
        let _ = initialize(&serving.url(), Some("guessed-token")).await;
        let _ = user.cancel().await;
        serving.shutdown().await;
    }));
    let seen = seen.lock().unwrap();
    let requests: Vec<_> = seen
        .iter()
        .filter(|(name, _)| name == "mcp_http_request")
        .collect();
    assert!(requests.len() >= 3, "{requests:?}");
    assert!(
        requests.iter().any(
            |(_, f)| f.get("principal").map(String::as_str) == Some("ada")
                && f.get("session_id").is_some_and(|s| !s.is_empty())
                && f.get("status").map(String::as_str) == Some("200")
        ),
        "{requests:?}"
    );
    assert!(requests
        .iter()
        .any(|(_, f)| f.get("status").map(String::as_str) == Some("401")));
    for (name, fields) in seen.iter() {
        for value in fields.values() {
            assert!(
                !value.contains("user-token") && !value.contains("guessed-token"),
                "a token reached the log in {name}: {fields:?}"
            );
        }
    }
}
