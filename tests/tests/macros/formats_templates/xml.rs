//! The formats that write XML-like tags: Qwen3-Coder, GLM, MiniMax-M2, and Kimi K2's tokens.

use tool_core::parse::ToolFormat;

use serde_json::json;
use tool_core::ToolCall;

use super::{
    assert_rendered, assert_same_but_compact_json, environment, openai_messages_with, ours,
    ours_with, render, render_with,
};

#[test]
fn qwen3_coder_writes_what_its_template_writes() {
    let rendered = render("qwen3coder.jinja");
    let ours = ours(ToolFormat::Qwen3Coder);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered(
        "results",
        &rendered,
        &format!("<|im_start|>user\n{}\n<|im_end|>", ours.results),
    );
    // Deliberately: a type list is written `integer|null` (not Python's list repr), `required`
    // as compact JSON, and the schema keywords the template copies as extra tags are left out;
    // every other line is the template's, in its order.
    let mut lines = rendered.lines();
    for line in ours.tools.lines() {
        if line.starts_with("<type>") || line.starts_with("<required>") {
            continue;
        }
        assert!(
            lines.any(|l| l == line || (line == "</IMPORTANT>" && l.starts_with(line))),
            "tool block line {line:?} is not in the template's rendering, in order\n{rendered}"
        );
    }
}

#[test]
fn glm_writes_what_its_template_writes() {
    let rendered = render("GLM-4.6.jinja");
    let ours = ours(ToolFormat::Glm);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn minimax_writes_what_its_template_writes() {
    let rendered = render("unsloth-MiniMax-M2.jinja");
    let ours = ours(ToolFormat::MiniMax);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered("calls", &rendered, &ours.calls);
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn kimi_k2_writes_what_its_template_writes() {
    let rendered = render("moonshotai-Kimi-K2.jinja");
    let ours = ours(ToolFormat::KimiK2);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
}

#[test]
fn kimi_k2_writes_calls_and_results_as_its_thinking_template_does() {
    // This template writes the call ids as given, so the conversation has Kimi's own ids.
    let calls = vec![
        ToolCall::new(
            "functions.get_weather:0",
            "get_weather",
            r#"{"city": "Paris", "days": 3}"#,
        ),
        ToolCall::new(
            "functions.add:1",
            "add",
            r#"{"values": [1, 2], "scale": 1.5}"#,
        ),
    ];
    let rendered = render_with(
        "moonshotai-Kimi-K2-Thinking.jinja",
        environment(),
        json!({"messages": openai_messages_with(&calls, false)}),
    );
    let ours = ours_with(ToolFormat::KimiK2, calls);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    assert_rendered(
        "calls",
        &rendered,
        &format!("<think></think>{}<|im_end|>", ours.calls),
    );
    // The template writes each result as a tool message of its own; ours puts a turn's
    // results in one message, one after the other on a new line.
    let results: Vec<String> = ours
        .results
        .split("\n## Return of ")
        .enumerate()
        .map(|(k, part)| match k {
            0 => part.to_string(),
            _ => format!("## Return of {part}"),
        })
        .collect();
    assert_eq!(results.len(), 2);
    for result in results {
        assert_rendered(
            "result",
            &rendered,
            &format!("<|im_middle|>{result}<|im_end|>"),
        );
    }
}
