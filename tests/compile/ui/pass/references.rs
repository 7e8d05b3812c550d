use tool_core::{tool, tools, ToolCall};

/// Joins borrowed inputs.
#[tool]
fn join(sep: &str, parts: &[String], prefix: Option<&str>, extra: Option<&[i32]>) -> String {
    format!("{}{}{:?}", prefix.unwrap_or(""), parts.join(sep), extra)
}

/// Borrows inside an async tool.
#[tool]
async fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {
    let registry = tools![join, shout];
    let reply = registry.call_blocking(&ToolCall::new("1", "join", r#"{"sep":"-","parts":["a","b"],"extra":[1]}"#));
    assert_eq!(reply.model_text(), "a-bSome([1])");
    let reply = registry.call_blocking(&ToolCall::new("2", "shout", r#"{"text":"hi"}"#));
    assert_eq!(reply.model_text(), "HI");
}
