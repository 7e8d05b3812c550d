//! MCP in one run, through an in-memory transport (a `tokio::io::duplex` pair) with rmcp's
//! client on the other end:
//! - `mcp_call/*`: a `tools/call` round trip to our `McpServer` vs a `#[tool_router]` server
//!   with the same three tools (`add`, `forecast` with structured output, `fail`);
//! - `mcp_list/50_tools`: `tools/list` of 50 tools from our server vs an rmcp `ToolRouter`
//!   of 50 routes;
//! - `mcp_transport/add`: our server on its own line transport (`serve_stream`, which answers
//!   garbage with JSON-RPC errors) vs on rmcp's stream transport, same server and call.
//!
//! `cargo bench -p tool-core --features mcp --bench mcp`

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::wrapper::{Json as RmcpJson, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ContentBlock, JsonObject,
    ListToolsRequest,
};
use rmcp::service::RunningService;
use rmcp::{tool, tool_handler, tool_router, RoleClient, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use tokio::runtime::Runtime;
use tool_core::mcp::McpServer;
use tool_core::{tool as tc_tool, tool_type, tools, Json, ToolError, ToolRegistry};

// ---- our tools ----

#[tool_type]
struct Forecast {
    city: String,
    temp_c: f64,
}

/// Adds two integers.
#[tc_tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Tomorrow's forecast for a city.
#[tc_tool(read_only)]
fn forecast(city: String) -> Json<Forecast> {
    Json(Forecast { city, temp_c: 21.5 })
}

/// Always fails.
#[tc_tool]
fn fail(reason: String) -> Result<String, ToolError> {
    Err(ToolError::not_found(reason))
}

// ---- the same tools with rmcp's #[tool_router] ----

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CityArgs {
    city: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct RmcpForecast {
    city: String,
    temp_c: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct FailArgs {
    reason: String,
}

#[derive(Clone)]
struct Router {
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Router {
    /// Adds two integers.
    #[tool(annotations(read_only_hint = true))]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        (args.a + args.b).to_string()
    }

    /// Tomorrow's forecast for a city.
    #[tool(annotations(read_only_hint = true))]
    async fn forecast(&self, Parameters(args): Parameters<CityArgs>) -> RmcpJson<RmcpForecast> {
        RmcpJson(RmcpForecast {
            city: args.city,
            temp_c: 21.5,
        })
    }

    /// Always fails.
    #[tool]
    async fn fail(&self, Parameters(args): Parameters<FailArgs>) -> Result<String, String> {
        Err(args.reason)
    }
}

#[tool_handler]
impl ServerHandler for Router {}

/// rmcp's router with 50 dynamic routes, for `tools/list`.
#[derive(Clone)]
struct Wide {
    router: ToolRouter<Self>,
}

#[tool_handler(router = self.router)]
impl ServerHandler for Wide {}

fn schema() -> Arc<JsonObject> {
    match json!({"type": "object", "properties": {"q": {"type": "string", "description": "What to look for."}}, "required": ["q"]})
    {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!(),
    }
}

fn wide_rmcp() -> Wide {
    let mut router = ToolRouter::new();
    for i in 0..50 {
        let tool = rmcp::model::Tool::new(format!("tool_{i:02}"), "Searches one index.", schema());
        router.add_route(ToolRoute::new_dyn(tool, |_ctx| {
            Box::pin(async { Ok(CallToolResult::success(vec![ContentBlock::text("x")]).into()) })
        }));
    }
    Wide { router }
}

/// Our registry of 50 tools with the same schema.
struct Searcher(String);

impl tool_core::Tool for Searcher {
    fn name(&self) -> &str {
        &self.0
    }
    fn description(&self) -> &str {
        "Searches one index."
    }
    fn input_schema(&self) -> Value {
        Value::Object(JsonObject::clone(&schema()))
    }
    fn call<'a>(
        &'a self,
        _arguments: &'a str,
        _ctx: tool_core::ToolContext<'a>,
    ) -> tool_core::CallFuture<'a> {
        tool_core::CallFuture::ready(tool_core::ToolResponse::success("x"))
    }
}

fn wide_ours() -> McpServer {
    let mut registry = ToolRegistry::new();
    for i in 0..50 {
        registry.register(Searcher(format!("tool_{i:02}"))).unwrap();
    }
    McpServer::new(registry)
}

// ---- driving ----

type Client = RunningService<RoleClient, ()>;

fn connect<S: ServerHandler>(rt: &Runtime, server: S) -> Client {
    rt.block_on(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(far).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(near).await.unwrap()
    })
}

