//! The replies of the models whose template opens `<think>` in the generation prompt, read as
//! the model table says to read them: the reasoning apart, then the calls as the template writes
//! them in the history (the layout the model was trained on), however the reply is cut.

use serde_json::{json, Value};
use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};

use super::{calls, definitions, environment, openai_messages, render, render_with};

/// What `reply`, fed in pieces of `size` bytes, gives when read as the model table says to read
/// `model`'s replies: the reasoning, the text, and the calls (name, arguments).
fn read_as(model: &str, reply: &str, size: usize) -> (String, String, Vec<(String, Value)>) {
    let found = ToolFormat::for_model(model).unwrap();
    let options =
        FormatOptions::for_tools(&definitions()).with_start_in_reasoning(found.starts_in_reasoning);
    let mut parser = FormatParser::with_options(found.format, options);
    let mut events = Vec::new();
    for piece in reply.as_bytes().chunks(size) {
        parser.feed_bytes(piece, &mut events);
    }
    parser.finish(EndReason::Stop, &mut events);
    let (mut reasoning, mut text, mut read) = (String::new(), String::new(), Vec::new());
    for event in events {
        match event {
            Event::Reasoning(t) => reasoning.push_str(t.as_str()),
            Event::Text(t) => text.push_str(t.as_str()),
            Event::CallComplete { call, .. } => read.push((
                call.name.clone(),
                serde_json::from_str(&call.arguments).expect("JSON arguments"),
            )),
            Event::CallError { name, response, .. } => {
                panic!("{name:?} rejected: {}", response.model_text())
            }
            _ => {}
        }
    }
    (reasoning, text, read)
}

/// The conversation's calls as (name, arguments).
fn expected() -> Vec<(String, Value)> {
    calls()
        .iter()
        .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
        .collect()
}

/// The text of `rendered` between the end of `open` and the next `close`.
fn between<'a>(rendered: &'a str, open: &str, close: &str) -> &'a str {
    let start = rendered.find(open).expect("the opening") + open.len();
    let end = start + rendered[start..].find(close).expect("the closing");
    &rendered[start..end]
}

#[test]
fn a_glm_4_7_reply_gives_its_reasoning_and_calls() {
    // After the generation prompt's `<think>`: reasoning, `</think>`, the calls.
    let calls = between(
        &render("GLM-4.7-Flash.jinja"),
        "<|assistant|></think>",
        "<|observation|>",
    )
    .to_string();
    let reply = format!("The user wants two things.</think>{calls}");
    for size in [reply.len(), 1, 2, 7] {
        let (reasoning, text, read) = read_as("zai-org/GLM-4.7", &reply, size);
        assert_eq!(reasoning, "The user wants two things.", "pieces of {size}");
        assert_eq!(text, "", "pieces of {size}");
        assert_eq!(read, expected(), "pieces of {size}");
    }
}

#[test]
fn a_qwen3_thinking_2507_reply_gives_its_reasoning_and_calls() {
    a_qwen_thinking_reply_gives_its_reasoning_and_calls(
        super::qwen3_thinking::TEMPLATE,
        "Qwen/Qwen3-30B-A3B-Thinking-2507",
    );
}

#[test]
fn a_qwq_reply_gives_its_reasoning_and_calls() {
    a_qwen_thinking_reply_gives_its_reasoning_and_calls(super::qwen3_thinking::QWQ, "Qwen/QwQ-32B");
}

/// After a Qwen thinking template's generation prompt `<think>\n`: reasoning,
/// `\n</think>\n\n`, then the calls as `template` writes them, read as the model table says
/// for `model`.
fn a_qwen_thinking_reply_gives_its_reasoning_and_calls(template: &str, model: &str) {
    let calls = between(&render(template), "<|im_start|>assistant\n", "<|im_end|>").to_string();
    assert!(calls.starts_with("<tool_call>"), "{calls}");
    let reply = format!("The user wants two things.\n</think>\n\n{calls}");
    for size in [reply.len(), 1, 3] {
        let (reasoning, text, read) = read_as(model, &reply, size);
        assert_eq!(
            reasoning.trim(),
            "The user wants two things.",
            "pieces of {size}"
        );
        assert_eq!(text.trim(), "", "pieces of {size}");
        assert_eq!(read, expected(), "pieces of {size}");
    }
}

#[test]
fn a_deepseek_r1_reply_gives_its_reasoning_and_calls() {
    // R1's template takes the arguments as JSON text.
    let rendered = render_with(
        super::deepseek_r1::TEMPLATE,
        environment(),
        json!({"messages": openai_messages(true)}),
    );
    let calls = between(&rendered, "<｜Assistant｜>", "<｜end▁of▁sentence｜>").to_string();
    assert!(calls.starts_with("<｜tool▁calls▁begin｜>"), "{calls}");
    let reply = format!("The user wants two things.\n</think>\n\n{calls}");
    for size in [reply.len(), 1, 5] {
        let (reasoning, text, read) =
            read_as("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", &reply, size);
        assert_eq!(
            reasoning.trim(),
            "The user wants two things.",
            "pieces of {size}"
        );
        assert_eq!(text.trim(), "", "pieces of {size}");
        assert_eq!(read, expected(), "pieces of {size}");
    }
}
