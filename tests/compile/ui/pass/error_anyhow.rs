// A tool may return `anyhow::Result`: the model reads the whole context chain, and a
// `ToolError` anywhere in the chain picks the code.
use anyhow::Context as _;
use tool_core::{tool, tools, ToolCall, ToolError, ToolErrorCode, ToolStatus};

/// Reads the configuration.
#[tool]
fn read_config(path: String) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(&path).context("reading config")?;
    Ok(text)
}

/// Looks a user up.
#[tool]
async fn find_user(id: u64) -> anyhow::Result<String> {
    std::future::ready(()).await;
    let profile: String =
        Err(ToolError::not_found(format!("no user {id}"))).context("loading the profile")?;
    Ok(profile)
}

/// Always busy.
#[tool]
fn busy() -> Result<(), anyhow::Error> {
    anyhow::bail!("the queue is full")
}

fn main() {
    let r = tools![read_config, find_user, busy];
    let call = |name: &str, args: &str| r.call_blocking(&ToolCall::new("1", name, args));

    let missing = call("read_config", r#"{"path":"/definitely/not/here.toml"}"#);
    assert_eq!(missing.status, ToolStatus::Error);
    assert_eq!(missing.error_code(), Some(ToolErrorCode::ExecutionError));
    let text = missing.model_text();
    assert!(
        text.starts_with("Error [EXECUTION_ERROR]: reading config: No such file or directory"),
        "{text}"
    );

    let user = call("find_user", r#"{"id":7}"#);
    assert_eq!(user.status, ToolStatus::Error);
    assert_eq!(user.error_code(), Some(ToolErrorCode::NotFound));
    assert_eq!(user.model_text(), "Error [NOT_FOUND]: loading the profile: no user 7");

    let busy = call("busy", "{}");
    assert_eq!(busy.error_code(), Some(ToolErrorCode::ExecutionError));
    assert_eq!(busy.model_text(), "Error [EXECUTION_ERROR]: the queue is full");
}
