//! MCP Apps (`io.modelcontextprotocol/ui`): the `mcp_http` example's server (the demo tools,
//! `weather_dashboard` and its `ui://weather/dashboard` view) as rmcp's client sees it on both
//! protocol eras: the extension advertised, `_meta.ui.resourceUri` on that tool and `_meta.ui`
//! on no other, the view listed and read as `text/html;profile=mcp-app` with its `_meta.ui`,
//! and a text result that stands alone. Then the declarations themselves: `#[tool(app)]`,
//! `ToolDefinition::with_app` and `#[resource(app(..))]` with CSP and permissions.

#![cfg(feature = "mcp")]

use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use rmcp::service::RunningService;
use rmcp::RoleClient;
use serde_json::{json, Value};
use tool_core::catalog::{ResourceInfo, APP_MIME_TYPE};
use tool_core::mcp::McpServer;
use tool_core::{resource, resources, tool, tools, ToolDefinition, ToolFn, ToolRegistry};
use tool_examples::apps::{self, weather_dashboard, DASHBOARD_URI};
use tool_examples::demo::{add, get_weather, search};
use tool_tests::mcp::asker::{connect, Client, Era};
use tool_tests::mcp::harness::{bounded, call, text};

/// The server as `examples/mcp_http.rs` builds it.
fn example_server() -> McpServer {
    McpServer::new(tools![get_weather, add, search, weather_dashboard])
        .with_catalog(apps::catalog())
}

async fn read(client: &RunningService<RoleClient, Client>, uri: &str) -> Value {
    let read = client
        .peer()
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    assert_eq!(read.contents.len(), 1, "{read:?}");
    if let ResourceContents::BlobResourceContents { .. } = read.contents[0] {
        panic!("the view is text: {read:?}");
    }
    serde_json::to_value(&read.contents[0]).unwrap()
}

#[tokio::test]
async fn the_example_offers_its_dashboard_on_both_eras() {
    bounded(async {
        for era in [Era::Handshake, Era::Modern] {
            let client = connect(example_server(), Client::default(), era).await;
            let info = client.peer().peer_info().unwrap();
            let extensions = serde_json::to_value(&info.capabilities.extensions).unwrap();
            assert_eq!(
                extensions,
                json!({"io.modelcontextprotocol/ui": {}}),
                "{era:?}: {:?}",
                info.capabilities
            );

            let tools = client.peer().list_all_tools().await.unwrap();
            let listed = serde_json::to_value(&tools).unwrap();
            for tool in listed.as_array().unwrap() {
                let ui = tool.get("_meta").and_then(|m| m.get("ui"));
                if tool["name"] == "weather_dashboard" {
                    assert_eq!(ui, Some(&json!({"resourceUri": DASHBOARD_URI})), "{tool}");
                } else {
                    assert_eq!(ui, None, "{era:?}: only the dashboard's tool has a view: {tool}");
                }
            }

            let resources = client.peer().list_all_resources().await.unwrap();
            let resources = serde_json::to_value(&resources).unwrap();
            assert_eq!(
                resources,
                json!([{
                    "uri": "ui://weather/dashboard",
                    "name": "dashboard",
                    "title": "Weather dashboard",
                    "description": "The weather dashboard: renders the `weather_dashboard` tool's result.",
                    "mimeType": "text/html;profile=mcp-app",
                    "_meta": {"ui": {"prefersBorder": true}}
                }]),
                "{era:?}"
            );
            let view = read(&client, DASHBOARD_URI).await;
            assert_eq!(view["mimeType"], APP_MIME_TYPE, "{era:?}");
            assert_eq!(view["_meta"], json!({"ui": {"prefersBorder": true}}), "{era:?}");
            let html = view["text"].as_str().unwrap();
            assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
            assert!(html.contains("ui/notifications/tool-result"), "{html}");

            // For a host without apps the text says it all.
            let result = client
                .call_tool(call("weather_dashboard", json!({"city": "Oslo"})))
                .await
                .unwrap();
            assert_eq!(result.is_error, Some(false));
            assert!(text(&result).starts_with("Weather in Oslo: 21.5 °C"), "{result:?}");
            client.cancel().await.unwrap();
        }
    })
    .await;
}

