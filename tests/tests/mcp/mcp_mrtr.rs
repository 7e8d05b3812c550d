//! The same tools asking their client (sampling, elicitation, roots) on both protocol eras,
//! with rmcp's own client on the other end: a server-to-client request on a handshake-era
//! session (`initialize`, 2025-11-25), an `InputRequiredResult` and a retry on a 2026-07-28
//! session (`server/discover`). The tool's code is the same; on retry its earlier questions
//! get their answers replayed, and a request state that is forged, altered, moved to another
//! call or expired is a JSON-RPC error before the tool runs.

#![cfg(feature = "mcp")]
#![allow(deprecated)] // sampling and roots: deprecated capabilities, still what we test.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientInfo,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ErrorCode,
    ErrorData, InputRequiredResult, InputResponses, ListRootsResult, ProtocolVersion,
};
use rmcp::service::ServiceError;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tool_core::mcp::McpServer;
use tool_core::{tool, tools, Elicited, PeerError, SamplingRequest, ToolContext};
use tool_tests::mcp::catalog::{self, UnitChoice};
use tool_tests::mcp::harness::{bounded, call, text};

/// rmcp's client: answers every question and counts them.
#[derive(Clone)]
struct Client {
    capable: bool,
    sampled: Arc<AtomicUsize>,
    elicited: Arc<AtomicUsize>,
    rooted: Arc<AtomicUsize>,
    answer: Arc<Mutex<&'static str>>,
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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Era {
    Handshake,
    Modern,
}

async fn connect(
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
async fn run(client: &RunningService<RoleClient, Client>, name: &str, args: Value) -> String {
    let result = client.call_tool(call(name, args)).await.unwrap();
    text(&result)
}

/// One round, which must ask for input.
async fn ask(
    client: &RunningService<RoleClient, Client>,
    params: CallToolRequestParams,
) -> InputRequiredResult {
    match client.call_tool_once(params).await.unwrap() {
        CallToolResponse::InputRequired(result) => result,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// The JSON-RPC error a round ends with.
async fn refused(
    client: &RunningService<RoleClient, Client>,
    params: CallToolRequestParams,
) -> ErrorData {
    match client.call_tool_once(params).await {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

fn retry(
    mut params: CallToolRequestParams,
    state: Option<&str>,
    responses: Value,
) -> CallToolRequestParams {
    params.request_state = state.map(str::to_owned);
    params.input_responses = serde_json::from_value::<Option<InputResponses>>(responses).unwrap();
    params
}

#[tokio::test]
async fn the_same_tools_ask_on_both_eras_and_get_their_answers() {
    bounded(async {
        for era in [Era::Handshake, Era::Modern] {
            let client = Client::default();
            let counts = client.clone();
            let running = connect(catalog::server(), client, era).await;
            let version = running.peer().peer_info().unwrap().protocol_version.clone();
            assert_eq!(
                version.as_str() >= "2026-07-28",
                era == Era::Modern,
                "{era:?}: {version}"
            );

            let haiku = run(&running, "haiku", json!({"topic": "rain"})).await;
            assert_eq!(haiku, "echo: A haiku about rain (by test-model)", "{era:?}");
            let roots = run(&running, "where_am_i", json!({})).await;
            assert_eq!(roots, "file:///tmp/project (project)", "{era:?}");
            for (answer, expected) in [
                ("accept", "Fahrenheit"),
                ("decline", "declined"),
                ("cancel", "cancelled"),
            ] {
                *counts.answer.lock().unwrap() = answer;
                let unit = run(&running, "ask_unit", json!({})).await;
                assert_eq!(unit, expected, "{era:?} {answer}");
            }
            // Each question reached the client once.
            assert_eq!(counts.sampled.load(Ordering::SeqCst), 1, "{era:?}");
            assert_eq!(counts.rooted.load(Ordering::SeqCst), 1, "{era:?}");
            assert_eq!(counts.elicited.load(Ordering::SeqCst), 3, "{era:?}");
            running.cancel().await.unwrap();
        }
    })
    .await;
}

#[tokio::test]
async fn a_2026_session_gets_input_requests_and_no_logging() {
    bounded(async {
        let running = connect(catalog::server(), Client::default(), Era::Modern).await;
        let info = running.peer().peer_info().unwrap();
        assert!(
            info.capabilities.logging.is_none(),
            "{:?}",
            info.capabilities
        );
        assert!(info.capabilities.tools.is_some());

        let first = ask(&running, call("haiku", json!({"topic": "rain"}))).await;
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(
            requests["q0"]["method"], "sampling/createMessage",
            "{requests}"
        );
        assert_eq!(
            requests["q0"]["params"]["messages"][0]["content"]["text"],
            "A haiku about rain"
        );
        assert_eq!(requests["q0"]["params"]["maxTokens"], 50);
        assert_eq!(
            requests["q0"]["params"]["modelPreferences"]["hints"][0]["name"],
            "claude"
        );
        assert!(first.request_state.is_some());

        // A tool that logs completes in one round; its messages stay on the server.
        let counted = run(&running, "count_to", json!({"n": 2})).await;
        assert_eq!(counted, "counted to 2");
        running.cancel().await.unwrap();

        // Handshake era: logging is offered.
        let running = connect(catalog::server(), Client::default(), Era::Handshake).await;
        let info = running.peer().peer_info().unwrap();
        assert!(info.capabilities.logging.is_some());
        running.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_client_without_the_capability_is_told_on_2026_too() {
    bounded(async {
        let client = Client {
            capable: false,
            ..Client::default()
        };
        let running = connect(catalog::server(), client, Era::Modern).await;
        let result = running
            .call_tool(call("haiku", json!({"topic": "rain"})))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(true));
        assert!(
            text(&result).contains("did not declare the `sampling` capability"),
            "{}",
            text(&result)
        );
        running.cancel().await.unwrap();
    })
    .await;
}

/// How many times `plan_day`'s body started.
static PLAN_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Asks for a unit, then for a haiku: two questions, one round each.
#[tool]
async fn plan_day(
    /// Where.
    city: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    PLAN_RUNS.fetch_add(1, Ordering::SeqCst);
    let unit = match ctx.elicit::<UnitChoice>("Which unit?").await? {
        Elicited::Accepted(choice) => format!("{:?}", choice.unit),
        other => format!("{other:?}"),
    };
    let reply = ctx
        .sample(SamplingRequest::new(format!("A haiku about {city}")))
        .await?;
    Ok(format!("{city} in {unit}: {}", reply.text))
}

#[tokio::test]
async fn two_questions_take_two_retries_and_each_is_asked_once() {
    bounded(async {
        let client = Client::default();
        let counts = client.clone();
        let running = connect(McpServer::new(tools![plan_day]), client, Era::Modern).await;
        let params = call("plan_day", json!({"city": "Oslo"}));

        let first = ask(&running, params.clone()).await;
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(requests.as_object().unwrap().len(), 1, "{requests}");
        assert_eq!(requests["q0"]["method"], "elicitation/create");
        assert_eq!(requests["q0"]["params"]["message"], "Which unit?");

        let second = ask(
            &running,
            retry(
                params.clone(),
                first.request_state.as_deref(),
                json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}}),
            ),
        )
        .await;
        let requests = serde_json::to_value(second.input_requests.as_ref().unwrap()).unwrap();
        // Only the new question: the first one was answered.
        assert_eq!(requests.as_object().unwrap().len(), 1, "{requests}");
        assert_eq!(requests["q1"]["method"], "sampling/createMessage");

        let done = running
            .call_tool_once(retry(
                params.clone(),
                second.request_state.as_deref(),
                json!({"q1": {
                    "role": "assistant",
                    "content": {"type": "text", "text": "fjords"},
                    "model": "m"
                }}),
            ))
            .await
            .unwrap();
        let CallToolResponse::Complete(result) = done else {
            panic!("expected the result, got {done:?}");
        };
        assert_eq!(text(&result), "Oslo in Celsius: fjords");
        assert_eq!(PLAN_RUNS.load(Ordering::SeqCst), 3);

        // rmcp's own driver: each question reaches the client's handler once.
        let driven = run(&running, "plan_day", json!({"city": "Bergen"})).await;
        assert_eq!(driven, "Bergen in Fahrenheit: echo: A haiku about Bergen");
        assert_eq!(counts.elicited.load(Ordering::SeqCst), 1);
        assert_eq!(counts.sampled.load(Ordering::SeqCst), 1);
        running.cancel().await.unwrap();
    })
    .await;
}

/// How many times `ask_twice`'s body started.
static CHECKED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Asks for a unit (for the request-state checks).
#[tool]
async fn ask_twice(
    /// Anything.
    tag: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    CHECKED_RUNS.fetch_add(1, Ordering::SeqCst);
    let unit = ctx.elicit::<UnitChoice>(format!("Unit for {tag}?")).await?;
    Ok(format!("{unit:?}"))
}

#[tokio::test]
async fn a_bad_request_state_is_an_error_and_the_tool_does_not_run() {
    bounded(async {
        let server = McpServer::new(tools![ask_twice]);
        let running = connect(server, Client::default(), Era::Modern).await;
        let params = call("ask_twice", json!({"tag": "a"}));
        let first = ask(&running, params.clone()).await;
        let state = first.request_state.clone().unwrap();
        let accept = json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}});
        let runs = CHECKED_RUNS.load(Ordering::SeqCst);

        let mut altered = state.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(altered).unwrap();
        let other_call = call("ask_twice", json!({"tag": "b"}));
        let cases = [
            (
                "altered",
                retry(params.clone(), Some(&altered), accept.clone()),
            ),
            (
                "forged",
                retry(params.clone(), Some("rs1.e30.AAAA"), accept.clone()),
            ),
            (
                "other arguments",
                retry(other_call, Some(&state), accept.clone()),
            ),
            (
                "answers without state",
                retry(params.clone(), None, accept.clone()),
            ),
            (
                "missing answer",
                retry(params.clone(), Some(&state), json!({})),
            ),
            (
                "unasked key",
                retry(
                    params.clone(),
                    Some(&state),
                    json!({"q0": {"action": "decline"}, "q9": {"action": "decline"}}),
                ),
            ),
            (
                "wrong kind of answer",
                retry(params.clone(), Some(&state), json!({"q0": {"roots": []}})),
            ),
        ];
        for (case, params) in cases {
            let error = refused(&running, params).await;
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{case}: {error:?}");
            assert!(!error.message.is_empty(), "{case}");
        }
        assert_eq!(
            CHECKED_RUNS.load(Ordering::SeqCst),
            runs,
            "no bad retry ran the tool"
        );

        // The genuine retry still works after all that.
        let done = running
            .call_tool_once(retry(params.clone(), Some(&state), accept))
            .await
            .unwrap();
        let CallToolResponse::Complete(result) = done else {
            panic!("expected the result, got {done:?}");
        };
        assert_eq!(text(&result), "Accepted(UnitChoice { unit: Celsius })");
        running.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_stale_request_state_is_refused() {
    bounded(async {
        let params = call("ask_twice", json!({"tag": "stale"}));
        let accept = json!({"q0": {"action": "accept", "content": {"unit": "celsius"}}});

        // Expired.
        let server =
            McpServer::new(tools![ask_twice]).with_request_state_ttl(Duration::from_millis(1));
        let running = connect(server, Client::default(), Era::Modern).await;
        let first = ask(&running, params.clone()).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let error = refused(
            &running,
            retry(
                params.clone(),
                first.request_state.as_deref(),
                accept.clone(),
            ),
        )
        .await;
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("expired"), "{}", error.message);
        running.cancel().await.unwrap();

        // From another server (another key); the same key on a replica accepts it.
        let key = [9u8; 32];
        let issuing = connect(
            McpServer::new(tools![ask_twice]).with_request_state_key(key),
            Client::default(),
            Era::Modern,
        )
        .await;
        let first = ask(&issuing, params.clone()).await;
        let state = first.request_state.as_deref();
        let stranger = connect(
            McpServer::new(tools![ask_twice]),
            Client::default(),
            Era::Modern,
        )
        .await;
        let error = refused(&stranger, retry(params.clone(), state, accept.clone())).await;
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        let replica = connect(
            McpServer::new(tools![ask_twice]).with_request_state_key(key),
            Client::default(),
            Era::Modern,
        )
        .await;
        let done = replica
            .call_tool_once(retry(params.clone(), state, accept))
            .await
            .unwrap();
        assert!(matches!(done, CallToolResponse::Complete(_)), "{done:?}");
        for running in [issuing, stranger, replica] {
            running.cancel().await.unwrap();
        }
    })
    .await;
}
