//! Hundreds of tools without sending hundreds of schemas: the catalogue's tools are deferred,
//! the model first gets a `search_tools` tool, searches, and calls what it found on the next
//! turn. The model here is scripted, so the example runs offline; with a real model the run
//! does the same (Anthropic and OpenAI Responses models search with the provider's own tool
//! search instead).
//!
//! `cargo run --example tool_search`

use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::runner::{RunOptions, Runner};
use tool_core::{tool, tools, ToolCall};

/// Current date and time in UTC.
#[tool(read_only)]
fn now() -> String {
    "2026-11-26T15:00:00Z".into()
}

/// Create a new issue in a GitHub repository.
#[tool(defer_loading)]
fn create_issue(
    /// Repository, as owner/name.
    repo: String,
    /// Issue title.
    title: String,
) -> String {
    format!("Created issue #42 '{title}' in {repo}")
}

/// List open pull requests of a GitHub repository.
#[tool(defer_loading, read_only)]
fn list_pull_requests(
    /// Repository, as owner/name.
    repo: String,
) -> String {
    format!("No open pull requests in {repo}")
}

/// Send an email message.
#[tool(defer_loading)]
fn send_email(
    /// Recipient address.
    to: String,
    /// Message body.
    body: String,
) -> String {
    format!("Sent {} bytes to {to}", body.len())
}

/// Create an event in the user's calendar.
#[tool(defer_loading)]
fn create_calendar_event(
    /// Event title.
    title: String,
    /// Start, as an RFC 3339 date-time.
    start: String,
) -> String {
    format!("Booked '{title}' at {start}")
}

/// Read a file from the workspace.
#[tool(defer_loading, read_only)]
fn read_file(
    /// Path of the file.
    path: String,
) -> String {
    format!("(contents of {path})")
}

/// Search the web for recent pages.
#[tool(defer_loading, read_only)]
fn web_search(
    /// The query.
    query: String,
) -> String {
    format!("3 pages about {query}")
}

fn main() {
    // `now` is always offered; the other tools wait until a search finds them. A registry of
    // imported MCP tools can defer all of them at once with `defer_loading_all()`.
    let registry = tools![
        now,
        create_issue,
        list_pull_requests,
        send_email,
        create_calendar_event,
        read_file,
        web_search
    ];

    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![ToolCall::new(
                "s1",
                "search_tools",
                r#"{"query":"open a github issue","limit":2}"#,
            )],
        ),
        ModelTurn::with_calls(
            "",
            vec![ToolCall::new(
                "c1",
                "create_issue",
                r#"{"repo":"acme/app","title":"Crash on start"}"#,
            )],
        ),
        ModelTurn::text("I opened issue #42 in acme/app."),
    ]);
    let runner =
        Runner::new(model.clone(), registry).with_options(RunOptions::new().tool_search_limit(3));
    let result = tool_core::block_on(runner.run("Please file a bug: the app crashes on start."))
        .expect("the scripted run finishes");

    for (turn, request) in model.requests().iter().enumerate() {
        println!("request {}: tools {:?}", turn + 1, request.tools);
    }
    println!();
    for message in result.messages() {
        match message {
            Message::Assistant(turn) => {
                for call in &turn.calls {
                    println!("model calls {}({})", call.name, call.arguments);
                }
                if !turn.text.is_empty() {
                    println!("model: {}", turn.text);
                }
            }
            Message::Tool { results } => {
                for result in results {
                    println!("{} -> {}", result.name, result.response.model_text());
                }
            }
            Message::User { content } => println!("user: {content}"),
            other => println!("{other:?}"),
        }
    }
    println!("\nloaded tools: {:?}", result.run.loaded_tools());

    // What the example shows, checked.
    let requests = model.requests();
    assert_eq!(requests[0].tools, ["now", "search_tools"]);
    assert_eq!(
        requests[1].tools[..3],
        ["now", "search_tools", "create_issue"]
    );
    assert_eq!(
        result.final_text().expect("a final answer"),
        "I opened issue #42 in acme/app."
    );
}
