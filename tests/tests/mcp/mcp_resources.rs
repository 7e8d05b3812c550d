//! rmcp's own client against an `McpServer` with a catalog: resources (fixed, templated,
//! JSON, binary, failing), prompts, completion, subscriptions with `resources/updated`, and
//! `list_changed` when the application changes the catalog while serving.

#![cfg(feature = "mcp")]
#![allow(deprecated)] // resources/subscribe is a handshake-era request, which is what we test.

use std::time::Duration;

use rmcp::model::{
    ErrorCode, GetPromptRequestParams, ReadResourceRequestParams, ResourceContents,
    ResourceUpdatedNotificationParam, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::json;
use tokio::sync::mpsc;
use tool_core::catalog::{Blob, Catalog, CompletionTarget, PromptMessage};
use tool_core::mcp::{McpServer, ServerHandle};
use tool_core::{prompt, prompts, resource, resources, Json, ToolRegistry};

#[derive(serde::Serialize)]
struct Weather {
    city: String,
    temp_c: f32,
}

/// Current conditions for a city.
#[resource(uri = "weather://{city}/current", title = "Current weather")]
fn current(city: String) -> Json<Weather> {
    Json(Weather { city, temp_c: 21.5 })
}

/// The forecast some days ahead.
#[resource(uri = "forecast://{city}/{days}")]
async fn forecast(city: String, days: u8) -> Result<String, String> {
    if days > 7 {
        return Err(format!("no forecast {days} days ahead: at most 7"));
    }
    Ok(format!("{city} in {days} days: sunny"))
}

/// The units every value uses.
#[resource(uri = "docs://units", mime_type = "text/markdown")]
fn units() -> &'static str {
    "# Units\nCelsius."
}

/// The logo.
#[resource(uri = "images://logo")]
fn logo() -> Blob {
    Blob::new(*b"foobar", "image/png")
}

/// Plans a trip.
#[prompt(title = "Plan a trip")]
fn plan_trip(
    /// Where to go.
    city: String,
    /// How many days (3 unless given).
    days: Option<u32>,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Plan {} days in {city}.", days.unwrap_or(3))),
        PromptMessage::assistant("Gladly."),
    ]
}

/// Says hello.
#[prompt]
fn hello() -> &'static str {
    "Hello!"
}

/// Asks for a packing list.
#[prompt]
fn packing(
    /// Where to.
    city: String,
) -> String {
    format!("What should I pack for {city}?")
}

fn cities(typed: &str) -> Vec<String> {
    ["Lisbon", "London", "Oslo"]
        .iter()
        .filter(|c| c.to_lowercase().starts_with(&typed.to_lowercase()))
        .map(|c| c.to_string())
        .collect()
}

fn catalog() -> Catalog {
    resources![current, forecast, units, logo]
        .merge(prompts![plan_trip, hello])
        .with_completer(CompletionTarget::Prompt("plan_trip".into()), "city", cities)
        .with_completer(
            CompletionTarget::Template("weather://{city}/current".into()),
            "city",
            cities,
        )
}

/// What the client was told, in order.
#[derive(Debug, PartialEq)]
enum Heard {
    Updated(String),
    ResourceListChanged,
    PromptListChanged,
}

#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<Heard>);

impl ClientHandler for Watcher {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(Heard::Updated(params.uri));
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(Heard::ResourceListChanged);
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(Heard::PromptListChanged);
    }
}

type Client = RunningService<RoleClient, Watcher>;

async fn connect(server: McpServer) -> (Client, mpsc::UnboundedReceiver<Heard>) {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    let (tx, rx) = mpsc::unbounded_channel();
    (Watcher(tx).serve(near).await.unwrap(), rx)
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::new())
        .with_catalog(catalog())
        .with_page_size(1)
}

