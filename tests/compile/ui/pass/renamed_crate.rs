use ::tool_core as tc;

/// Answers.
#[tc::tool(crate = tc)]
fn answer() -> u8 {
    42
}

fn main() {
    let r = tc::tools![answer];
    assert_eq!(r.call_blocking(&tc::ToolCall::new("1", "answer", "")).model_text(), "42");
}
