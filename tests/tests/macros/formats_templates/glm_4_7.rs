//! GLM-4.7's template (`GLM-4.7-Flash.jinja`): the same tool list as GLM-4.5/4.6, but calls and
//! results written with no newline between the tags, and a generation prompt that opens
//! `<think>`. The `Glm` format writes GLM-4.5/4.6's layout and reads both.

use tool_core::parse::{ModelFormat, ToolFormat};

use super::{assert_rendered, assert_same_but_compact_json, ours, render};

/// `text` without the newlines next to a tag (right after a `>` or right before a `<`): GLM-4.5
/// and 4.6's layout written as GLM-4.7's template writes it.
fn tight(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next_is_tag = chars.peek() == Some(&'<');
        if c == '\n' && (out.ends_with('>') || next_is_tag) {
            continue;
        }
        out.push(c);
    }
    out
}

#[test]
fn glm_writes_what_glm_4_7s_template_writes_but_the_newlines_between_tags() {
    let rendered = render("GLM-4.7-Flash.jinja");
    let ours = ours(ToolFormat::Glm);
    // The tool list is the same as GLM-4.6's (compact JSON, `<` and `>` escaped); the format
    // example after it is GLM-4.6's, one tag per line, which GLM-4.7's writes on one line.
    let (list, example) = ours
        .tools
        .split_once("XML format:\n")
        .expect("the format example");
    assert!(example.contains("\n<arg_key>"), "{example}");
    assert_same_but_compact_json(
        "tool block",
        &rendered,
        &format!("{list}XML format:\n{}", tight(example)),
    );
    // Calls: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`, each
    // after the last, right after the empty reasoning the template closes.
    assert!(
        ours.calls.contains("get_weather\n<arg_key>"),
        "{}",
        ours.calls
    );
    assert_rendered(
        "calls",
        &rendered,
        &format!("<|assistant|></think>{}<|observation|>", tight(&ours.calls)),
    );
    // Results: `<tool_response>TEXT</tool_response>` for each, in one observation.
    assert!(
        ours.results.contains("<tool_response>\n"),
        "{}",
        ours.results
    );
    assert_rendered(
        "results",
        &rendered,
        &format!("<|observation|>{}<|assistant|>", tight(&ours.results)),
    );
}

#[test]
fn glm_4_7s_template_opens_think_and_the_model_table_says_so() {
    let rendered = render("GLM-4.7-Flash.jinja");
    assert!(rendered.ends_with("<|assistant|><think>"), "{rendered}");
    for name in [
        "zai-org/GLM-4.7",
        "zai-org/GLM-4.7-FP8",
        "zai-org/GLM-4.7-Flash",
        "glm-4.7-flash:q4_K_M",
        "GLM-4.7-Flash-Q4_K_M.gguf",
        "hf.co/unsloth/GLM-4.7-Flash-GGUF:Q4_K_M",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::Glm, true)),
            "{name}"
        );
    }
    // GLM-4.6's generation prompt leaves reasoning to the model (it opens no `<think>`).
    let rendered = render("GLM-4.6.jinja");
    assert!(rendered.ends_with("<|assistant|>"), "{rendered}");
    assert_eq!(
        ToolFormat::for_model("zai-org/GLM-4.6"),
        Ok(ModelFormat::new(ToolFormat::Glm, false))
    );
}
