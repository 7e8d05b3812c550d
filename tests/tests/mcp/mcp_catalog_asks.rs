//! Prompts and resources that ask the client questions, as tools do: a `#[prompt]` that
//! samples the client's model and a `#[resource]` that elicits a choice, through a
//! `ToolContext` parameter, with rmcp's own client on both protocol eras (a server-to-client
//! request on 2025-11-25; an `InputRequiredResult` and a retry with sealed request state on
//! 2026-07-28, which rmcp's client drives through its handler).

#![cfg(feature = "mcp")]
#![allow(deprecated)] // sampling: a deprecated capability, still what we test.

use std::sync::atomic::Ordering;
use std::sync::Mutex;

use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, ReadResourceRequestParams, ResourceContents,
};
use serde_json::json;
use tool_core::catalog::{Catalog, CatalogError, PromptArguments};
use tool_core::mcp::McpServer;
use tool_core::{
    prompt, prompts, resource, resources, Elicited, PeerError, SamplingRequest, ToolContext,
    ToolRegistry,
};
use tool_tests::mcp::asker::{connect, Client, Era};
use tool_tests::mcp::catalog::UnitChoice;
use tool_tests::mcp::harness::bounded;

/// The topic of every run of `poem`'s body (a retry runs it again). Tests in this process run
/// at once, so each counts the runs of a topic of its own.
static POEM_RUNS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn runs_about(topic: &str) -> usize {
    POEM_RUNS
        .lock()
        .unwrap()
        .iter()
        .filter(|t| *t == topic)
        .count()
}

/// A poem about a topic, drafted by the client's model.
#[prompt]
async fn poem(
    /// What the poem is about.
    topic: String,
    ctx: ToolContext<'_>,
) -> Result<String, PeerError> {
    POEM_RUNS.lock().unwrap().push(topic.clone());
    let draft = ctx
        .sample(SamplingRequest::new(format!("A poem about {topic}")))
        .await?;
    Ok(format!("Polish this draft: {}", draft.text))
}

/// The unit a user prefers, asked of the user.
#[resource(uri = "prefs://{user}/unit")]
async fn unit_pref(user: String, ctx: ToolContext<'_>) -> Result<String, PeerError> {
    Ok(match ctx.elicit::<UnitChoice>("Which unit?").await? {
        Elicited::Accepted(choice) => format!("{user}: {:?}", choice.unit),
        Elicited::Declined => format!("{user}: declined"),
        Elicited::Cancelled => format!("{user}: cancelled"),
    })
}

fn catalog() -> Catalog {
    prompts![poem].merge(resources![unit_pref])
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::new()).with_catalog(catalog())
}

fn read_text(contents: &[ResourceContents]) -> String {
    match &contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn prompts_and_resources_ask_on_both_eras() {
    bounded(async {
        for era in [Era::Handshake, Era::Modern] {
            let client = Client::default();
            let counts = client.clone();
            let running = connect(server(), client, era).await;

            // The context parameter is not a prompt argument.
            let listed = running.peer().list_all_prompts().await.unwrap();
            let arguments: Vec<_> = listed[0]
                .arguments
                .iter()
                .flatten()
                .map(|a| a.name.as_str())
                .collect();
            assert_eq!(arguments, ["topic"], "{era:?}");

            let topic = format!("dusk in the {era:?} era");
            let mut params = GetPromptRequestParams::new("poem");
            params.arguments = json!({ "topic": topic }).as_object().cloned();
            let got = running.get_prompt(params).await.unwrap();
            let message = serde_json::to_value(&got.messages[0]).unwrap();
            assert_eq!(
                message["content"]["text"],
                format!("Polish this draft: echo: A poem about {topic}"),
                "{era:?}"
            );
            // One question, asked once; on 2026-07-28 the body ran again for the retry.
            assert_eq!(counts.sampled.load(Ordering::SeqCst), 1, "{era:?}");
            let runs = runs_about(&topic);
            match era {
                Era::Handshake => assert_eq!(runs, 1),
                Era::Modern => assert_eq!(runs, 2),
            }

            for (answer, expected) in [
                ("accept", "ada: Fahrenheit"),
                ("decline", "ada: declined"),
                ("cancel", "ada: cancelled"),
            ] {
                *counts.answer.lock().unwrap() = answer;
                let read = running
                    .read_resource(ReadResourceRequestParams::new("prefs://ada/unit"))
                    .await
                    .unwrap();
                assert_eq!(read_text(&read.contents), expected, "{era:?} {answer}");
            }
            assert_eq!(counts.elicited.load(Ordering::SeqCst), 3, "{era:?}");
            running.cancel().await.unwrap();
        }
    })
    .await;
}

/// On 2026-07-28 the first answer is an `InputRequiredResult` whose request state is bound to
/// the prompt and its arguments: retried for another prompt argument it is refused.
#[tokio::test]
async fn a_2026_prompt_answers_with_input_requests_bound_to_its_arguments() {
    bounded(async {
        let running = connect(server(), Client::default(), Era::Modern).await;
        let mut params = GetPromptRequestParams::new("poem");
        params.arguments = json!({"topic": "rain"}).as_object().cloned();
        let GetPromptResponse::InputRequired(first) =
            running.get_prompt_once(params).await.unwrap()
        else {
            panic!("expected input requests");
        };
        let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
        assert_eq!(requests["q0"]["method"], "sampling/createMessage");
        assert_eq!(
            requests["q0"]["params"]["messages"][0]["content"]["text"],
            "A poem about rain"
        );
        let state = first.request_state.clone().unwrap();

        // The same state, replayed for other arguments, does not open.
        let mut other = GetPromptRequestParams::new("poem");
        other.arguments = json!({"topic": "snow"}).as_object().cloned();
        other.request_state = Some(state);
        other.input_responses = serde_json::from_value(json!({"q0": {
            "role": "assistant",
            "content": {"type": "text", "text": "forged"},
            "model": "m"
        }}))
        .ok();
        let error = running.get_prompt_once(other).await.unwrap_err();
        assert!(
            matches!(&error, rmcp::service::ServiceError::McpError(e) if e.code == rmcp::model::ErrorCode::INVALID_PARAMS),
            "{error:?}"
        );
        running.cancel().await.unwrap();
    })
    .await;
}

/// Outside MCP there is no client to ask: the function's error is the read's.
#[tokio::test]
async fn without_a_client_the_question_fails_clearly() {
    let catalog = catalog();
    let error = catalog.read("prefs://ada/unit").await.unwrap_err();
    assert!(
        matches!(&error, CatalogError::Failed { message } if message.contains("elicitation")),
        "{error:?}"
    );
    let arguments = PromptArguments::from([("topic".to_string(), "rain".to_string())]);
    let error = catalog.render("poem", &arguments).await.unwrap_err();
    assert!(
        matches!(&error, CatalogError::Failed { message } if message.contains("sampling")),
        "{error:?}"
    );
}
