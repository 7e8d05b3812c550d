//! Scoping and approval: a registered tool that was not offered this turn answers
//! PERMISSION_DENIED without running; destructive tools go through the approval hook.

use tool_core::{
    block_on, Approval, CallOptions, ToolCall, ToolDefinition, ToolErrorCode, ToolRegistry,
    ToolResponse,
};
use tool_tests::Scripted;

fn setup() -> (Scripted, Scripted, ToolRegistry) {
    let search = Scripted::new("search");
    let delete = Scripted::new("delete_file").destructive();
    let registry = ToolRegistry::new()
        .with(search.clone())
        .with(delete.clone());
    (search, delete, registry)
}

fn call_with(registry: &ToolRegistry, name: &str, args: &str, o: &CallOptions) -> ToolResponse {
    block_on(registry.call_with(&ToolCall::new("c1", name, args), o))
}

#[test]
fn a_tool_not_offered_this_turn_is_permission_denied_and_never_runs() {
    let (_, delete, registry) = setup();
    let options = CallOptions::new().offer(&["search"]);
    let r = call_with(&registry, "delete_file", "{}", &options);
    assert_eq!(r.error_code(), Some(ToolErrorCode::PermissionDenied));
    let msg = r.error_message().unwrap();
    assert!(
        msg.contains("'delete_file' is not available in this turn"),
        "{msg}"
    );
    assert!(msg.contains("Available tools: 'search'"), "{msg}");
    assert_eq!(delete.runs(), 0);
}

#[test]
fn an_offered_tool_runs() {
    let (search, _, registry) = setup();
    let options = CallOptions::new().offer(&["search"]);
    assert_eq!(
        call_with(&registry, "search", "{}", &options).model_text(),
        "ok c1"
    );
    assert_eq!(search.runs(), 1);
}

#[test]
fn an_empty_offer_denies_everything() {
    let (search, _, registry) = setup();
    let r = call_with(&registry, "search", "{}", &CallOptions::new().offer(&[]));
    assert_eq!(r.error_code(), Some(ToolErrorCode::PermissionDenied));
    assert!(r
        .error_message()
        .unwrap()
        .contains("No tools are available"));
    assert_eq!(search.runs(), 0);
}

#[test]
fn unknown_names_list_only_the_offered_tools() {
    let (_, _, registry) = setup();
    let options = CallOptions::new().offer(&["search"]);
    let r = call_with(&registry, "serch", "{}", &options);
    assert_eq!(r.error_code(), Some(ToolErrorCode::NotFound));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("Did you mean 'search'?"), "{msg}");
    assert!(
        !msg.contains("delete_file"),
        "unoffered tools stay hidden: {msg}"
    );
}

#[test]
fn a_denied_destructive_call_is_permission_denied_with_the_reason() {
    let (_, delete, registry) = setup();
    let registry = registry.with_approval_hook(|_: &ToolCall, _: &ToolDefinition| {
        Approval::Denied("the user declined".into())
    });
    let r = registry.call_blocking(&ToolCall::new("1", "delete_file", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::PermissionDenied));
    let msg = r.error_message().unwrap();
    assert!(msg.contains("was not approved: the user declined"), "{msg}");
    assert_eq!(delete.runs(), 0);
}

#[test]
fn an_approved_destructive_call_runs() {
    let (_, delete, registry) = setup();
    let registry = registry.with_approval_hook(|call: &ToolCall, def: &ToolDefinition| {
        assert_eq!(call.name, def.name);
        Approval::Approved
    });
    assert!(registry
        .call_blocking(&ToolCall::new("1", "delete_file", "{}"))
        .is_success());
    assert_eq!(delete.runs(), 1);
}

#[test]
fn the_hook_never_sees_tools_that_are_not_destructive() {
    let (search, _, registry) = setup();
    let registry = registry.with_approval_hook(|_: &ToolCall, _: &ToolDefinition| {
        Approval::Denied("everything".into())
    });
    assert!(registry
        .call_blocking(&ToolCall::new("1", "search", "{}"))
        .is_success());
    assert_eq!(search.runs(), 1);
}

#[test]
fn a_per_request_hook_overrides_the_registry_hook() {
    let (_, delete, registry) = setup();
    let registry =
        registry.with_approval_hook(|_: &ToolCall, _: &ToolDefinition| Approval::Approved);
    let read_only = |_: &ToolCall, _: &ToolDefinition| Approval::Denied("read-only session".into());
    let options = CallOptions::new().approval(&read_only);
    let r = call_with(&registry, "delete_file", "{}", &options);
    assert!(r.error_message().unwrap().contains("read-only session"));
    assert_eq!(delete.runs(), 0);
}

#[test]
fn a_panicking_hook_denies() {
    crate::quiet_panics::quiet_panics();
    let (_, delete, registry) = setup();
    let registry = registry
        .with_approval_hook(|_: &ToolCall, _: &ToolDefinition| -> Approval { panic!("hook bug") });
    let r = registry.call_blocking(&ToolCall::new("1", "delete_file", "{}"));
    assert_eq!(r.error_code(), Some(ToolErrorCode::PermissionDenied));
    assert!(r
        .error_message()
        .unwrap()
        .contains("the approval step failed"));
    assert_eq!(delete.runs(), 0);
}

#[test]
fn scope_is_checked_before_approval() {
    let (_, _, registry) = setup();
    let registry = registry.with_approval_hook(|_: &ToolCall, _: &ToolDefinition| -> Approval {
        unreachable!("an unoffered call must not reach the hook")
    });
    let r = call_with(
        &registry,
        "delete_file",
        "{}",
        &CallOptions::new().offer(&["search"]),
    );
    assert!(r
        .error_message()
        .unwrap()
        .contains("not available in this turn"));
}
