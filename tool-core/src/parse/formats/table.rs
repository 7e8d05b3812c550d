//! The one table of text formats: each [`ToolFormat`] with its implementation. A new format
//! is a folder beside this file, a variant and a row here, and its parser's variant in
//! `any_parser.rs` (an enum rather than a trait object, so that parsing stays static).

use super::deepseek::{DeepSeekV3, DeepSeekV31, DeepSeekV32, DeepSeekV4};
use super::glm::Glm;
use super::harmony::Harmony;
use super::hermes::Hermes;
use super::kimi::Kimi;
use super::llama::Llama;
use super::minimax::MiniMax;
use super::mistral::Mistral;
use super::pythonic::Pythonic;
use super::qwen3_coder::Qwen3Coder;
use super::spec::TextFormat;
use super::use_tool::UseTool;

/// A tool-call text format: how a model family writes calls in its reply.
///
/// ```
/// use tool_core::parse::ToolFormat;
/// assert_eq!(ToolFormat::ALL.len(), 14);
/// assert_eq!(ToolFormat::Qwen3Coder.name(), "qwen3_coder");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolFormat {
    /// `<use_tool>` (this crate's XML prompt format).
    UseTool,
    /// Hermes / Qwen2.5 / Qwen3: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.
    Hermes,
    /// Qwen3-Coder: `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>`.
    Qwen3Coder,
    /// Mistral: `[TOOL_CALLS] [{...}]` or `[TOOL_CALLS]NAME[ARGS]{...}`.
    Mistral,
    /// gpt-oss harmony: `<|channel|>commentary to=functions.NAME ...<|message|>{...}<|call|>`.
    Harmony,
    /// GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>`.
    Glm,
    /// MiniMax-M2: `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>`.
    MiniMax,
    /// Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>`.
    KimiK2,
    /// DeepSeek V3, R1, R1-0528: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`
    /// and the arguments in a ```` ```json ```` fence (V3.1's form is read too).
    DeepSeekV3,
    /// DeepSeek V3.1, V3.2-Exp: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}`
    /// (V3's form is read too).
    DeepSeekV31,
    /// Llama 3.1 / 3.2 / 3.3: `{"name": NAME, "parameters": {...}}` (after `<|python_tag|>` or
    /// not), several calls joined by `;`.
    Llama,
    /// Pythonic (Llama 4, and models prompted that way): `[get_weather(city="Paris"), add(a=1, b=2)]`.
    Pythonic,
    /// DeepSeek V3.2: DSML, `<｜DSML｜function_calls><｜DSML｜invoke name="NAME">` with
    /// `<｜DSML｜parameter name="KEY" string="true|false">VALUE</｜DSML｜parameter>`.
    DeepSeekV32,
    /// DeepSeek V4: DSML as in V3.2, in a `<｜DSML｜tool_calls>` block.
    DeepSeekV4,
}

impl ToolFormat {
    /// Every format, in the order [`detect`](Self::detect) prefers them on a tie.
    ///
    /// ```
    /// assert!(tool_core::parse::ToolFormat::ALL.contains(&tool_core::parse::ToolFormat::Hermes));
    /// ```
    pub const ALL: &'static [ToolFormat] = &[
        ToolFormat::UseTool,
        ToolFormat::Hermes,
        ToolFormat::Qwen3Coder,
        ToolFormat::Mistral,
        ToolFormat::Harmony,
        ToolFormat::Glm,
        ToolFormat::MiniMax,
        ToolFormat::KimiK2,
        ToolFormat::DeepSeekV31,
        ToolFormat::DeepSeekV3,
        ToolFormat::Llama,
        ToolFormat::Pythonic,
        ToolFormat::DeepSeekV32,
        ToolFormat::DeepSeekV4,
    ];

    /// The format's implementation.
    pub(crate) fn spec(self) -> &'static dyn TextFormat {
        match self {
            ToolFormat::UseTool => &UseTool,
            ToolFormat::Hermes => &Hermes,
            ToolFormat::Qwen3Coder => &Qwen3Coder,
            ToolFormat::Mistral => &Mistral,
            ToolFormat::Harmony => &Harmony,
            ToolFormat::Glm => &Glm,
            ToolFormat::MiniMax => &MiniMax,
            ToolFormat::KimiK2 => &Kimi,
            ToolFormat::DeepSeekV3 => &DeepSeekV3,
            ToolFormat::DeepSeekV31 => &DeepSeekV31,
            ToolFormat::Llama => &Llama,
            ToolFormat::Pythonic => &Pythonic,
            ToolFormat::DeepSeekV32 => &DeepSeekV32,
            ToolFormat::DeepSeekV4 => &DeepSeekV4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_passes_on_what_the_model_wrote_as_arguments() {
        let cases = [
            (
                ToolFormat::UseTool,
                "<use_tool><tool_name>a</tool_name><arguments> [1, 2] </arguments></use_tool>",
                "[1, 2]",
            ),
            (
                ToolFormat::UseTool,
                "<use_tool><tool_name>a</tool_name><arguments>{\"x\":",
                "{\"x\":",
            ),
            (
                ToolFormat::UseTool,
                "<use_tool>junk</use_tool>",
                "<use_tool>junk</use_tool>",
            ),
            (
                ToolFormat::Hermes,
                "<tool_call>\n{\"name\": \"a\", \"arguments\": [1]}\n</tool_call>",
                "[1]",
            ),
            (
                ToolFormat::Hermes,
                "<tool_call>\n{\"name\": \"a\", \"arguments\": {\"x\": }\n</tool_call>",
                "{\"name\": \"a\", \"arguments\": {\"x\": }",
            ),
            (
                ToolFormat::Mistral,
                "[TOOL_CALLS]nope[ARGS]{\"q\": 1}",
                "{\"q\": 1}",
            ),
            (
                ToolFormat::Mistral,
                "[TOOL_CALLS] [{\"name\": \"nope\", \"arguments\": {\"q\": 1}}]",
                "{\"q\":1}",
            ),
            (
                ToolFormat::Qwen3Coder,
                "<tool_call>\n<function=calc>\n<parameter=n>\nfive\n</parameter>\n<parameter=s>\n two \n</function>\n</tool_call>",
                "{\"n\":\"five\",\"s\":\" two \"}",
            ),
            (
                ToolFormat::Harmony,
                "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>[1, 2]<|call|>",
                "[1, 2]",
            ),
            (
                ToolFormat::Llama,
                "{\"name\": \"a\", \"parameters\": {\"x\": 1}}",
                "{\"x\":1}",
            ),
            (
                ToolFormat::Pythonic,
                "[get_weather(city=paris, days=2),",
                "city=paris, days=2",
            ),
        ];
        for (format, block, expected) in cases {
            assert_eq!(
                format.spec().raw_arguments(block),
                expected,
                "{format:?}: {block}"
            );
        }
    }
}
