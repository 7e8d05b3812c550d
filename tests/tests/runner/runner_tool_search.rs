//! Deferred tools with a model that has no tool search of its own (the scripted model, Chat
//! Completions, Gemini, text modes): the run offers its own `search_tools`, answers it, and
//! offers the tools found from the next turn on, appended after the ones already sent.

use std::sync::atomic::{AtomicUsize, Ordering};

use tool_core::model::{Message, ModelTurn, ScriptedModel};
use tool_core::provider::{ChatApi, Gemini, OpenAiChat};
use tool_core::runner::{Run, RunError, RunOptions, RunOutcome, Runner, Step};
use tool_core::search::KeywordSearch;
use tool_core::{block_on, tool, tools, ToolCall, ToolDefinition, ToolErrorCode, ToolRegistry};

/// Current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("{city}: 21 C")
}

/// Create a new issue in a GitHub repository.
#[tool(defer_loading)]
fn create_issue(
    /// Repository, as owner/name.
    repo: String,
    /// Issue title.
    title: String,
) -> String {
    format!("created issue '{title}' in {repo}")
}

/// List issues in a GitHub repository.
#[tool(defer_loading, read_only)]
fn list_issues(
    /// Repository, as owner/name.
    repo: String,
) -> String {
    format!("no open issues in {repo}")
}

/// Send an email message to a recipient.
#[tool(defer_loading)]
fn send_email(
    /// Recipient address.
    to: String,
    /// Message body.
    body: String,
) -> String {
    format!("sent {} bytes to {to}", body.len())
}

static ARCHIVED: AtomicUsize = AtomicUsize::new(0);

/// Archive a GitHub repository so it becomes read-only.
#[tool(defer_loading)]
fn archive_repository(
    /// Repository, as owner/name.
    repo: String,
) -> String {
    ARCHIVED.fetch_add(1, Ordering::SeqCst);
    format!("archived {repo}")
}

fn catalogue() -> ToolRegistry {
    tools![
        get_weather,
        create_issue,
        list_issues,
        send_email,
        archive_repository
    ]
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

fn results(message: &Message) -> Vec<(String, String, Option<ToolErrorCode>, String)> {
    match message {
        Message::Tool { results } => results
            .iter()
            .map(|r| {
                (
                    r.call_id.clone(),
                    r.name.clone(),
                    r.response.error_code(),
                    r.response.model_text().into_owned(),
                )
            })
            .collect(),
        other => panic!("expected tool results, got {other:?}"),
    }
}

#[test]
fn a_search_turn_then_a_call_of_the_tool_found() {
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![call(
                "s1",
                "search_tools",
                r#"{"query":"create a github issue","limit":2}"#,
            )],
        ),
        ModelTurn::with_calls(
            "",
            vec![call(
                "c1",
                "create_issue",
                r#"{"repo":"acme/app","title":"Crash on start"}"#,
            )],
        ),
        ModelTurn::text("Opened it."),
    ]);
    let runner = Runner::new(model.clone(), catalogue());
    let result = block_on(runner.run("Open an issue about the crash")).unwrap();
    assert_eq!(
        result.outcome,
        RunOutcome::Finished {
            text: "Opened it.".into()
        }
    );

    let requests = model.requests();
    assert_eq!(requests.len(), 3);
    // First turn: the tools that are not deferred, then the search.
    assert_eq!(requests[0].tools, ["get_weather", "search_tools"]);
    // The search found two tools, best first; both are offered from the next turn on.
    let searched = results(&result.messages()[2]);
    assert_eq!(searched.len(), 1);
    let (id, name, code, text) = &searched[0];
    assert_eq!(
        (id.as_str(), name.as_str(), *code),
        ("s1", "search_tools", None)
    );
    assert!(text.contains("next turn"), "{text}");
    let first_found = text.find("- create_issue: Create a new issue in a GitHub repository.");
    assert!(first_found.is_some(), "{text}");
    assert_eq!(text.matches("\n- ").count(), 2, "limit 2: {text}");
    let second = requests[1].tools.get(3).cloned().unwrap_or_default();
    assert_eq!(
        requests[1].tools[..3],
        ["get_weather", "search_tools", "create_issue"]
    );
    assert!(text.contains(&format!("- {second}:")), "{second} in {text}");
    assert_eq!(requests[2].tools, requests[1].tools);
    assert_eq!(
        result.run.loaded_tools(),
        ["create_issue".to_string(), second]
    );

    // History: user, search call, its result, the call of the tool found, its result, text.
    let messages = result.messages();
    assert_eq!(messages.len(), 6);
    assert_eq!(messages[0], Message::user("Open an issue about the crash"));
    let Message::Assistant(turn) = &messages[3] else {
        panic!("{:?}", messages[3])
    };
    assert_eq!(turn.calls[0].name, "create_issue");
    assert_eq!(
        results(&messages[4]),
        [(
            "c1".into(),
            "create_issue".into(),
            None,
            "created issue 'Crash on start' in acme/app".into()
        )]
    );
    // The model saw exactly this history on its last request.
    assert_eq!(requests[2].messages, messages[..5]);
}

