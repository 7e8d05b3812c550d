//! Which format a model writes, from its name as vLLM, sglang, Ollama or llama.cpp serve it
//! (`Qwen/Qwen3-8B`, `qwen3:8b`, `Qwen3-8B-Q4_K_M.gguf`), and whether its chat template opens
//! `<think>` in the generation prompt (so the reply starts inside it).

use std::fmt;

use super::table::ToolFormat;

/// What a model name says about its replies: the format and whether they start in reasoning.
///
/// ```
/// use tool_core::parse::{ModelFormat, ToolFormat};
/// let found = ToolFormat::for_model("MiniMaxAI/MiniMax-M2").unwrap();
/// assert_eq!(found, ModelFormat::new(ToolFormat::MiniMax, true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModelFormat {
    /// The tool-call format of its replies.
    pub format: ToolFormat,
    /// Whether its chat template opens `<think>` in the generation prompt: set
    /// [`FormatOptions::start_in_reasoning`](super::FormatOptions::start_in_reasoning).
    pub starts_in_reasoning: bool,
}

impl ModelFormat {
    /// A format, and whether replies start inside a `<think>` the template opened.
    ///
    /// ```
    /// use tool_core::parse::{ModelFormat, ToolFormat};
    /// assert!(!ModelFormat::new(ToolFormat::Hermes, false).starts_in_reasoning);
    /// ```
    pub fn new(format: ToolFormat, starts_in_reasoning: bool) -> Self {
        ModelFormat {
            format,
            starts_in_reasoning,
        }
    }
}

/// A model name that matches no family of the table; [`Display`](fmt::Display) lists them.
///
/// ```
/// use tool_core::parse::ToolFormat;
/// let error = ToolFormat::for_model("my-own-model").unwrap_err();
/// assert_eq!(error.name(), "my-own-model");
/// assert!(error.to_string().contains("qwen3"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownModel {
    name: String,
}

impl UnknownModel {
    /// The name as given.
    ///
    /// ```
    /// assert_eq!(tool_core::parse::ToolFormat::for_model("x").unwrap_err().name(), "x");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UnknownModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no tool-call format is known for the model {:?}; known families:",
            self.name
        )?;
        for (i, (family, also, format, _)) in FAMILIES.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let also = if also.is_empty() {
                String::new()
            } else {
                format!("...{also}")
            };
            write!(f, "{sep}{family}{also} ({})", format.name())?;
        }
        write!(f, ". Name the format instead (ToolFormat::Hermes, ...).")
    }
}

impl std::error::Error for UnknownModel {}

/// Families by what the key of their names holds (lower case, without `-`, `_` and spaces;
/// a second part, when given, must be there too, in the name or its Ollama tag), most
/// specific first: the format, and whether the template opens `<think>` in the generation
/// prompt. The templates each row was checked against are listed in `docs/formats.md`.
const FAMILIES: &[(&str, &str, ToolFormat, bool)] = &[
    // DeepSeek: V3.2-Exp writes V3.1's calls, V3.2 (and V3.2-Speciale) and V4 write DSML;
    // R1's templates (R1-0528, and R1's later revisions) open `<think>`. The hybrid models'
    // encoders open it only in thinking mode, which the request chooses. First, as R1's
    // distills name the model they were distilled into (DeepSeek-R1-Distill-Qwen-32B,
    // DeepSeek-R1-0528-Qwen3-8B) but have R1's template.
    ("deepseekv3.2exp", "", ToolFormat::DeepSeekV31, false),
    ("deepseekv3.2", "", ToolFormat::DeepSeekV32, false),
    ("deepseekv4", "", ToolFormat::DeepSeekV4, false),
    ("deepseekv3.1", "", ToolFormat::DeepSeekV31, false),
    ("deepseekr1", "", ToolFormat::DeepSeekV3, true),
    ("deepseekv3", "", ToolFormat::DeepSeekV3, false),
    ("qwen3coder", "", ToolFormat::Qwen3Coder, false),
    // Qwen3 *-Thinking-2507 templates open `<think>`; the hybrid Qwen3 models write it.
    ("qwen3", "thinking", ToolFormat::Hermes, true),
    ("qwen3", "", ToolFormat::Hermes, false),
    ("qwq", "", ToolFormat::Hermes, true),
    ("qwen2.5", "", ToolFormat::Hermes, false),
    ("hermes", "", ToolFormat::Hermes, false),
    // GLM-4.7's template opens `<think>` in the generation prompt; 4.5's and 4.6's do not.
    ("glm4.5", "", ToolFormat::Glm, false),
    ("glm4.6", "", ToolFormat::Glm, false),
    ("glm4.7", "", ToolFormat::Glm, true),
    ("minimaxm2", "", ToolFormat::MiniMax, true),
    ("kimik2", "", ToolFormat::KimiK2, false),
    ("gptoss", "", ToolFormat::Harmony, false),
    ("mistral", "", ToolFormat::Mistral, false),
    ("mixtral", "", ToolFormat::Mistral, false),
    ("ministral", "", ToolFormat::Mistral, false),
    ("magistral", "", ToolFormat::Mistral, false),
    ("devstral", "", ToolFormat::Mistral, false),
    ("codestral", "", ToolFormat::Mistral, false),
    // Llama: after `hermes`, so that Hermes-3-Llama-3.1 stays Hermes. Llama 3.0 has no tool
    // calling; Llama 4 writes the pythonic list with vLLM's llama4_pythonic template.
    ("llama3.1", "", ToolFormat::Llama, false),
    ("llama3.2", "", ToolFormat::Llama, false),
    ("llama3.3", "", ToolFormat::Llama, false),
    ("llama4", "", ToolFormat::Pythonic, false),
];

