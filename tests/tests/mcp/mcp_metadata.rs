//! Display metadata both ways: icons and `_meta` written on `#[tool]`, `#[resource]` and
//! `#[prompt]` reach rmcp's client in `tools/list`, `resources/list`,
//! `resources/templates/list` and `prompts/list` as rmcp's own types read them; a server
//! written with rmcp's model lists them and our client keeps them on import. `serverInfo` of
//! `mcp_server!` is this crate's name and version, not tool-core's.

#![cfg(feature = "mcp")]

use std::sync::Arc;

use rmcp::model::{IconTheme as RmcpTheme, MetaObject};
use rmcp::ServiceExt;
use serde_json::json;
use tool_core::mcp::{McpClient, McpServer};
use tool_core::{
    mcp_server, prompt, prompts, resource, resources, tool, tools, Icon, IconTheme, ToolRegistry,
};
use tool_tests::mcp::harness::bounded;

/// Tomorrow's forecast for a city.
#[tool(
    title = "Weather forecast",
    icon = "https://example.com/sun.png",
    icon(
        src = "data:image/svg+xml;base64,PHN2Zy8+",
        mime_type = "image/svg+xml",
        sizes = "any",
        theme = "dark"
    ),
    meta("com.example/team" = "weather", beta = true, cost = 3, ratio = -0.5, tags = ["a", "b"])
)]
fn forecast(city: String) -> String {
    format!("sunny in {city}")
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The units every value uses.
#[resource(
    uri = "docs://units",
    icon(
        src = "https://example.com/ruler.png",
        mime_type = "image/png",
        sizes = "48x48 96x96"
    ),
    meta(audience = "users")
)]
fn units() -> &'static str {
    "Celsius."
}

/// Current conditions for a city.
#[resource(
    uri = "weather://{city}/current",
    icon = "https://example.com/cloud.png",
    meta("com.example/refresh_s" = 600)
)]
fn current(city: String) -> String {
    format!("{city}: 21 °C")
}

/// Plans a trip.
#[prompt(
    icon(src = "https://example.com/plane.png", theme = "light"),
    meta(version = "2")
)]
fn plan_trip(
    /// Where to go.
    city: String,
) -> String {
    format!("Plan a trip to {city}.")
}

/// Says hello.
#[prompt]
fn hello() -> &'static str {
    "Hello!"
}

fn our_server() -> McpServer {
    McpServer::new(tools![forecast, add])
        .with_catalog(resources![units, current].merge(prompts![plan_trip, hello]))
}

type RmcpClient = rmcp::service::RunningService<rmcp::RoleClient, ()>;

async fn rmcp_client(server: McpServer) -> RmcpClient {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(near).await.unwrap()
}

async fn our_client_of(server: McpServer) -> McpClient {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    McpClient::connect(near).await.unwrap()
}

fn meta_json(meta: &Option<MetaObject>) -> serde_json::Value {
    serde_json::to_value(meta).unwrap()
}

#[tokio::test]
async fn rmcp_client_reads_icons_and_meta_of_our_tools() {
    bounded(async {
        let client = rmcp_client(our_server()).await;
        let tools = client.peer().list_all_tools().await.unwrap();
        let forecast = tools.iter().find(|t| t.name == "forecast").unwrap();
        let icons = forecast.icons.as_ref().unwrap();
        assert_eq!(icons.len(), 2);
        assert_eq!(icons[0].src, "https://example.com/sun.png");
        assert_eq!(
            (icons[0].mime_type.as_ref(), icons[0].sizes.as_ref(), icons[0].theme.as_ref()),
            (None, None, None)
        );
        assert_eq!(icons[1].src, "data:image/svg+xml;base64,PHN2Zy8+");
        assert_eq!(icons[1].mime_type.as_deref(), Some("image/svg+xml"));
        assert_eq!(icons[1].sizes.as_deref(), Some(&["any".to_string()][..]));
        assert_eq!(icons[1].theme, Some(RmcpTheme::Dark));
        assert_eq!(
            meta_json(&forecast.meta),
            json!({"com.example/team": "weather", "beta": true, "cost": 3, "ratio": -0.5, "tags": ["a", "b"]})
        );
        assert_eq!(forecast.title.as_deref(), Some("Weather forecast"));

        // A tool without metadata lists none: no empty `icons` array, no `_meta: {}`.
        let add = tools.iter().find(|t| t.name == "add").unwrap();
        assert_eq!((add.icons.is_none(), add.meta.is_none()), (true, true));
        let raw = serde_json::to_value(add).unwrap();
        assert!(raw.get("icons").is_none() && raw.get("_meta").is_none(), "{raw}");
    })
    .await
}

