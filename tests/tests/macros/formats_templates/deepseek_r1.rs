//! DeepSeek-R1's own template (`deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja`, which R1's
//! distills share with R1): it lists no tools (the R1 tool template in `json.rs` does), writes
//! calls and results as `DeepSeekV3` does, and opens `<think>` after a user's turn.

use serde_json::json;
use tool_core::parse::{ModelFormat, ToolFormat};

use super::{assert_rendered, environment, openai_messages, ours, render_with};

pub(super) const TEMPLATE: &str = "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja";

#[test]
fn deepseek_v3_writes_calls_and_results_as_r1s_template_does() {
    // The template concatenates the arguments, so it is given them as JSON text.
    let rendered = render_with(
        TEMPLATE,
        environment(),
        json!({"messages": openai_messages(true)}),
    );
    let ours = ours(ToolFormat::DeepSeekV3);
    assert_rendered(
        "calls",
        &rendered,
        &format!("<｜Assistant｜>{}<｜end▁of▁sentence｜>", ours.calls),
    );
    assert_rendered("results", &rendered, &ours.results);
}

#[test]
fn r1s_template_opens_think_after_a_user_turn_and_the_model_table_says_so() {
    let asked = render_with(
        TEMPLATE,
        environment(),
        json!({"messages": openai_messages(true)[..2]}),
    );
    assert!(
        asked.ends_with(
            "<｜User｜>Weather in Paris, and 1 + 2 scaled by 1.5?<｜Assistant｜><think>\n"
        ),
        "{asked}"
    );
    // The distills are named after the model they were distilled into, but have R1's template.
    for name in [
        "deepseek-ai/DeepSeek-R1",
        "deepseek-ai/DeepSeek-R1-0528",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        "deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
        "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B",
        "deepseek-r1:32b",
        "DeepSeek-R1-Distill-Qwen-32B-Q4_K_M.gguf",
        "hf.co/unsloth/DeepSeek-R1-0528-Qwen3-8B-GGUF:Q4_K_XL",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::DeepSeekV3, true)),
            "{name}"
        );
    }
    // After the tools' outputs the template closes them and opens no assistant turn and no
    // `<think>`: the table's answer is the one for a reply to a user's turn.
    let answered = render_with(
        TEMPLATE,
        environment(),
        json!({"messages": openai_messages(true)}),
    );
    assert!(
        answered.ends_with("<｜tool▁output▁end｜><｜tool▁outputs▁end｜>"),
        "{answered}"
    );
}
