//! The formats that write XML-like tags: Qwen3-Coder, GLM, MiniMax-M2, and Kimi K2's tokens.

use tool_core::parse::ToolFormat;

use super::{assert_rendered, assert_same_but_compact_json, ours, render};

#[test]
fn qwen3_coder_writes_what_its_template_writes() {
    let rendered = render("qwen3coder.jinja");
    let ours = ours(ToolFormat::QwenXml);
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
