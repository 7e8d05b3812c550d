//! What a text format is: one implementation of [`TextFormat`] per format folder, found
//! through the table in `table.rs`. Everything outside the folders asks the format through
//! this trait instead of matching on [`ToolFormat`](super::ToolFormat), so a new format is a
//! new folder and a row in the table.
//!
//! The trait is crate-private, which seals it: users pick a format with `ToolFormat` and
//! reach its parts through [`ToolFormat`]'s methods and [`FormatTools`](super::FormatTools).

use super::any_parser::AnyParser;
use super::options::FormatOptions;
use crate::call::ToolCall;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;

/// One result to write back: the call id, the tool name the model used, the response.
pub(crate) type ResultRef<'a> = (&'a str, &'a str, &'a ToolResponse);

pub(crate) trait TextFormat: Sync {
    /// A short lower-case name (`"hermes"`).
    fn name(&self) -> &'static str;
    /// Where this format's first call marker starts in `text`, if it has one.
    fn find_marker(&self, text: &str) -> Option<usize>;
    /// A call written in this format, for messages that tell the model how to write one.
    fn example(&self) -> &'static str;
    /// The call id prefix when the options give none.
    fn id_prefix(&self) -> &'static str {
        "call_"
    }
    /// The tag of the native content of a text-mode turn in this format.
    fn provider_tag(&self) -> &'static str;
    /// Whether the parser's argument deltas are the arguments' JSON text (rather than the
    /// whole body of a call block, which is not what a streamed arguments delta promises).
    fn streams_arguments(&self) -> bool {
        false
    }
    /// Whether the format's models may open the reply with a `<think>...</think>` section,
    /// which then comes out as reasoning (see `think.rs`).
    fn thinks(&self) -> bool {
        false
    }
    /// A special token that ends the `<think>` section on its own, when the format's models
    /// may open their calls without closing it (empty: none).
    fn reasoning_ends_at(&self) -> &'static [u8] {
        &[]
    }
    /// Whether the tool block is the `<use_tool>` TOOLS section, which a registry caches.
    fn prompt_is_tools_section(&self) -> bool {
        false
    }
    /// The system-prompt tool block listing `definitions`, in the model family's convention.
    fn tools_prompt(&self, definitions: &[ToolDefinition]) -> String;
    /// The message returning one result.
    fn result(&self, id: &str, name: &str, response: &ToolResponse) -> String;
    /// The message returning the results of one turn, in call order: each result's own
    /// message, one per line, unless the format gathers them.
    fn results(&self, results: &[ResultRef<'_>]) -> String {
        let rendered: Vec<String> = results
            .iter()
            .map(|(id, name, response)| self.result(id, name, response))
            .collect();
        rendered.join("\n")
    }
    /// Appends `calls` as the model family writes them (for another model's turn in the
    /// history), so that this format's parser reads the same calls back.
    fn write_calls(&self, calls: &[ToolCall], out: &mut String);
    /// What the model wrote as the arguments of a rejected call, from the call's `block` of
    /// the reply: best effort, enough for the dispatcher to say what is wrong.
    fn raw_arguments(&self, block: &str) -> String;
    /// A streaming parser with `options` (the id prefix already resolved).
    fn parser(&self, options: FormatOptions) -> AnyParser;
}