#[tokio::test]
async fn rmcp_client_reads_icons_and_meta_of_our_resources_templates_and_prompts() {
    bounded(async {
        let client = rmcp_client(our_server()).await;
        let peer = client.peer();

        let resources = peer.list_all_resources().await.unwrap();
        assert_eq!(resources.len(), 1);
        let icons = resources[0].icons.as_ref().unwrap();
        assert_eq!(icons[0].src, "https://example.com/ruler.png");
        assert_eq!(icons[0].mime_type.as_deref(), Some("image/png"));
        assert_eq!(
            icons[0].sizes.as_deref(),
            Some(&["48x48".to_string(), "96x96".to_string()][..])
        );
        assert_eq!(meta_json(&resources[0].meta), json!({"audience": "users"}));

        let templates = peer.list_all_resource_templates().await.unwrap();
        assert_eq!(templates[0].uri_template, "weather://{city}/current");
        assert_eq!(
            templates[0].icons.as_ref().unwrap()[0].src,
            "https://example.com/cloud.png"
        );
        assert_eq!(
            meta_json(&templates[0].meta),
            json!({"com.example/refresh_s": 600})
        );

        let prompts = peer.list_all_prompts().await.unwrap();
        let plan = prompts.iter().find(|p| p.name == "plan_trip").unwrap();
        let icon = &plan.icons.as_ref().unwrap()[0];
        assert_eq!(
            (icon.src.as_str(), icon.theme),
            ("https://example.com/plane.png", Some(RmcpTheme::Light))
        );
        assert_eq!(meta_json(&plan.meta), json!({"version": "2"}));
        let hello = prompts.iter().find(|p| p.name == "hello").unwrap();
        assert_eq!((hello.icons.is_none(), hello.meta.is_none()), (true, true));
    })
    .await
}

/// What the definitions built at run time (not by the attributes) carry is served the same way.
#[tokio::test]
async fn metadata_set_with_builders_is_served() {
    bounded(async {
        use tool_core::catalog::{Catalog, Resource, ResourceFuture, ResourceInfo};

        struct Logo(ResourceInfo);
        impl Resource for Logo {
            fn info(&self) -> &ResourceInfo {
                &self.0
            }
            fn read<'a>(
                &'a self,
                uri: &'a str,
                _vars: &'a [(String, String)],
            ) -> ResourceFuture<'a> {
                Box::pin(async move {
                    tool_core::catalog::IntoResourceContents::into_contents("logo", uri, None)
                })
            }
        }
        let meta = json!({"com.example/owner": "design"})
            .as_object()
            .cloned()
            .unwrap();
        let info = ResourceInfo::new("images://logo", "logo", "The logo.")
            .with_icons([Icon::new("https://example.com/logo.png")
                .with_sizes(["16x16"])
                .with_theme(IconTheme::Dark)])
            .with_meta(meta);
        let catalog = Catalog::new().with_resource(Logo(info));
        let client = rmcp_client(McpServer::new(ToolRegistry::new()).with_catalog(catalog)).await;
        let listed = client.peer().list_all_resources().await.unwrap();
        let icon = &listed[0].icons.as_ref().unwrap()[0];
        assert_eq!(icon.sizes.as_deref(), Some(&["16x16".to_string()][..]));
        assert_eq!(icon.theme, Some(RmcpTheme::Dark));
        assert_eq!(
            meta_json(&listed[0].meta),
            json!({"com.example/owner": "design"})
        );
    })
    .await
}

/// A server written with rmcp's model, listing icons and `_meta` the way rmcp writes them.
#[derive(Clone)]
struct Decorated;

fn rmcp_meta(value: serde_json::Value) -> MetaObject {
    MetaObject::from(value.as_object().cloned().unwrap())
}

