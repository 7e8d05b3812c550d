//! The fixture tools written with rmcp's own `#[tool_router]`: the peer our client is judged
//! against, and the baseline of the benchmark.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    Implementation, ProgressNotificationParam, RequestMetaObject, ServerCapabilities, ServerConfig,
};
use rmcp::{tool, tool_handler, tool_router, Peer, RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::CancelProbe;

/// `add`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
}

/// `forecast`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ForecastArgs {
    /// City name.
    pub city: String,
}

/// `forecast`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Forecast {
    /// The city asked about.
    pub city: String,
    /// Temperature in degrees Celsius.
    pub temp_c: f64,
}

/// `fail`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct FailArgs {
    /// What to say went wrong.
    pub reason: String,
}

/// `slow`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SlowArgs {
    /// How many steps to take.
    pub steps: u32,
}

/// An rmcp server with the fixture tools.
#[derive(Clone)]
pub struct RmcpServer {
    // Filled as rmcp's examples do; `#[tool_handler]` of this rmcp version routes through
    // `Self::tool_router()` and never reads it.
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
    probe: Arc<CancelProbe>,
}

impl RmcpServer {
    /// The server; `slow` records cancellations in `probe`.
    pub fn new(probe: Arc<CancelProbe>) -> Self {
        RmcpServer {
            tool_router: Self::tool_router(),
            probe,
        }
    }
}

#[tool_router]
impl RmcpServer {
    /// Adds two integers.
    #[tool(annotations(read_only_hint = true, idempotent_hint = true))]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        (args.a + args.b).to_string()
    }

    /// Tomorrow's forecast for a city.
    #[tool(title = "Weather forecast")]
    async fn forecast(&self, Parameters(args): Parameters<ForecastArgs>) -> Json<Forecast> {
        Json(Forecast {
            city: args.city,
            temp_c: 21.5,
        })
    }

    /// Always fails, with the reason given.
    #[tool]
    async fn fail(&self, Parameters(args): Parameters<FailArgs>) -> Result<String, String> {
        Err(args.reason)
    }

    /// Works through `steps` steps of 20 ms, reporting progress after each.
    #[tool]
    async fn slow(
        &self,
        Parameters(args): Parameters<SlowArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
        ct: CancellationToken,
    ) -> String {
        let token = meta.get_progress_token();
        for step in 1..=args.steps {
            if ct.is_cancelled() {
                self.probe.record();
                return format!("cancelled after {} steps", step - 1);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            if let Some(token) = &token {
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(step))
                            .with_total(f64::from(args.steps))
                            .with_message("working"),
                    )
                    .await;
            }
        }
        format!("{} steps done", args.steps)
    }
}

#[tool_handler]
impl ServerHandler for RmcpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rmcp-fixture", "1.0.0"))
    }
}

/// The FastMCP server `tests/python/<script>` as a child process speaking stdio (its log
/// quiet), or `None` (the test says it skipped) when there is no Python with FastMCP.
pub fn fastmcp(script: &str, test: &str) -> Option<tokio::process::Command> {
    let python = crate::mcp_python(test)?;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("python")
        .join(script);
    let mut command = tokio::process::Command::new(python);
    command
        .arg(path)
        .env("FASTMCP_LOG_LEVEL", "ERROR")
        .stderr(std::process::Stdio::null());
    Some(command)
}
