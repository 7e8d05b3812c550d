//! rmcp's client for the tests of tools that ask their client (sampling, elicitation,
//! roots) on either protocol era, and the steps of a 2026-07-28 call driven by hand.

#![allow(deprecated)] // sampling and roots: deprecated capabilities, still what we test.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientInfo,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ErrorData,
    InputRequiredResult, InputResponses, ListRootsResult, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService, ServiceError,
};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::McpServer;

use super::harness::{call, text};

/// rmcp's client: answers every question and counts them.
#[derive(Clone)]
pub struct Client {
    /// Declares sampling, elicitation and roots.
    pub capable: bool,
    /// How many sampling requests it answered.
    pub sampled: Arc<AtomicUsize>,
    /// How many elicitations it answered.
    pub elicited: Arc<AtomicUsize>,
    /// How many roots requests it answered.
    pub rooted: Arc<AtomicUsize>,
    /// How it answers elicitations: `accept` (Fahrenheit), `decline` or `cancel`.
    pub answer: Arc<Mutex<&'static str>>,
}

impl Default for Client {
    fn default() -> Self {
        Client {
            capable: true,
            sampled: Arc::default(),
            elicited: Arc::default(),
            rooted: Arc::default(),
            answer: Arc::new(Mutex::new("accept")),
        }
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientInfo {
        let mut info = ClientInfo::default();
        if self.capable {
            info.capabilities = serde_json::from_value::<ClientCapabilities>(
                json!({"sampling": {}, "elicitation": {}, "roots": {}}),
            )
            .unwrap();
        }
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.sampled.fetch_add(1, Ordering::SeqCst);
        let value = serde_json::to_value(&params).unwrap();
        let prompt = value["messages"][0]["content"]["text"].as_str().unwrap();
        Ok(serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": format!("echo: {prompt}")},
            "model": "test-model",
            "stopReason": "endTurn"
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.elicited.fetch_add(1, Ordering::SeqCst);
        let result = match *self.answer.lock().unwrap() {
            "accept" => json!({"action": "accept", "content": {"unit": "fahrenheit"}}),
            "decline" => json!({"action": "decline"}),
            _ => json!({"action": "cancel"}),
        };
        Ok(serde_json::from_value(result).unwrap())
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        self.rooted.fetch_add(1, Ordering::SeqCst);
        Ok(serde_json::from_value(
            json!({"roots": [{"uri": "file:///tmp/project", "name": "project"}]}),
        )
        .unwrap())
    }
}

/// Which protocol era a client speaks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Era {
    /// `initialize`, 2025-11-25.
    Handshake,
    /// `server/discover`, 2026-07-28.
    Modern,
}

/// `server` served in memory to `client` speaking `era`.
pub async fn connect(
    server: McpServer,
    client: Client,
    era: Era,
) -> RunningService<RoleClient, Client> {
    let (near, far) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    match era {
        Era::Handshake => client.serve(near).await.unwrap(),
        Era::Modern => client
            .serve_with_lifecycle(
                near,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .unwrap(),
    }
}

/// The text of a call the client drives to its end (retries included).
pub async fn run(client: &RunningService<RoleClient, Client>, name: &str, args: Value) -> String {
    let result = client.call_tool(call(name, args)).await.unwrap();
    text(&result)
}

/// One round, which must ask for input.
pub async fn ask(
    client: &RunningService<RoleClient, Client>,
    params: CallToolRequestParams,
) -> InputRequiredResult {
    match client.call_tool_once(params).await.unwrap() {
        CallToolResponse::InputRequired(result) => result,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// The JSON-RPC error a round ends with.
pub async fn refused(
    client: &RunningService<RoleClient, Client>,
    params: CallToolRequestParams,
) -> ErrorData {
    match client.call_tool_once(params).await {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// `params` again with a request state and input responses (a JSON object, or null).
pub fn retry(
    mut params: CallToolRequestParams,
    state: Option<&str>,
    responses: Value,
) -> CallToolRequestParams {
    params.request_state = state.map(str::to_owned);
    params.input_responses = serde_json::from_value::<Option<InputResponses>>(responses).unwrap();
    params
}
