//! Our client answering what a server asks of it: sampling with the application's model (a
//! `ScriptedModel`, so the request the model saw can be checked), elicitation with a callback
//! (accept, decline, cancel, and an answer outside the form, which is not sent), roots from
//! a `Roots` list (and `notifications/roots/list_changed` when it changes). Each against a
//! FastMCP server (tests/python/fastmcp_catalog_server.py, in the same runs as its resources
//! and prompts) and against our own catalog server (`tool_tests::mcp::catalog`), on a
//! handshake-era session and on a 2026-07-28 one.

#![cfg(feature = "mcp")]

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tool_core::catalog::{PromptArguments, Role};
use tool_core::mcp::{ElicitationRequest, McpClient, McpClientBuilder, ProtocolEra, Roots};
use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::{Elicited, Root, ToolCall, ToolRegistry};
use tool_tests::mcp::harness::bounded;

/// What the elicitation callback answers next, and what it was asked.
#[derive(Clone, Default)]
struct User {
    answer: Arc<Mutex<&'static str>>,
    asked: Arc<Mutex<Vec<ElicitationRequest>>>,
}

impl User {
    fn will(&self, answer: &'static str) {
        *self.answer.lock().unwrap() = answer;
    }

    fn answer(&self, request: ElicitationRequest) -> Elicited<Value> {
        self.asked.lock().unwrap().push(request);
        match *self.answer.lock().unwrap() {
            "accept" => Elicited::Accepted(json!({"unit": "fahrenheit"})),
            // Not one of the form's choices: the client must not send it.
            "kelvin" => Elicited::Accepted(json!({"unit": "kelvin"})),
            "decline" => Elicited::Declined,
            _ => Elicited::Cancelled,
        }
    }
}

/// The models that answer sampling: `sonnet` for requests hinting at it, `other` otherwise.
struct Models {
    sonnet: ScriptedModel,
    other: ScriptedModel,
}

impl Models {
    fn new() -> Self {
        Models {
            sonnet: ScriptedModel::new([ModelTurn::text("Rain on the tin roofEND and more")]),
            other: ScriptedModel::new([ModelTurn::text("from the other model")]),
        }
    }
}

fn project() -> Root {
    Root {
        uri: "file:///tmp/project".into(),
        name: Some("project".into()),
    }
}

fn builder(era: ProtocolEra, models: &Models, user: &User, roots: &Roots) -> McpClientBuilder {
    let user = user.clone();
    McpClient::builder()
        .protocol(era)
        .sampling(models.other.clone())
        .sampling_model("claude-sonnet-4-5", models.sonnet.clone())
        .elicitation(move |request| {
            let answer = user.answer(request);
            async move { answer }
        })
        .roots(roots)
}

/// Whether the call failed, and its text: FastMCP's tools return `str | InputRequiredResult`,
/// so their text also comes as structured content `{"result": text}`, which is read then.
async fn call(registry: &ToolRegistry, name: &str, args: Value) -> (bool, String) {
    let reply = registry
        .call(&ToolCall::new("1", name, args.to_string()))
        .await;
    let structured = reply
        .data_as::<Value>()
        .and_then(Result::ok)
        .and_then(|data| data["result"].as_str().map(str::to_owned));
    let text = structured.unwrap_or_else(|| reply.model_text().to_string());
    (reply.is_error(), text)
}

/// One FastMCP run: resources, prompts, sampling, elicitation (all answers) and roots.
async fn fastmcp_run(era: ProtocolEra) {
    let Some(command) = tool_tests::mcp::theirs::fastmcp(
        "fastmcp_catalog_server.py",
        "our client answering a FastMCP server",
    ) else {
        return;
    };
    let (models, user) = (Models::new(), User::default());
    let roots = Roots::new([project()]);
    let client = builder(era, &models, &user, &roots)
        .spawn(command)
        .await
        .expect("the FastMCP server starts");
    let mut registry = ToolRegistry::new();
    client.register_into(&mut registry, None).unwrap();

    // Resources and prompts of the same server, in the same session.
    assert_eq!(
        client.read_resource("docs://units").await.unwrap().text(),
        Some("Celsius")
    );
    let args = PromptArguments::from([("city".to_string(), "Rome".to_string())]);
    let messages = client.get_prompt("plan_trip", &args).await.unwrap();
    assert_eq!(
        (messages[0].role, messages[0].text.as_str()),
        (Role::User, "Plan 3 days in Rome.")
    );

    // Sampling: the hint `sonnet` picks the Sonnet model, its text is cut at the stop sequence.
    let (failed, text) = call(&registry, "haiku", json!({"topic": "rain"})).await;
    assert!(!failed, "{text}");
    assert_eq!(text, "scripted (stopSequence): Rain on the tin roof");
    assert!(models.other.requests().is_empty());
    let seen = &models.sonnet.requests()[0];
    assert_eq!(seen.instructions.as_deref(), Some("You write haiku."));
    assert_eq!(seen.messages, [Message::user("A haiku about rain")]);
    assert!(seen.tools.is_empty());

    // Elicitation: every answer reaches the tool; one outside the form never leaves.
    for (answer, expected) in [
        ("accept", "accepted: fahrenheit"),
        ("decline", "declined"),
        ("cancel", "cancelled"),
    ] {
        user.will(answer);
        let (failed, text) = call(&registry, "ask_unit", json!({})).await;
        assert_eq!((failed, text.as_str()), (false, expected));
    }
    {
        let asked = user.asked.lock().unwrap();
        assert_eq!(asked.len(), 3);
        assert_eq!(asked[0].server, "py-catalog");
        assert_eq!(asked[0].message, "Which unit?");
        assert_eq!(
            asked[0].schema["properties"]["unit"]["enum"],
            json!(["celsius", "fahrenheit"])
        );
    }
    user.will("kelvin");
    let (failed, text) = call(&registry, "ask_unit", json!({})).await;
    assert!(failed, "an answer outside the form was sent: {text}");

    // Roots.
    let (failed, text) = call(&registry, "where", json!({})).await;
    assert_eq!(
        (failed, text.as_str()),
        (false, "project=file:///tmp/project")
    );
    client.close().await;
}

