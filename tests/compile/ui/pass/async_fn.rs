use tool_core::{tool, tools, ToolCall};

/// Doubles a number later.
#[tool]
async fn double(x: i64) -> i64 {
    std::future::ready(()).await;
    x * 2
}

fn main() {
    let reply = tools![double].call_blocking(&ToolCall::new("1", "double", r#"{"x":21}"#));
    assert_eq!(reply.model_text(), "42");
}