#[test]
fn a_deferred_tool_not_found_yet_is_refused_and_not_run() {
    let before = ARCHIVED.load(Ordering::SeqCst);
    let model = ScriptedModel::new([
        // Straight to a deferred tool, then a search and the same call in one turn: the
        // tools found are callable from the next turn only.
        ModelTurn::with_calls(
            "",
            vec![call("a1", "archive_repository", r#"{"repo":"acme/old"}"#)],
        ),
        ModelTurn::with_calls(
            "",
            vec![
                call("s1", "search_tools", r#"{"query":"archive repository"}"#),
                call("a2", "archive_repository", r#"{"repo":"acme/old"}"#),
            ],
        ),
        ModelTurn::with_calls(
            "",
            vec![call("a3", "archive_repository", r#"{"repo":"acme/old"}"#)],
        ),
        ModelTurn::text("Archived."),
    ]);
    let runner = Runner::new(model.clone(), catalogue());
    let result = block_on(runner.run("Archive acme/old")).unwrap();
    let messages = result.messages();

    let refused = results(&messages[2]);
    assert_eq!(refused[0].2, Some(ToolErrorCode::NotFound));
    assert!(
        refused[0]
            .3
            .contains("`archive_repository` is not loaded yet; call search_tools first"),
        "{}",
        refused[0].3
    );
    let same_turn = results(&messages[4]);
    assert_eq!(same_turn[0].2, None, "the search ran: {}", same_turn[0].3);
    assert!(same_turn[0].3.contains("archive_repository"));
    assert_eq!(same_turn[1].0, "a2");
    assert_eq!(same_turn[1].2, Some(ToolErrorCode::NotFound));
    // Only the call after the search's turn ran, once.
    assert_eq!(
        results(&messages[6]),
        [(
            "a3".into(),
            "archive_repository".into(),
            None,
            "archived acme/old".into()
        )]
    );
    assert_eq!(ARCHIVED.load(Ordering::SeqCst) - before, 1);
    assert!(!model.requests()[1]
        .tools
        .contains(&"archive_repository".to_string()));
    assert!(model.requests()[2]
        .tools
        .contains(&"archive_repository".to_string()));
}

/// The tools part of a request as the API's own serializer writes it.
fn wire_tools<A: ChatApi>(definitions: &[ToolDefinition]) -> String {
    serde_json::to_string(&A::tools(definitions)).unwrap()
}

/// Steps a run by hand through `turns`, answering tool calls with the registry, and returns
/// the tools of every request.
fn requests_of(
    registry: &ToolRegistry,
    options: RunOptions,
    turns: Vec<ModelTurn>,
) -> Vec<Vec<ToolDefinition>> {
    let mut run = Run::new("Plan my day", options);
    let mut seen = Vec::new();
    let mut turns = turns.into_iter();
    loop {
        match run.step(registry).unwrap() {
            Step::CallModel(request) => {
                seen.push(request.tools.definitions().to_vec());
                let turn = turns.next().expect("a scripted turn for every request");
                run.record_turn(turn, registry).unwrap();
            }
            Step::RunTools(batch) => {
                let responses = batch
                    .calls
                    .iter()
                    .map(|c| registry.call_blocking(c))
                    .collect();
                run.record_results(responses).unwrap();
            }
            Step::Done(_) => return seen,
            other => panic!("unexpected step {other:?}"),
        }
    }
}

#[test]
fn each_request_s_tools_are_a_byte_identical_prefix_of_the_next() {
    let registry = catalogue();
    let turns = vec![
        ModelTurn::with_calls(
            "",
            vec![call("s1", "search_tools", r#"{"query":"email","limit":1}"#)],
        ),
        ModelTurn::with_calls("", vec![call("w1", "get_weather", r#"{"city":"Oslo"}"#)]),
        ModelTurn::with_calls(
            "",
            vec![call("s2", "search_tools", r#"{"query":"issues"}"#)],
        ),
        // A search finding what is loaded already changes nothing.
        ModelTurn::with_calls(
            "",
            vec![call("s3", "search_tools", r#"{"query":"send email"}"#)],
        ),
        ModelTurn::text("Done."),
    ];
    let requests = requests_of(&registry, RunOptions::new(), turns);
    assert_eq!(requests.len(), 5);
    let names: Vec<Vec<&str>> = requests
        .iter()
        .map(|r| r.iter().map(|d| d.name.as_str()).collect())
        .collect();
    assert_eq!(names[0], ["get_weather", "search_tools"]);
    assert_eq!(names[1], ["get_weather", "search_tools", "send_email"]);
    assert_eq!(names[2], names[1]);
    assert_eq!(names[3][..3], names[1][..]);
    assert!(names[3].len() > 3 && names[3].contains(&"create_issue"));
    assert_eq!(names[4], names[3]);
    for definitions in &requests {
        assert!(
            definitions.iter().all(|d| !d.defer_loading()),
            "nothing goes out marked deferred"
        );
    }
    for pair in requests.windows(2) {
        for (api, before, after) in [
            (
                "chat",
                wire_tools::<OpenAiChat>(&pair[0]),
                wire_tools::<OpenAiChat>(&pair[1]),
            ),
            (
                "gemini",
                wire_tools::<Gemini>(&pair[0]),
                wire_tools::<Gemini>(&pair[1]),
            ),
        ] {
            // Everything but the closing brackets of the earlier list starts the later one.
            let open = before.trim_end_matches([']', '}']);
            assert!(
                after.starts_with(open),
                "{api}: {before}\nis no prefix of\n{after}"
            );
        }
    }
}

#[test]
fn a_stored_run_keeps_the_tools_it_found() {
    let registry = catalogue();
    let mut run = Run::new("Email Ann", RunOptions::new());
    assert!(matches!(run.step(&registry).unwrap(), Step::CallModel(_)));
    let search = call(
        "s1",
        "search_tools",
        r#"{"query":"send an email","limit":1}"#,
    );
    run.record_turn(ModelTurn::with_calls("", vec![search]), &registry)
        .unwrap();
    let Step::RunTools(batch) = run.step(&registry).unwrap() else {
        panic!()
    };
    assert!(batch.calls.is_empty(), "the run answers the search itself");
    assert_eq!(batch.denied.len(), 1);
    run.record_results(Vec::new()).unwrap();
    assert_eq!(run.loaded_tools(), ["send_email"]);

    let stored = serde_json::to_string(&run).unwrap();
    assert!(
        stored.contains(r#""loaded_tools":["send_email"]"#),
        "{stored}"
    );
    let mut restored: Run = serde_json::from_str(&stored).unwrap();
    assert_eq!(restored.loaded_tools(), ["send_email"]);
    let Step::CallModel(request) = restored.step(&registry).unwrap() else {
        panic!()
    };
    let names: Vec<&str> = request
        .tools
        .definitions()
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["get_weather", "search_tools", "send_email"]);
    let send = call(
        "e1",
        "send_email",
        r#"{"to":"ann@example.com","body":"hi"}"#,
    );
    restored
        .record_turn(ModelTurn::with_calls("", vec![send]), &registry)
        .unwrap();
    let Step::RunTools(batch) = restored.step(&registry).unwrap() else {
        panic!()
    };
    assert_eq!(batch.calls.len(), 1, "a loaded tool runs normally");
}

#[test]
fn a_runner_resumes_a_paused_run_with_its_loaded_tools() {
    /// Delete a GitHub repository for good.
    #[tool(defer_loading, destructive)]
    fn delete_repository(
        /// Repository, as owner/name.
        repo: String,
    ) -> String {
        format!("deleted {repo}")
    }
    let registry = tools![get_weather, delete_repository, send_email];
    let model = ScriptedModel::new([
        ModelTurn::with_calls(
            "",
            vec![call(
                "s1",
                "search_tools",
                r#"{"query":"delete repository"}"#,
            )],
        ),
        ModelTurn::with_calls(
            "",
            vec![call("d1", "delete_repository", r#"{"repo":"acme/tmp"}"#)],
        ),
        ModelTurn::text("Deleted."),
    ]);
    let runner = Runner::new(model.clone(), registry);
    let paused = block_on(runner.run("Delete acme/tmp")).unwrap();
    assert_eq!(paused.pending_approvals()[0].id, "d1");
    let stored = serde_json::to_string(&paused.run).unwrap();
    let mut run: Run = serde_json::from_str(&stored).unwrap();
    run.approve("d1").unwrap();
    let done = block_on(runner.resume(run)).unwrap();
    assert_eq!(done.final_text().unwrap(), "Deleted.");
    assert_eq!(results(&done.messages()[4])[0].3, "deleted acme/tmp");
    assert_eq!(
        model.requests()[2].tools[..3],
        ["get_weather", "search_tools", "delete_repository"]
    );
}

#[test]
fn a_registry_tool_named_search_tools_is_an_error_at_the_start() {
    /// Searches the web.
    #[tool]
    fn search_tools(query: String) -> String {
        query
    }
    let model = ScriptedModel::new([ModelTurn::text("unused")]);
    let runner = Runner::new(model.clone(), tools![search_tools, send_email]);
    let error = block_on(runner.run("Hi")).unwrap_err();
    assert_eq!(
        error,
        RunError::ReservedToolName {
            name: "search_tools".into()
        }
    );
    assert!(error.to_string().contains("rename that tool"));
    assert!(model.requests().is_empty(), "nothing was sent");
    // Without deferred tools the name is the user's.
    let model = ScriptedModel::new([ModelTurn::text("ok")]);
    let runner = Runner::new(model.clone(), tools![search_tools, get_weather]);
    assert!(block_on(runner.run("Hi")).is_ok());
}

#[test]
fn the_search_and_its_limit_are_the_user_s_choice() {
    let turns = vec![
        ModelTurn::with_calls(
            "",
            vec![call(
                "s1",
                "search_tools",
                r#"{"query":"github repository","limit":9}"#,
            )],
        ),
        ModelTurn::with_calls("", vec![call("s2", "search_tools", r#"{"query":"  "}"#)]),
        ModelTurn::with_calls("", vec![call("s3", "search_tools", r#"{"q":"oops"}"#)]),
        ModelTurn::text("ok"),
    ];
    let model = ScriptedModel::new(turns);
    let options = RunOptions::new()
        .tool_search(KeywordSearch::plain_bm25())
        .tool_search_limit(2);
    let runner = Runner::new(model.clone(), catalogue()).with_options(options);
    let result = block_on(runner.run("Tidy up")).unwrap();
    let messages = result.messages();
    // At most two, whatever the model asks for.
    assert_eq!(result.run.loaded_tools().len(), 2);
    assert_eq!(results(&messages[2])[0].3.matches("\n- ").count(), 2);
    // An empty query and arguments of the wrong shape get errors the model can act on.
    let empty = &results(&messages[4])[0];
    assert_eq!(empty.2, Some(ToolErrorCode::InvalidParam));
    assert!(empty.3.contains("send a few keywords"), "{}", empty.3);
    let wrong = &results(&messages[6])[0];
    assert_eq!(wrong.2, Some(ToolErrorCode::InvalidParam));
    assert!(
        wrong.3.contains(r#"{"query": "send email"}"#),
        "{}",
        wrong.3
    );
    // The search's definition says the limit.
    let registry = catalogue();
    let mut run = Run::new("x", RunOptions::new().tool_search_limit(2));
    let Step::CallModel(request) = run.step(&registry).unwrap() else {
        panic!()
    };
    let search = &request.tools.definitions()[1];
    assert_eq!(search.name, "search_tools");
    assert_eq!(search.input_schema["properties"]["limit"]["maximum"], 2);
}

#[test]
fn a_model_with_its_own_search_gets_every_tool_marked() {
    let registry = catalogue();
    let mut run = Run::new("Open an issue", RunOptions::new());
    run.use_native_tool_search(true);
    let Step::CallModel(request) = run.step(&registry).unwrap() else {
        panic!()
    };
    let offered: Vec<(&str, bool)> = request
        .tools
        .definitions()
        .iter()
        .map(|d| (d.name.as_str(), d.defer_loading()))
        .collect();
    assert_eq!(
        offered,
        [
            ("get_weather", false),
            ("create_issue", true),
            ("list_issues", true),
            ("send_email", true),
            ("archive_repository", true)
        ]
    );
    // A call of a deferred tool runs normally: the provider's search found it.
    let issue = call("c1", "list_issues", r#"{"repo":"acme/app"}"#);
    run.record_turn(ModelTurn::with_calls("", vec![issue]), &registry)
        .unwrap();
    let Step::RunTools(batch) = run.step(&registry).unwrap() else {
        panic!()
    };
    assert_eq!(batch.calls.len(), 1);
}

/// A turn as the Anthropic adapter records it: its content blocks, one search result that
/// returned `found`, and `calls`.
fn anthropic_turn(found: &[&str], calls: Vec<ToolCall>) -> ModelTurn {
    let references: Vec<serde_json::Value> = found
        .iter()
        .map(|name| serde_json::json!({"type": "tool_reference", "tool_name": name}))
        .collect();
    let mut content = vec![
        serde_json::json!({"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
        "content": {"type": "tool_search_tool_search_result", "tool_references": references}}),
    ];
    for call in &calls {
        content.push(
            serde_json::json!({"type": "tool_use", "id": call.id, "name": call.name, "input": {}}),
        );
    }
    let native = serde_json::json!({"role": "assistant", "content": content});
    ModelTurn {
        native: Some(tool_core::model::NativeContent::new(
            tool_core::provider::Api::Anthropic,
            native,
        )),
        ..ModelTurn::with_calls("", calls)
    }
}

#[test]
fn with_the_providers_search_only_what_it_returned_runs_and_a_conversation_keeps_it() {
    let registry = catalogue();
    let mut run = Run::new("Open an issue", RunOptions::new());
    run.use_native_tool_search(true);
    let Step::CallModel(_) = run.step(&registry).unwrap() else {
        panic!()
    };
    // The search returned list_issues; the model calls it, a tool it did not return, and a
    // tool that is not deferred.
    let calls = vec![
        call("c1", "list_issues", r#"{"repo":"acme/app"}"#),
        call(
            "c2",
            "send_email",
            r#"{"to":"a@b.c","subject":"x","body":"y"}"#,
        ),
        call("c3", "get_weather", r#"{"city":"Paris"}"#),
    ];
    run.record_turn(anthropic_turn(&["list_issues"], calls), &registry)
        .unwrap();
    assert_eq!(run.loaded_tools(), ["list_issues"]);
    let Step::RunTools(batch) = run.step(&registry).unwrap() else {
        panic!()
    };
    let ran: Vec<&str> = batch.calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(ran, ["list_issues", "get_weather"]);
    assert_eq!(batch.denied.len(), 1);
    assert_eq!(batch.denied[0].call_id, "c2");
    assert_eq!(
        batch.denied[0].response.error_code(),
        Some(ToolErrorCode::NotFound)
    );

    // A conversation continued from its messages keeps what the provider's search loaded.
    let history = vec![
        Message::user("Open an issue"),
        Message::Assistant(anthropic_turn(&["list_issues"], vec![])),
        Message::user("And list them again."),
    ];
    let mut run = Run::with_messages(history, RunOptions::new());
    run.use_native_tool_search(true);
    assert_eq!(run.loaded_tools(), ["list_issues"]);
    let Step::CallModel(_) = run.step(&registry).unwrap() else {
        panic!()
    };
    let again = call("c4", "list_issues", r#"{"repo":"acme/app"}"#);
    run.record_turn(anthropic_turn(&[], vec![again]), &registry)
        .unwrap();
    let Step::RunTools(batch) = run.step(&registry).unwrap() else {
        panic!()
    };
    assert_eq!(batch.calls.len(), 1);
}
