//! The model table against every template here: a model's replies start in reasoning exactly
//! when its template's generation prompt opens `<think>`, and the table gives the format whose
//! writing the template was compared with.

use serde_json::json;
use tool_core::parse::{ModelFormat, ToolFormat};

use super::{dated_environment, openai_messages, render_with};

/// Each template here, a name its model is served under, and the format compared with it.
const CHECKED: &[(&str, &str, ToolFormat)] = &[
    ("Qwen-Qwen3-0.6B.jinja", "Qwen/Qwen3-8B", ToolFormat::Hermes),
    (
        "unsloth-Qwen3-Thinking-2507.jinja",
        "Qwen/Qwen3-30B-A3B-Thinking-2507",
        ToolFormat::Hermes,
    ),
    ("Qwen-QwQ-32B.jinja", "Qwen/QwQ-32B", ToolFormat::Hermes),
    (
        "qwen3coder.jinja",
        "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        ToolFormat::Qwen3Coder,
    ),
    ("glm_4_5.jinja", "zai-org/GLM-4.5", ToolFormat::Glm),
    ("GLM-4.6.jinja", "zai-org/GLM-4.6", ToolFormat::Glm),
    (
        "GLM-4.7-Flash.jinja",
        "zai-org/GLM-4.7-Flash",
        ToolFormat::Glm,
    ),
    (
        "unsloth-MiniMax-M2.jinja",
        "MiniMaxAI/MiniMax-M2",
        ToolFormat::MiniMax,
    ),
    (
        "moonshotai-Kimi-K2.jinja",
        "moonshotai/Kimi-K2-Instruct",
        ToolFormat::KimiK2,
    ),
    (
        "moonshotai-Kimi-K2-Thinking.jinja",
        "moonshotai/Kimi-K2-Thinking",
        ToolFormat::KimiK2,
    ),
    (
        "openai-gpt-oss-120b.jinja",
        "openai/gpt-oss-120b",
        ToolFormat::Harmony,
    ),
    (
        "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja",
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        ToolFormat::Mistral,
    ),
    (
        "tool_chat_template_llama3.1_json.jinja",
        "meta-llama/Llama-3.1-8B-Instruct",
        ToolFormat::Llama,
    ),
    (
        "tool_chat_template_llama4_pythonic.jinja",
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        ToolFormat::Pythonic,
    ),
    (
        "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
        ToolFormat::DeepSeekV3,
    ),
    (
        "deepseek-ai-DeepSeek-V3.1.jinja",
        "deepseek-ai/DeepSeek-V3.1",
        ToolFormat::DeepSeekV31,
    ),
];

#[test]
fn the_model_table_starts_in_reasoning_exactly_where_the_template_opens_think() {
    for &(template, model, format) in CHECKED {
        // A user's question, so that every template ends with its generation prompt (some
        // take one call per turn, or none).
        let asked = render_with(
            template,
            dated_environment(),
            json!({"messages": openai_messages(true)[..2]}),
        );
        let opens = asked.trim_end().ends_with("<think>");
        assert_eq!(
            ToolFormat::for_model(model),
            Ok(ModelFormat::new(format, opens)),
            "{model} ({template}) ends its prompt with {:?}",
            asked
                .get(asked.len().saturating_sub(40)..)
                .unwrap_or(&asked)
        );
    }
}
