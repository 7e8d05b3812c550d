//! llama.cpp's GLM-4.5 template (`glm_4_5.jinja`, llama.cpp's rework of GLM-4.5's): GLM-4.6's
//! tool block and results, and calls with a newline only between `</arg_key>` and `<arg_value>`.

use tool_core::parse::{ModelFormat, ToolFormat};

use super::{assert_rendered, assert_same_but_compact_json, ours, render};

#[test]
fn glm_writes_what_llama_cpps_glm_4_5_template_writes_but_two_newlines() {
    let rendered = render("glm_4_5.jinja");
    let ours = ours(ToolFormat::Glm);
    assert_same_but_compact_json("tool block", &rendered, &ours.tools);
    // Ours (GLM-4.6's layout) has a newline after the name and after each `</arg_value>`;
    // this template writes neither.
    assert!(
        ours.calls.contains("get_weather\n<arg_key>"),
        "{}",
        ours.calls
    );
    assert!(
        ours.calls.contains("</arg_value>\n</tool_call>"),
        "{}",
        ours.calls
    );
    let layout = ours
        .calls
        .replace("\n<arg_key>", "<arg_key>")
        .replace("\n</tool_call>", "</tool_call>");
    assert_rendered(
        "calls",
        &rendered,
        &format!("<|assistant|>\n<think></think>\n{layout}<|observation|>"),
    );
    assert_rendered(
        "results",
        &rendered,
        &format!("<|observation|>\n{}<|assistant|>", ours.results),
    );
    // Its generation prompt opens no `<think>`, as the model table says.
    assert!(rendered.ends_with("<|assistant|>"), "{rendered}");
    for name in [
        "zai-org/GLM-4.5",
        "zai-org/GLM-4.5-Air",
        "glm-4.5-air:q4_K_M",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::Glm, false)),
            "{name}"
        );
    }
}