fn code(error: ServiceError) -> (ErrorCode, String) {
    match error {
        ServiceError::McpError(e) => (e.code, e.message.into_owned()),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

fn read(uri: &str) -> ReadResourceRequestParams {
    ReadResourceRequestParams::new(uri)
}

fn get(name: &str, arguments: serde_json::Value) -> GetPromptRequestParams {
    let mut params = GetPromptRequestParams::new(name);
    if let serde_json::Value::Object(map) = arguments {
        params.arguments = Some(map);
    }
    params
}

#[tokio::test]
async fn capabilities_say_exactly_what_is_served() {
    let (client, _) = connect(server()).await;
    let info = client.peer().peer_info().unwrap();
    let caps = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(
        caps["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(caps["prompts"], json!({"listChanged": true}));
    assert_eq!(caps["completions"], json!({}));
    // Tools log through their context, so every server offers logging.
    assert_eq!(caps["logging"], json!({}));

    let (bare, _) = connect(McpServer::new(ToolRegistry::new())).await;
    let caps = serde_json::to_value(&bare.peer().peer_info().unwrap().capabilities).unwrap();
    for absent in ["resources", "prompts", "completions"] {
        assert!(caps.get(absent).is_none(), "{absent} in {caps}");
    }
    let error = bare.peer().list_resources(None).await.unwrap_err();
    assert_eq!(code(error).0, ErrorCode::METHOD_NOT_FOUND);
}

#[tokio::test]
async fn resources_are_listed_page_by_page_and_read() {
    let (client, _) = connect(server()).await;
    // Page size 1: two fixed resources take two pages, which list_all follows.
    let first = client.peer().list_resources(None).await.unwrap();
    assert_eq!(first.resources.len(), 1);
    assert_eq!(first.next_cursor.as_deref(), Some("1"));
    let all = client.peer().list_all_resources().await.unwrap();
    let listed: Vec<_> = all
        .iter()
        .map(|r| (r.uri.as_str(), r.name.as_str(), r.mime_type.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            ("docs://units", "units", Some("text/markdown")),
            ("images://logo", "logo", None)
        ]
    );
    assert_eq!(
        all[0].description.as_deref(),
        Some("The units every value uses.")
    );

    let templates = client.peer().list_all_resource_templates().await.unwrap();
    let listed: Vec<_> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert_eq!(
        listed,
        ["weather://{city}/current", "forecast://{city}/{days}"]
    );
    assert_eq!(templates[0].title.as_deref(), Some("Current weather"));

    let result = client
        .peer()
        .read_resource(read("weather://S%C3%A3o%20Paulo/current"))
        .await
        .unwrap();
    let value = serde_json::to_value(&result.contents).unwrap();
    assert_eq!(
        value,
        json!([{
            "uri": "weather://S%C3%A3o%20Paulo/current",
            "mimeType": "application/json",
            "text": "{\"city\":\"São Paulo\",\"temp_c\":21.5}"
        }])
    );
    let result = client
        .peer()
        .read_resource(read("images://logo"))
        .await
        .unwrap();
    match &result.contents[..] {
        [ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        }] => {
            assert_eq!(blob, "Zm9vYmFy");
            assert_eq!(mime_type.as_deref(), Some("image/png"));
        }
        other => panic!("expected one blob, got {other:?}"),
    }
    let result = client
        .peer()
        .read_resource(read("forecast://Oslo/2"))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&result.contents).unwrap()[0]["text"],
        "Oslo in 2 days: sunny"
    );
}

#[tokio::test]
async fn bad_reads_are_json_rpc_errors_that_say_what_to_do() {
    let (client, _) = connect(server()).await;
    let (c, message) = code(
        client
            .peer()
            .read_resource(read("docs://nothing"))
            .await
            .unwrap_err(),
    );
    assert_eq!(c, ErrorCode::RESOURCE_NOT_FOUND);
    assert!(
        message.contains("list resources and resource templates"),
        "{message}"
    );
    let (c, message) = code(
        client
            .peer()
            .read_resource(read("forecast://Oslo/9"))
            .await
            .unwrap_err(),
    );
    assert_eq!(c, ErrorCode::INTERNAL_ERROR);
    assert_eq!(message, "no forecast 9 days ahead: at most 7");
    let (c, message) = code(
        client
            .peer()
            .read_resource(read("forecast://Oslo/soon"))
            .await
            .unwrap_err(),
    );
    assert_eq!(c, ErrorCode::INVALID_PARAMS);
    assert!(
        message.contains("'days'") && message.contains("non-negative integer"),
        "{message}"
    );
}

#[tokio::test]
async fn prompts_are_listed_and_rendered_with_and_without_arguments() {
    let (client, _) = connect(server()).await;
    let prompts = client.peer().list_all_prompts().await.unwrap();
    let value = serde_json::to_value(&prompts).unwrap();
    assert_eq!(
        value,
        json!([
            {
                "name": "plan_trip",
                "title": "Plan a trip",
                "description": "Plans a trip.",
                "arguments": [
                    {"name": "city", "description": "Where to go.", "required": true},
                    {"name": "days", "description": "How many days (3 unless given).", "required": false}
                ]
            },
            {"name": "hello", "description": "Says hello.", "arguments": []}
        ])
    );

    let result = client
        .peer()
        .get_prompt(get("plan_trip", json!({"city": "Rome", "days": "5"})))
        .await
        .unwrap();
    let value = serde_json::to_value(&result.messages).unwrap();
    assert_eq!(
        value,
        json!([
            {"role": "user", "content": {"type": "text", "text": "Plan 5 days in Rome."}},
            {"role": "assistant", "content": {"type": "text", "text": "Gladly."}}
        ])
    );
    assert_eq!(result.description.as_deref(), Some("Plans a trip."));
    let result = client
        .peer()
        .get_prompt(get("plan_trip", json!({"city": "Rome"})))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&result.messages).unwrap()[0]["content"]["text"],
        "Plan 3 days in Rome."
    );
    let result = client
        .peer()
        .get_prompt(get("hello", json!(null)))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&result.messages).unwrap()[0]["content"]["text"],
        "Hello!"
    );
}

