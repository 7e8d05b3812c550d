//! Composing registries with `Shape`: prefixes, renames, filters and namespaces; collisions
//! are errors naming both tools; shaped tools run the original; names stay within every
//! provider's rules; the order is the same on every build.

use tool_core::provider::{check_definition, Api};
use tool_core::{
    tool, tools, RegistryError, RetryPolicy, Shape, ToolCall, ToolErrorCode, ToolNamespace,
    ToolRegistry,
};

/// Searches the local notes.
#[tool]
fn search(query: String) -> String {
    format!("notes: {query}")
}

/// Searches GitHub issues.
#[tool(name = "search", idempotent)]
fn gh_search(query: String) -> String {
    format!("issues: {query}")
}

/// Finds a pull request by number.
#[tool(read_only)]
fn find_pr(number: u32) -> String {
    format!("pr #{number}")
}

/// Deletes a repository.
#[tool(destructive)]
fn delete_repo(name: String) -> String {
    format!("deleted {name}")
}

fn github() -> ToolRegistry {
    tools![gh_search, find_pr, delete_repo]
}

fn answer(registry: &ToolRegistry, name: &str, arguments: &str) -> String {
    registry
        .call_blocking(&ToolCall::new("c1", name, arguments))
        .model_text()
        .to_string()
}