/// The keys a name is matched by: its last path segment (`Qwen/Qwen3-8B`, `hf.co/x/y`), lower
/// case, `-`, `_` and spaces removed; first without an Ollama tag (`qwen3:8b`), whose sizes
/// must not name a family, then with it, where a variant is named
/// (`qwen3:30b-a3b-thinking-2507`).
fn keys(name: &str) -> (String, String) {
    let last = name.rsplit('/').next().unwrap_or(name);
    let base = match last.split_once(':') {
        Some((base, _)) => base,
        None => last,
    };
    let key = |text: &str| -> String {
        text.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    (key(base), key(last))
}

impl ToolFormat {
    /// The format a model writes, from its name as served by vLLM, sglang, Ollama or
    /// llama.cpp; an unknown name is an error listing the known families.
    ///
    /// ```
    /// use tool_core::parse::ToolFormat;
    /// assert_eq!(ToolFormat::for_model("Qwen/Qwen3-8B").unwrap().format, ToolFormat::Hermes);
    /// assert_eq!(ToolFormat::for_model("qwen3-coder:30b").unwrap().format, ToolFormat::Qwen3Coder);
    /// assert_eq!(ToolFormat::for_model("zai-org/GLM-4.6").unwrap().format, ToolFormat::Glm);
    /// assert_eq!(ToolFormat::for_model("openai/gpt-oss-20b").unwrap().format, ToolFormat::Harmony);
    /// assert_eq!(ToolFormat::for_model("deepseek-ai/DeepSeek-V3.1").unwrap().format, ToolFormat::DeepSeekV31);
    /// assert!(ToolFormat::for_model("deepseek-ai/DeepSeek-R1-0528").unwrap().starts_in_reasoning);
    /// assert_eq!(ToolFormat::for_model("llama3.1:8b").unwrap().format, ToolFormat::Llama);
    /// assert_eq!(ToolFormat::for_model("meta-llama/Llama-4-Scout-17B-16E-Instruct").unwrap().format, ToolFormat::Pythonic);
    /// assert!(ToolFormat::for_model("unknown-7b").is_err());
    /// assert_eq!(ToolFormat::for_model("deepseek-ai/DeepSeek-V3.2").unwrap().format, ToolFormat::DeepSeekV32);
    /// assert_eq!(ToolFormat::for_model("deepseek-ai/DeepSeek-V4-Flash").unwrap().format, ToolFormat::DeepSeekV4);
    /// ```
    pub fn for_model(name: &str) -> Result<ModelFormat, UnknownModel> {
        let (base, tagged) = keys(name);
        FAMILIES
            .iter()
            .find(|(family, also, _, _)| base.contains(family) && tagged.contains(also))
            .map(|&(_, _, format, thinks)| ModelFormat::new(format, thinks))
            .ok_or_else(|| UnknownModel {
                name: name.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_each_server_writes_them() {
        let cases = [
            ("Qwen/Qwen3-8B", ToolFormat::Hermes, false),
            ("qwen3:8b", ToolFormat::Hermes, false),
            ("Qwen3-8B-Q4_K_M.gguf", ToolFormat::Hermes, false),
            (
                "Qwen/Qwen3-235B-A22B-Thinking-2507",
                ToolFormat::Hermes,
                true,
            ),
            ("Qwen/Qwen3-30B-A3B-Thinking-2507", ToolFormat::Hermes, true),
            (
                "qwen3:30b-a3b-thinking-2507-q4_K_M",
                ToolFormat::Hermes,
                true,
            ),
            (
                "Qwen3-30B-A3B-Thinking-2507-Q4_K_M.gguf",
                ToolFormat::Hermes,
                true,
            ),
            ("qwen3:4b-instruct-2507-q4_K_M", ToolFormat::Hermes, false),
            ("Qwen/QwQ-32B", ToolFormat::Hermes, true),
            (
                "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
                ToolFormat::DeepSeekV3,
                true,
            ),
            (
                "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B",
                ToolFormat::DeepSeekV3,
                true,
            ),
            (
                "Qwen/Qwen3-Coder-30B-A3B-Instruct",
                ToolFormat::Qwen3Coder,
                false,
            ),
            (
                "hf.co/unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF:Q4_K_M",
                ToolFormat::Qwen3Coder,
                false,
            ),
            ("zai-org/GLM-4.6", ToolFormat::Glm, false),
            ("glm-4.5-air", ToolFormat::Glm, false),
            ("zai-org/GLM-4.7", ToolFormat::Glm, true),
            ("glm-4.7-flash:q4_K_M", ToolFormat::Glm, true),
            ("GLM-4.7-Flash-Q4_K_M.gguf", ToolFormat::Glm, true),
            ("moonshotai/Kimi-K2-Instruct", ToolFormat::KimiK2, false),
            ("kimi-k2-thinking", ToolFormat::KimiK2, false),
            ("MiniMaxAI/MiniMax-M2", ToolFormat::MiniMax, true),
            ("openai/gpt-oss-20b", ToolFormat::Harmony, false),
            ("gpt-oss:120b", ToolFormat::Harmony, false),
            (
                "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
                ToolFormat::Mistral,
                false,
            ),
            ("devstral:24b", ToolFormat::Mistral, false),
            ("meta-llama/Llama-3.1-8B-Instruct", ToolFormat::Llama, false),
            (
                "meta-llama/Meta-Llama-3.1-70B-Instruct",
                ToolFormat::Llama,
                false,
            ),
            ("llama3.1:8b", ToolFormat::Llama, false),
            ("meta-llama/Llama-3.2-3B-Instruct", ToolFormat::Llama, false),
            ("llama3.2", ToolFormat::Llama, false),
            (
                "meta-llama/Llama-3.3-70B-Instruct",
                ToolFormat::Llama,
                false,
            ),
            (
                "Llama-3.3-70B-Instruct-Q4_K_M.gguf",
                ToolFormat::Llama,
                false,
            ),
            (
                "meta-llama/Llama-4-Scout-17B-16E-Instruct",
                ToolFormat::Pythonic,
                false,
            ),
            (
                "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
                ToolFormat::Pythonic,
                false,
            ),
            ("llama4:scout", ToolFormat::Pythonic, false),
            ("deepseek-ai/DeepSeek-V3.2", ToolFormat::DeepSeekV32, false),
            (
                "deepseek-ai/DeepSeek-V3.2-Speciale",
                ToolFormat::DeepSeekV32,
                false,
            ),
            ("deepseek-v3.2:671b", ToolFormat::DeepSeekV32, false),
            (
                "deepseek-ai/DeepSeek-V3.2-Exp",
                ToolFormat::DeepSeekV31,
                false,
            ),
            (
                "deepseek-ai/DeepSeek-V4-Flash",
                ToolFormat::DeepSeekV4,
                false,
            ),
            ("deepseek-ai/DeepSeek-V4-Pro", ToolFormat::DeepSeekV4, false),
            ("deepseek-v4-flash", ToolFormat::DeepSeekV4, false),
            (
                "NousResearch/Hermes-3-Llama-3.1-8B",
                ToolFormat::Hermes,
                false,
            ),
        ];
        for (name, format, thinks) in cases {
            assert_eq!(
                ToolFormat::for_model(name),
                Ok(ModelFormat::new(format, thinks)),
                "{name}"
            );
        }
        let error = ToolFormat::for_model("acme/unknown-7b").unwrap_err();
        assert!(error.to_string().contains("glm4.6 (glm)"), "{error}");
    }
}
