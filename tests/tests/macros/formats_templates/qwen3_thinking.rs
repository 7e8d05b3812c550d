//! The Qwen templates that open `<think>` in the generation prompt, so that a reply starts
//! inside reasoning: Qwen3 *-Thinking-2507's (`unsloth-Qwen3-Thinking-2507.jinja`) and QwQ's
//! (`Qwen-QwQ-32B.jinja`). Both write Qwen3's tool block, calls and results.

use tool_core::parse::{ModelFormat, ToolFormat};

use super::json::hermes_writes_what_the_qwen_template_writes;
use super::render;

pub(super) const TEMPLATE: &str = "unsloth-Qwen3-Thinking-2507.jinja";

#[test]
fn hermes_writes_what_qwen3_thinking_2507s_template_writes() {
    hermes_writes_what_the_qwen_template_writes(TEMPLATE);
}

#[test]
fn qwen3_thinking_2507s_template_opens_think_and_the_model_table_says_so() {
    let rendered = render(TEMPLATE);
    assert!(
        rendered.ends_with("<|im_start|>assistant\n<think>\n"),
        "{rendered}"
    );
    // As vLLM and sglang (the repository's name), Ollama (a tag of `qwen3`) and llama.cpp (a
    // GGUF file) name the Thinking-2507 models.
    for name in [
        "Qwen/Qwen3-235B-A22B-Thinking-2507",
        "Qwen/Qwen3-235B-A22B-Thinking-2507-FP8",
        "Qwen/Qwen3-30B-A3B-Thinking-2507",
        "Qwen/Qwen3-4B-Thinking-2507",
        "qwen3:30b-a3b-thinking-2507-q4_K_M",
        "qwen3:235b-a22b-thinking-2507-q4_K_M",
        "qwen3:4b-thinking-2507-q4_K_M",
        "Qwen3-30B-A3B-Thinking-2507-Q4_K_M.gguf",
        "hf.co/unsloth/Qwen3-30B-A3B-Thinking-2507-GGUF:Q4_K_M",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::Hermes, true)),
            "{name}"
        );
    }
    // The hybrid Qwen3 template (and the Instruct-2507 models, which do not think) leave the
    // generation prompt open.
    assert!(render("Qwen-Qwen3-0.6B.jinja").ends_with("<|im_start|>assistant\n"));
    for name in [
        "Qwen/Qwen3-0.6B",
        "qwen3:8b",
        "Qwen/Qwen3-30B-A3B-Instruct-2507",
        "qwen3:30b-a3b-instruct-2507-q4_K_M",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::Hermes, false)),
            "{name}"
        );
    }
}

pub(super) const QWQ: &str = "Qwen-QwQ-32B.jinja";

#[test]
fn hermes_writes_what_qwqs_template_writes() {
    hermes_writes_what_the_qwen_template_writes(QWQ);
}

#[test]
fn qwqs_template_opens_think_and_the_model_table_says_so() {
    let rendered = render(QWQ);
    assert!(
        rendered.ends_with("<|im_start|>assistant\n<think>\n"),
        "{rendered}"
    );
    for name in [
        "Qwen/QwQ-32B",
        "Qwen/QwQ-32B-AWQ",
        "qwq:32b",
        "qwq",
        "QwQ-32B-Q4_K_M.gguf",
    ] {
        assert_eq!(
            ToolFormat::for_model(name),
            Ok(ModelFormat::new(ToolFormat::Hermes, true)),
            "{name}"
        );
    }
}