fn params(name: &str, arguments: Value) -> CallToolRequestParams {
    let mut p = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = arguments {
        p.arguments = Some(map);
    }
    p
}

fn bench_calls(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ours = connect(&rt, McpServer::new(tools![add, forecast, fail]));
    let theirs = connect(
        &rt,
        Router {
            tool_router: Router::tool_router(),
        },
    );
    let cases = [
        ("add", json!({"a": 2, "b": 40})),
        ("forecast", json!({"city": "Paris"})),
        ("fail", json!({"reason": "no such city"})),
    ];
    // Both answer alike before anything is measured.
    for (name, arguments) in &cases {
        let a = rt.block_on(ours.peer().call_tool(params(name, arguments.clone())));
        let b = rt.block_on(theirs.peer().call_tool(params(name, arguments.clone())));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.is_error, b.is_error, "{name}");
        assert_eq!(a.structured_content, b.structured_content, "{name}");
    }
    for (name, arguments) in &cases {
        let mut group = c.benchmark_group(format!("mcp_call/{name}"));
        group.bench_function("tool_core", |b| {
            b.iter(|| rt.block_on(ours.peer().call_tool(params(name, arguments.clone()))))
        });
        group.bench_function("rmcp_tool_router", |b| {
            b.iter(|| rt.block_on(theirs.peer().call_tool(params(name, arguments.clone()))))
        });
        group.finish();
    }
}

fn bench_list(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ours = connect(&rt, wide_ours());
    let theirs = connect(&rt, wide_rmcp());
    assert_eq!(rt.block_on(ours.peer().list_all_tools()).unwrap().len(), 50);
    assert_eq!(
        rt.block_on(theirs.peer().list_all_tools()).unwrap().len(),
        50
    );
    // A raw request: `Peer::list_tools` may answer from rmcp's client-side cache.
    let list = || {
        ClientRequest::ListToolsRequest(ListToolsRequest {
            method: Default::default(),
            params: None,
            extensions: Default::default(),
        })
    };
    let mut group = c.benchmark_group("mcp_list/50_tools");
    group.bench_function("tool_core", |b| {
        b.iter(|| rt.block_on(ours.peer().send_request(list())).unwrap())
    });
    group.bench_function("rmcp_tool_router", |b| {
        b.iter(|| rt.block_on(theirs.peer().send_request(list())).unwrap())
    });
    group.finish();
}

fn bench_transport(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let rmcp_lines = connect(&rt, McpServer::new(tools![add, forecast, fail]));
    let our_lines = rt.block_on(async {
        let (near, far) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(far);
        let server = McpServer::new(tools![add, forecast, fail]);
        tokio::spawn(async move {
            if let Ok(running) = server.serve_stream(read, write).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(near).await.unwrap()
    });
    let add = || params("add", json!({"a": 2, "b": 40}));
    for client in [&rmcp_lines, &our_lines] {
        let sum = rt.block_on(client.peer().call_tool(add())).unwrap();
        assert_eq!(
            sum.content[0].as_text().map(|t| t.text.as_str()),
            Some("42")
        );
    }
    let mut group = c.benchmark_group("mcp_transport/add");
    group.bench_function("tool_core_serve_stream", |b| {
        b.iter(|| rt.block_on(our_lines.peer().call_tool(add())))
    });
    group.bench_function("rmcp_async_rw", |b| {
        b.iter(|| rt.block_on(rmcp_lines.peer().call_tool(add())))
    });
    group.finish();
}

criterion_group!(benches, bench_calls, bench_list, bench_transport);
criterion_main!(benches);