#[tokio::test]
async fn our_client_answers_a_fastmcp_server_on_a_handshake_session() {
    bounded(fastmcp_run(ProtocolEra::Handshake)).await;
}

#[tokio::test]
async fn our_client_answers_a_fastmcp_server_on_a_2026_07_28_session() {
    bounded(fastmcp_run(ProtocolEra::Discover)).await;
}

/// Our client against our own catalog server, served in memory.
async fn connect_ours(builder: McpClientBuilder) -> (McpClient, ToolRegistry) {
    let (near, far) = tokio::io::duplex(1 << 16);
    let server = tool_tests::mcp::catalog::server();
    tokio::spawn(async move {
        if let Ok(running) = server.serve_on(far).await {
            let _ = running.waiting().await;
        }
    });
    let client = builder.connect(near).await.unwrap();
    let mut registry = ToolRegistry::new();
    client.register_into(&mut registry, None).unwrap();
    (client, registry)
}

async fn ours_run(era: ProtocolEra) {
    let (models, user) = (Models::new(), User::default());
    let roots = Roots::new([project()]);
    let (client, registry) = connect_ours(builder(era, &models, &user, &roots)).await;

    // The tool hints `claude`: part of the Sonnet model's name.
    let (failed, text) = call(&registry, "haiku", json!({"topic": "rain"})).await;
    assert_eq!(
        (failed, text.as_str()),
        (false, "Rain on the tin roofEND and more (by scripted)")
    );
    let seen = &models.sonnet.requests()[0];
    assert_eq!(seen.messages, [Message::user("A haiku about rain")]);
    assert_eq!(seen.instructions, None);

    for (answer, expected) in [
        ("accept", "Fahrenheit"),
        ("decline", "declined"),
        ("cancel", "cancelled"),
    ] {
        user.will(answer);
        let (failed, text) = call(&registry, "ask_unit", json!({})).await;
        assert_eq!((failed, text.as_str()), (false, expected));
    }
    assert_eq!(user.asked.lock().unwrap()[0].server, "catalog");
    user.will("kelvin");
    let (failed, _) = call(&registry, "ask_unit", json!({})).await;
    assert!(failed, "an answer outside the form was sent");

    let (failed, text) = call(&registry, "where_am_i", json!({})).await;
    assert_eq!(
        (failed, text.as_str()),
        (false, "file:///tmp/project (project)")
    );
    // A changed list: the server sees it at its next question.
    let told = roots
        .set([Root {
            uri: "file:///srv/other".into(),
            name: None,
        }])
        .await;
    assert_eq!(told, 1);
    let (_, text) = call(&registry, "where_am_i", json!({})).await;
    assert_eq!(text, "file:///srv/other (-)");

    // The prompt renders through the same client.
    let args = PromptArguments::from([("city".to_string(), "Oslo".to_string())]);
    let messages = client.get_prompt("plan_trip", &args).await.unwrap();
    assert_eq!(messages[0].text, "Plan 3 days in Oslo.");
    client.close().await;
}

#[tokio::test]
async fn our_client_answers_our_server_on_a_handshake_session() {
    bounded(ours_run(ProtocolEra::Handshake)).await;
}

#[tokio::test]
async fn our_client_answers_our_server_on_a_2026_07_28_session() {
    bounded(ours_run(ProtocolEra::Discover)).await;
}

/// A capability the client was not given is not declared: the server's tool says so.
#[tokio::test]
async fn only_what_is_configured_is_declared() {
    bounded(async {
        for era in [ProtocolEra::Handshake, ProtocolEra::Discover] {
            let roots = Roots::new([project()]);
            let (client, registry) =
                connect_ours(McpClient::builder().protocol(era).roots(&roots)).await;
            let (failed, text) = call(&registry, "haiku", json!({"topic": "rain"})).await;
            assert!(failed, "{era:?}: {text}");
            assert!(text.contains("`sampling` capability"), "{era:?}: {text}");
            let (failed, text) = call(&registry, "ask_unit", json!({})).await;
            assert!(failed && text.contains("`elicitation`"), "{era:?}: {text}");
            let (failed, _) = call(&registry, "where_am_i", json!({})).await;
            assert!(!failed, "{era:?}");
            client.close().await;
        }
    })
    .await;
}
