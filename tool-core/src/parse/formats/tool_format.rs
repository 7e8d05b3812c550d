//! What users ask of a [`ToolFormat`]: its name, a call written in it, and which format a
//! reply is in.

use super::table::ToolFormat;

impl ToolFormat {
    /// A short lower-case name (`"use_tool"`, `"hermes"`, `"qwen3_coder"`, `"mistral"`,
    /// `"harmony"`).
    ///
    /// ```
    /// assert_eq!(tool_core::parse::ToolFormat::Harmony.name(), "harmony");
    /// ```
    pub fn name(self) -> &'static str {
        self.spec().name()
    }

    /// Guesses the format from the start of a reply (or any text that holds a call): the
    /// first marker found decides; `None` when there is none yet. `<tool_call>` followed by
    /// `<function=` is Qwen3-Coder, by anything else Hermes.
    ///
    /// ```
    /// use tool_core::parse::ToolFormat;
    /// assert_eq!(ToolFormat::detect("Sure.\n<tool_call>\n<function=f>"), Some(ToolFormat::Qwen3Coder));
    /// assert_eq!(ToolFormat::detect("[TOOL_CALLS]f[ARGS]{}"), Some(ToolFormat::Mistral));
    /// assert_eq!(ToolFormat::detect("plain prose"), None);
    /// ```
    pub fn detect(text: &str) -> Option<ToolFormat> {
        ToolFormat::ALL
            .iter()
            .filter_map(|f| f.spec().find_marker(text).map(|at| (at, *f)))
            .min_by_key(|(at, _)| *at)
            .map(|(_, f)| f)
    }

    /// A call written in this format, for messages that tell the model how to write one.
    ///
    /// ```
    /// assert!(tool_core::parse::ToolFormat::Mistral.example().starts_with("[TOOL_CALLS]"));
    /// ```
    pub fn example(self) -> &'static str {
        self.spec().example()
    }
}