impl rmcp::ServerHandler for Decorated {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let schema = Arc::new(rmcp::model::JsonObject::from_iter([(
            "type".to_owned(),
            json!("object"),
        )]));
        let tool = rmcp::model::Tool::new("paint", "Paints.", schema)
            .with_icons(vec![rmcp::model::Icon::new(
                "https://example.com/brush.png",
            )
            .with_mime_type("image/png")
            .with_sizes(vec!["32x32".into()])
            .with_theme(RmcpTheme::Light)])
            .with_meta(rmcp_meta(json!({"com.example/color": "red", "layers": 2})));
        Ok(rmcp::model::ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        _request: rmcp::model::CallToolRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        Ok(
            rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text("ok")])
                .into(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, rmcp::ErrorData> {
        let resource = rmcp::model::Resource::new("file:///readme", "readme")
            .with_icons(vec![rmcp::model::Icon::new("https://example.com/doc.svg")])
            .with_meta(rmcp_meta(json!({"size_hint": "small"})));
        Ok(rmcp::model::ListResourcesResult::with_all_items(vec![
            resource,
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, rmcp::ErrorData> {
        let template = rmcp::model::ResourceTemplate::new("file:///{name}", "files")
            .with_icons(vec![rmcp::model::Icon::new(
                "https://example.com/folder.svg",
            )])
            .with_meta(rmcp_meta(json!({"kind": "folder"})));
        Ok(rmcp::model::ListResourceTemplatesResult::with_all_items(
            vec![template],
        ))
    }

    async fn list_prompts(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, rmcp::ErrorData> {
        let prompt = rmcp::model::Prompt::new("greet", Some("Greets."), None)
            .with_icons(vec![
                rmcp::model::Icon::new("https://example.com/wave.png").with_theme(RmcpTheme::Dark)
            ])
            .with_meta(rmcp_meta(json!({"tone": "warm"})));
        Ok(rmcp::model::ListPromptsResult::with_all_items(vec![prompt]))
    }
}

#[tokio::test]
async fn our_client_keeps_icons_and_meta_an_rmcp_server_lists() {
    bounded(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = Decorated.serve(far).await {
                let _ = running.waiting().await;
            }
        });
        let client = McpClient::connect(near).await.unwrap();

        let mut registry = ToolRegistry::new();
        client.register_into(&mut registry, Some("r_")).unwrap();
        let paint = registry.definition("r_paint").unwrap();
        assert_eq!(
            paint.icons,
            [Icon::new("https://example.com/brush.png")
                .with_mime_type("image/png")
                .with_sizes(["32x32"])
                .with_theme(IconTheme::Light)]
        );
        assert_eq!(
            serde_json::Value::Object(paint.meta.clone().unwrap()),
            json!({"com.example/color": "red", "layers": 2})
        );
        // Served on by our own server, they travel on unchanged.
        let relisted = tool_core::provider::mcp::tools(registry.definitions());
        assert_eq!(relisted["tools"][0]["icons"][0]["theme"], "light");
        assert_eq!(relisted["tools"][0]["_meta"]["layers"], 2);

        let resources = client.resources().await.unwrap();
        let readme = resources
            .iter()
            .find(|r| r.uri == "file:///readme")
            .unwrap();
        assert_eq!(readme.icons, [Icon::new("https://example.com/doc.svg")]);
        assert_eq!(
            serde_json::Value::Object(readme.meta.clone().unwrap()),
            json!({"size_hint": "small"})
        );
        let files = resources.iter().find(|r| r.is_template).unwrap();
        assert_eq!(files.icons, [Icon::new("https://example.com/folder.svg")]);
        assert_eq!(files.meta.as_ref().unwrap()["kind"], "folder");

        let prompts = client.prompts().await.unwrap();
        assert_eq!(
            prompts[0].icons,
            [Icon::new("https://example.com/wave.png").with_theme(IconTheme::Dark)]
        );
        assert_eq!(prompts[0].meta.as_ref().unwrap()["tone"], "warm");
    })
    .await
}

#[tokio::test]
async fn our_client_keeps_what_our_server_lists() {
    bounded(async {
        let client = our_client_of(our_server()).await;
        let tools = client.tools(None);
        let forecast = tools
            .iter()
            .find(|t| t.remote_name() == "forecast")
            .unwrap();
        let icons = tool_core::Tool::icons(forecast);
        assert_eq!(icons[1].theme, Some(IconTheme::Dark));
        assert_eq!(tool_core::Tool::meta(forecast).unwrap()["cost"], 3);

        let prompts = client.prompts().await.unwrap();
        let plan = prompts.iter().find(|p| p.name == "plan_trip").unwrap();
        assert_eq!(plan.icons[0].theme, Some(IconTheme::Light));
        let resources = client.resources().await.unwrap();
        assert_eq!(resources[0].icons[0].sizes, ["48x48", "96x96"]);
    })
    .await
}

/// `mcp_server!` names the server after the crate that writes it (this one), so clients see
/// the application, not the library it is built with.
#[tokio::test]
async fn mcp_server_macro_reports_the_calling_crate() {
    bounded(async {
        let client = rmcp_client(mcp_server![add]).await;
        let info = client.peer().peer_info().unwrap();
        let server = info.server_info.as_ref().unwrap();
        assert_eq!(server.name, "tool-tests");
        assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
        assert_ne!(server.name, "tool-core");
    })
    .await
}