#[tokio::test]
async fn prompt_misuse_is_invalid_params() {
    let (client, _) = connect(server()).await;
    for (name, args, expected) in [
        ("plan_trip", json!({"days": "2"}), "missing required argument 'city'"),
        ("plan_trip", json!({"city": "Rome", "nights": "2"}), "invalid argument 'nights': prompt 'plan_trip' has no such argument; its arguments are: city, days"),
        ("plan_trip", json!({"city": "Rome", "days": "many"}), "invalid argument 'days': expected a non-negative integer, got \"many\""),
        ("plan_trip", json!({"city": ["Rome"]}), "invalid argument 'city': prompt arguments are strings"),
        ("plan", json!({}), "no prompt named 'plan'; the prompts are: plan_trip, hello"),
    ] {
        let (c, message) = code(client.peer().get_prompt(get(name, args)).await.unwrap_err());
        assert_eq!(c, ErrorCode::INVALID_PARAMS, "{message}");
        assert_eq!(message, expected);
    }
}

#[tokio::test]
async fn completion_uses_the_attached_completers() {
    let (client, _) = connect(server()).await;
    let done = client
        .peer()
        .complete_prompt_argument("plan_trip", "city", "l", None)
        .await
        .unwrap();
    assert_eq!(done.values, ["Lisbon", "London"]);
    assert_eq!(done.total, Some(2));
    assert_eq!(done.has_more, Some(false));
    let done = client
        .peer()
        .complete_resource_argument("weather://{city}/current", "city", "os", None)
        .await
        .unwrap();
    assert_eq!(done.values, ["Oslo"]);
    // No completer attached: no suggestions, not an error.
    let done = client
        .peer()
        .complete_prompt_argument("plan_trip", "days", "", None)
        .await
        .unwrap();
    assert!(done.values.is_empty());
    let (c, message) = code(
        client
            .peer()
            .complete_prompt_argument("plan_trip", "nights", "", None)
            .await
            .unwrap_err(),
    );
    assert_eq!(c, ErrorCode::INVALID_PARAMS);
    assert_eq!(message, "prompt 'plan_trip' has no argument 'nights'");
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Heard>) -> Heard {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a notification within 10 s")
        .expect("the client is still connected")
}

#[tokio::test]
async fn subscribers_hear_about_updates_until_they_unsubscribe() {
    let server = server();
    let handle: ServerHandle = server.handle();
    let (client, mut heard) = connect(server.clone()).await;
    let (other, mut other_heard) = connect(server).await;

    client
        .peer()
        .subscribe(SubscribeRequestParams::new("weather://Oslo/current"))
        .await
        .unwrap();
    other
        .peer()
        .subscribe(SubscribeRequestParams::new("docs://units"))
        .await
        .unwrap();
    assert_eq!(handle.resource_updated("weather://Oslo/current").await, 1);
    assert_eq!(
        next(&mut heard).await,
        Heard::Updated("weather://Oslo/current".into())
    );
    assert_eq!(handle.resource_updated("docs://units").await, 1);
    assert_eq!(
        next(&mut other_heard).await,
        Heard::Updated("docs://units".into())
    );

    client
        .peer()
        .unsubscribe(UnsubscribeRequestParams::new("weather://Oslo/current"))
        .await
        .unwrap();
    assert_eq!(handle.resource_updated("weather://Oslo/current").await, 0);
    // A client that left is forgotten.
    other.cancel().await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(handle.resource_updated("docs://units").await, 0);
    assert!(heard.try_recv().is_err());
}

#[tokio::test]
async fn changing_the_catalog_while_serving_sends_list_changed() {
    let server = server();
    let handle = server.handle();
    let (client, mut heard) = connect(server).await;
    assert_eq!(client.peer().list_all_prompts().await.unwrap().len(), 2);

    handle
        .update_catalog(|c| c.register_prompt(std::sync::Arc::new(packing {})))
        .await
        .unwrap();
    assert_eq!(next(&mut heard).await, Heard::PromptListChanged);
    let names: Vec<_> = client
        .peer()
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["plan_trip", "hello", "packing"]);
    let result = client
        .peer()
        .get_prompt(get("packing", json!({"city": "Oslo"})))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&result.messages).unwrap()[0]["content"]["text"],
        "What should I pack for Oslo?"
    );

    assert!(
        handle
            .update_catalog(|c| c.remove_resource("docs://units"))
            .await
    );
    assert_eq!(next(&mut heard).await, Heard::ResourceListChanged);
    assert_eq!(client.peer().list_all_resources().await.unwrap().len(), 1);
    // A change that changes no listing is not announced.
    assert!(!handle.update_catalog(|c| c.remove_prompt("nothing")).await);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(heard.try_recv().is_err());
}
