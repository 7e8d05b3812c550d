//! Parameters the dispatcher fills from the call's context: they reach the function, and they
//! never appear in a definition or in any provider's dialect.

use std::sync::Arc;

use tool_core::provider::{gemini, mcp, Anthropic, ChatApi, Gemini, OpenAiChat, OpenAiResponses};
use tool_core::{
    tool, toolbox, tools, CallContext, CallId, CancelFlag, Extension, Tool, ToolCall, ToolContext,
    ToolErrorCode, ToolHandler, ToolRegistry,
};

#[derive(Clone)]
struct User(String);

#[derive(Clone)]
struct Db(Arc<Vec<&'static str>>);

/// Looks up a record for the signed-in user.
#[tool]
async fn lookup(
    /// Record id.
    id: u32,
    user: Extension<User>,
    db: Extension<Db>,
    call: CallId,
    ctx: ToolContext<'_>,
    cancel: CancelFlag,
    maybe_missing: Option<Extension<u64>>,
) -> String {
    format!(
        "{} asked {} for #{id}: {} (tool {}, cancelled {}, extra {:?})",
        user.0 .0,
        call.0,
        db.0 .0.get(id as usize).copied().unwrap_or("none"),
        ctx.tool_name(),
        cancel.is_cancelled(),
        maybe_missing.map(|e| e.0)
    )
}

struct Session;

#[toolbox]
impl Session {
    /// Who is calling.
    #[tool]
    fn whoami(&self, user: Extension<User>, verbose: bool) -> String {
        if verbose {
            format!("You are {}.", user.0 .0)
        } else {
            user.0 .0
        }
    }
}

/// Echoes with the caller's name.
#[derive(Tool)]
struct Echo {
    text: String,
    user: Extension<User>,
}

impl ToolHandler for Echo {
    type Output = String;
    async fn run(self, _ctx: ToolContext<'_>) -> String {
        format!("{}: {}", self.user.0 .0, self.text)
    }
}

fn registry() -> ToolRegistry {
    tools![lookup, Echo]
        .with_all(Arc::new(Session))
        .with_extension(Db(Arc::new(vec!["zero", "one", "two"])))
}

const INJECTED: [&str; 6] = ["user", "db", "call", "ctx", "cancel", "maybe_missing"];

#[test]
fn context_reaches_the_function() {
    let flag = CancelFlag::new();
    flag.cancel();
    let ctx = CallContext::new()
        .with_extension(User("ada".into()))
        .with_cancel(flag);
    let reply = tool_core::block_on(
        registry().call_in(&ToolCall::new("call_9", "lookup", r#"{"id": 2}"#), &ctx),
    );
    assert_eq!(
        reply.model_text(),
        "ada asked call_9 for #2: two (tool lookup, cancelled true, extra None)"
    );
}

#[test]
fn call_extensions_come_before_registry_extensions() {
    let registry = registry().with_extension(User("registry".into()));
    let call = ToolCall::new("1", "whoami", r#"{"verbose": false}"#);
    assert_eq!(registry.call_blocking(&call).model_text(), "registry");
    let ctx = CallContext::new().with_extension(User("per-call".into()));
    assert_eq!(
        tool_core::block_on(registry.call_in(&call, &ctx)).model_text(),
        "per-call"
    );
}

#[test]
fn missing_extension_is_a_server_side_error_not_an_argument_error() {
    let reply = registry().call_blocking(&ToolCall::new("1", "echo", r#"{"text": "hi"}"#));
    assert_eq!(reply.error_code(), Some(ToolErrorCode::ExecutionError));
    let message = reply.error_message().unwrap();
    assert!(message.contains("did not provide"), "{message}");
    assert!(message.contains("User"), "{message}");
}

#[test]
fn a_model_cannot_supply_an_injected_parameter() {
    let ctx = CallContext::new().with_extension(User("ada".into()));
    let reply = tool_core::block_on(registry().call_in(
        &ToolCall::new("1", "echo", r#"{"text": "hi", "user": "mallory"}"#),
        &ctx,
    ));
    assert_eq!(reply.error_code(), Some(ToolErrorCode::InvalidParam));
    assert!(reply
        .error_message()
        .unwrap()
        .contains("unknown parameter 'user'"));
}

#[test]
fn injected_parameters_never_appear_in_definitions_dialects_or_the_prompt() {
    let registry = registry();
    let defs = registry.definitions();
    let rendered = [
        serde_json::to_string(defs).unwrap(),
        OpenAiChat::tools(defs).to_string(),
        OpenAiResponses::tools(defs).to_string(),
        Anthropic::tools(defs).to_string(),
        Gemini::tools(defs).to_string(),
        gemini::tools_json_schema(defs).to_string(),
        mcp::tools(defs).to_string(),
        registry.tools_prompt().to_string(),
    ];
    for (i, text) in rendered.iter().enumerate() {
        for name in INJECTED {
            assert!(
                !text.contains(&format!("\"{name}\"")),
                "dialect #{i} mentions injected `{name}`: {text}"
            );
        }
        // The parameters the model does send are there.
        assert!(
            text.contains("\"id\"") && text.contains("\"verbose\"") && text.contains("\"text\""),
            "dialect #{i}"
        );
    }
}

#[test]
fn tool_set_tools_share_one_instance() {
    let session = Arc::new(Session);
    let registry = ToolRegistry::new().with_all(Arc::clone(&session));
    assert_eq!(
        Arc::strong_count(&session),
        2,
        "the registry holds one clone per tool"
    );
    drop(registry);
    assert_eq!(Arc::strong_count(&session), 1);
}