/// A view with what it asks of the host's sandbox.
#[resource(
    uri = "ui://maps/view",
    meta("com.example/owner" = "maps"),
    app(
        connect_domains = ["https://tiles.example.com"],
        resource_domains = ["https://cdn.example.com", "https://*.example.org"],
        frame_domains = ["https://player.example.com"],
        base_uri_domains = ["https://cdn.example.com"],
        permissions = ["geolocation", "clipboard_write"],
        domain = "maps.example.com",
        prefers_border = false
    )
)]
fn map_view() -> String {
    "<!DOCTYPE html><html><body>map</body></html>".to_owned()
}

/// Shows a place on a map.
#[tool(app = "ui://maps/view")]
fn show_map(
    /// The place.
    place: String,
) -> String {
    format!("{place} is at 59.91 N, 10.75 E")
}

/// Says hello.
#[tool]
fn hello() -> &'static str {
    "hello"
}

#[tokio::test]
async fn a_view_carries_its_csp_and_permissions_and_any_tool_kind_names_one() {
    bounded(async {
        let ui = json!({
            "csp": {
                "connectDomains": ["https://tiles.example.com"],
                "resourceDomains": ["https://cdn.example.com", "https://*.example.org"],
                "frameDomains": ["https://player.example.com"],
                "baseUriDomains": ["https://cdn.example.com"]
            },
            "permissions": {"geolocation": {}, "clipboardWrite": {}},
            "domain": "maps.example.com",
            "prefersBorder": false
        });
        // A tool made at run time names a view too, beside its own `_meta`.
        let meta = json!({"com.example/owner": "maps"});
        let definition = ToolDefinition::new(
            "show_route",
            "Shows a route.",
            json!({"type": "object", "properties": {}}),
        )
        .with_meta(meta.as_object().cloned().unwrap())
        .with_app("ui://maps/view");
        let route = ToolFn::sync(definition, |_: Value, _| "a route");
        let mut registry = ToolRegistry::new().with(route);
        registry.register(show_map {}).unwrap();
        registry.register(hello {}).unwrap();
        let server = McpServer::new(registry).with_catalog(resources![map_view]);
        let client = connect(server, Client::default(), Era::Modern).await;

        let tools = serde_json::to_value(client.peer().list_all_tools().await.unwrap()).unwrap();
        assert_eq!(
            tools[0]["_meta"],
            json!({"com.example/owner": "maps", "ui": {"resourceUri": "ui://maps/view"}})
        );
        assert_eq!(
            tools[1]["_meta"],
            json!({"ui": {"resourceUri": "ui://maps/view"}})
        );
        assert!(tools[2].get("_meta").is_none(), "{}", tools[2]);

        let listed =
            serde_json::to_value(client.peer().list_all_resources().await.unwrap()).unwrap();
        assert_eq!(listed[0]["mimeType"], APP_MIME_TYPE);
        // `meta(..)` keeps its keys beside `ui`.
        assert_eq!(
            listed[0]["_meta"],
            json!({"com.example/owner": "maps", "ui": ui})
        );
        let view = read(&client, "ui://maps/view").await;
        assert_eq!(view["mimeType"], APP_MIME_TYPE);
        assert_eq!(view["_meta"], json!({ "ui": ui }));
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_server_without_views_advertises_no_apps() {
    bounded(async {
        let plain = McpServer::new(tools![add]);
        assert!(plain.capabilities().extensions.is_none());
        let client = connect(plain, Client::default(), Era::Modern).await;
        let info = client.peer().peer_info().unwrap();
        assert!(info.capabilities.extensions.is_none(), "{info:?}");
        client.cancel().await.unwrap();

        // Adding a tool with a view while serving makes the extension advertised.
        let server = McpServer::new(tools![add]);
        let handle = server.handle();
        handle.add_tool(weather_dashboard {}).await.unwrap();
        let client = connect(server, Client::default(), Era::Handshake).await;
        let info = client.peer().peer_info().unwrap();
        let extensions = serde_json::to_value(&info.capabilities.extensions).unwrap();
        assert_eq!(extensions, json!({"io.modelcontextprotocol/ui": {}}));
        client.cancel().await.unwrap();

        let made = ResourceInfo::new("ui://a/b", "b", "A view.").with_app_view(Default::default());
        assert_eq!(made.mime_type.as_deref(), Some(APP_MIME_TYPE));
        assert!(made.meta.is_none());
    })
    .await;
}