#[test]
fn prefix_rename_and_filter_shape_the_added_tools_and_each_runs_its_original() {
    let registry = tools![search]
        .merge(
            &github(),
            Shape::new()
                .source("github")
                .prefix("gh_")
                .rename("find_pr", "pull_request")
                .filter(|def| def.annotations.destructive != Some(true)),
        )
        .unwrap();
    // This registry's tools first, then the kept ones in the source's order.
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["search", "gh_search", "pull_request"]
    );
    assert_eq!(answer(&registry, "search", r#"{"query":"x"}"#), "notes: x");
    assert_eq!(
        answer(&registry, "gh_search", r#"{"query":"x"}"#),
        "issues: x"
    );
    assert_eq!(
        answer(&registry, "pull_request", r#"{"number":7}"#),
        "pr #7"
    );
    // The filtered tool is not there, under either name.
    for gone in ["delete_repo", "gh_delete_repo"] {
        let reply = registry.call_blocking(&ToolCall::new("c2", gone, r#"{"name":"r"}"#));
        assert_eq!(reply.error_code(), Some(ToolErrorCode::NotFound), "{gone}");
    }
    // The definition keeps everything but the name.
    let def = registry.definition("pull_request").unwrap();
    assert_eq!(def.description, "Finds a pull request by number.");
    assert_eq!(def.annotations.read_only, Some(true));
    assert_eq!(def.input_schema["required"], serde_json::json!(["number"]));
}

#[test]
fn a_collision_is_an_error_naming_both_tools_and_adds_nothing() {
    let mut registry = tools![search];
    let error = registry
        .extend_from(&github(), Shape::new().source("github"))
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::Collision {
            name: "search".into(),
            existing: "'search' (registered directly)".into(),
            incoming: "'search' from github".into(),
        }
    );
    assert!(error.to_string().contains("give one toolset a prefix"));
    // All or nothing: find_pr (before the error in no order) was not added either.
    assert_eq!(registry.names().collect::<Vec<_>>(), ["search"]);

    // A tool that joined by composing is named by its origin in a later collision.
    let mut registry = ToolRegistry::new()
        .merge(&github(), Shape::new().source("github").only(["find_pr"]))
        .unwrap();
    let error = registry
        .extend_from(&tools![find_pr], Shape::new().source("gitlab"))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "two tools would be named 'find_pr': 'find_pr' from github and 'find_pr' from gitlab; \
         give one toolset a prefix or a namespace, rename one tool, or filter one out"
    );
}

#[test]
fn a_rename_onto_another_added_tool_collides_inside_the_source() {
    let error = ToolRegistry::new()
        .merge(&github(), Shape::new().rename("find_pr", "search"))
        .unwrap_err();
    let RegistryError::Collision {
        name,
        existing,
        incoming,
    } = error
    else {
        panic!("expected a collision, got {error:?}")
    };
    assert_eq!(name, "search");
    assert_eq!(existing, "'search' from the added registry");
    assert_eq!(incoming, "'find_pr' from the added registry");
}

#[test]
fn renaming_a_tool_the_source_lacks_is_an_error() {
    let error = ToolRegistry::new()
        .merge(
            &github(),
            Shape::new().source("github").rename("find_prs", "prs"),
        )
        .unwrap_err();
    assert!(matches!(&error, RegistryError::Shape { name, .. } if name == "find_prs"));
    let message = error.to_string();
    assert!(
        message.contains("github has no tool of that name"),
        "{message}"
    );
    assert!(message.contains("'find_pr'"), "{message}");
}

#[test]
fn shaped_names_stay_within_every_providers_rules_or_fail_when_composing() {
    // A prefix that makes a name of 65 characters: refused, naming the length.
    let long_prefix = "p".repeat(58); // + "find_pr" = 65
    let error = ToolRegistry::new()
        .merge(&github(), Shape::new().prefix(long_prefix.as_str()))
        .unwrap_err();
    let message = error.to_string();
    assert!(message.contains("65 characters"), "{message}");
    assert!(
        message.contains("over the 64 every provider accepts"),
        "{message}"
    );
    // A prefix that makes the longest name ("delete_repo") exactly 64 fits, and every API
    // accepts every name.
    let registry = ToolRegistry::new()
        .merge(&github(), Shape::new().prefix("p".repeat(53)))
        .unwrap();
    assert_eq!(registry.len(), 3);
    // A namespace that pushes a name over the limit is refused the same way.
    let error = ToolRegistry::new()
        .merge(
            &github(),
            Shape::new().namespace(ToolNamespace::new("n".repeat(56), "Too long.")),
        )
        .unwrap_err();
    assert!(error.to_string().contains("over the 64"), "{error}");
    // A character some provider refuses.
    let error = ToolRegistry::new()
        .merge(&github(), Shape::new().prefix("gh."))
        .unwrap_err();
    assert!(
        error.to_string().contains("some provider refuses"),
        "{error}"
    );

    let namespaced = tools![search]
        .merge(
            &github(),
            Shape::new().namespace(ToolNamespace::new("github", "GitHub issues and PRs.")),
        )
        .unwrap();
    for registry in [&registry, &namespaced] {
        for def in registry.definitions() {
            for api in Api::ALL {
                assert_eq!(
                    check_definition(*api, def),
                    Vec::<String>::new(),
                    "{api} {}",
                    def.name
                );
            }
        }
    }
}

#[test]
fn shaped_tools_keep_their_settings() {
    let source = github()
        .with_retry("search", RetryPolicy::new(3))
        .with_required_scopes("delete_repo", ["repo:admin"]);
    let registry = tools![search]
        .merge(&source, Shape::new().prefix("gh_"))
        .unwrap();
    assert_eq!(
        registry.retry_policy("gh_search"),
        Some(&RetryPolicy::new(3))
    );
    assert_eq!(registry.required_scopes("gh_delete_repo"), ["repo:admin"]);
    assert_eq!(registry.retry_policy("search"), None);
}

#[test]
fn namespaced_tools_are_qualified_and_dispatch_to_the_original() {
    let crm = ToolNamespace::new("github", "GitHub issues and pull requests.");
    let registry = tools![search]
        .merge(&github(), Shape::new().namespace(crm.clone()).prefix("x_"))
        .unwrap();
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        [
            "search",
            "github__x_search",
            "github__x_find_pr",
            "github__x_delete_repo"
        ]
    );
    let def = registry.definition("github__x_find_pr").unwrap();
    assert_eq!(def.namespace(), Some(&crm));
    assert_eq!(def.local_name(), "x_find_pr");
    assert!(registry.definition("search").unwrap().namespace().is_none());
    assert_eq!(
        answer(&registry, "github__x_find_pr", r#"{"number":3}"#),
        "pr #3"
    );
}

#[test]
fn the_composed_order_and_tool_lists_are_the_same_on_every_build() {
    let build = || {
        tools![search]
            .merge(&github(), Shape::new().prefix("gh_"))
            .unwrap()
            .merge(
                &tools![find_pr],
                Shape::new().namespace(ToolNamespace::new("gl", "GitLab.")),
            )
            .unwrap()
    };
    let (a, b) = (build(), build());
    for format in tool_core::ToolListFormat::ALL {
        assert_eq!(a.tool_list(*format).json(), b.tool_list(*format).json());
    }
    assert_eq!(
        a.names().collect::<Vec<_>>(),
        [
            "search",
            "gh_search",
            "gh_find_pr",
            "gh_delete_repo",
            "gl__find_pr"
        ]
    );
}
