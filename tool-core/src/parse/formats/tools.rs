//! [`FormatTools`]: one format over a set of tool definitions, the text-mode round trip
//! without a registry: the tool block for the prompt, a parser that knows the tools, and the
//! message carrying results back.

use super::options::FormatOptions;
use super::parser::FormatParser;
use super::results::TextCallResult;
use super::spec::ResultRef;
use super::table::ToolFormat;
use crate::definition::ToolDefinition;
use crate::response::ToolResponse;

/// A text format over a set of tool definitions. A registry hands one out with
/// [`ToolRegistry::text_format`](crate::ToolRegistry::text_format).
///
/// ```
/// use tool_core::{tool, tools, ToolResponse};
/// use tool_core::parse::{EndReason, Event, FormatTools, ToolFormat};
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
/// let registry = tools![add];
/// let hermes = FormatTools::new(ToolFormat::Hermes, registry.definitions());
/// assert!(hermes.prompt().contains("\"name\":\"add\""));
/// let mut parser = hermes.parser();
/// let mut out = Vec::new();
/// parser.feed("<tool_call>{\"name\": \"ad\", \"arguments\": {}}</tool_call>", &mut out);
/// parser.finish(EndReason::Stop, &mut out);
/// assert!(matches!(out.last(), Some(Event::CallError { .. }))); // did you mean 'add'?
/// assert_eq!(hermes.result("call_0", "add", &ToolResponse::success("3")), "<tool_response>\n3\n</tool_response>");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FormatTools<'a> {
    format: ToolFormat,
    definitions: &'a [ToolDefinition],
}

impl<'a> FormatTools<'a> {
    /// `format` over `definitions`.
    ///
    /// ```
    /// use tool_core::parse::{FormatTools, ToolFormat};
    /// let none = FormatTools::new(ToolFormat::Mistral, &[]);
    /// assert_eq!(none.prompt(), "[AVAILABLE_TOOLS][][/AVAILABLE_TOOLS]");
    /// ```
    pub fn new(format: ToolFormat, definitions: &'a [ToolDefinition]) -> Self {
        FormatTools {
            format,
            definitions,
        }
    }

    /// The format.
    ///
    /// ```
    /// use tool_core::parse::{FormatTools, ToolFormat};
    /// assert_eq!(FormatTools::new(ToolFormat::Harmony, &[]).format(), ToolFormat::Harmony);
    /// ```
    pub fn format(&self) -> ToolFormat {
        self.format
    }

    /// The system-prompt tool block in the model family's own convention: the TOOLS section
    /// for `<use_tool>`, the chat template's `# Tools` block for Hermes and Qwen3-Coder,
    /// `[AVAILABLE_TOOLS]` for Mistral, `namespace functions` for harmony. Descriptions and
    /// schemas are escaped so that none can close the block.
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// use tool_core::parse::ToolFormat;
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    /// let block = tools![add].text_format(ToolFormat::Harmony).prompt();
    /// assert!(block.contains("// Adds two numbers.\ntype add = (_: {\na: number,\nb: number,\n}) => any;"));
    /// ```
    pub fn prompt(&self) -> String {
        self.format.spec().tools_prompt(self.definitions)
    }

    /// A parser for the format that knows the tools' names (a wrong name is `NOT_FOUND` with
    /// a did-you-mean) and input schemas (Qwen3-Coder values are converted with them).
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// use tool_core::parse::{EndReason, Event, ToolFormat};
    /// /// Repeats a word.
    /// #[tool]
    /// fn repeat(word: String, times: u32) -> String { word.repeat(times as usize) }
    /// let registry = tools![repeat];
    /// let mut p = registry.text_format(ToolFormat::Qwen3Coder).parser();
    /// let mut out = Vec::new();
    /// p.feed("<tool_call>\n<function=repeat>\n<parameter=word>\nab\n</parameter>\n<parameter=times>\n3\n</parameter>\n</function>\n</tool_call>", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// let call = out.iter().find_map(|e| match e { Event::CallComplete { call, .. } => Some(call), _ => None }).unwrap();
    /// assert_eq!(call.arguments, r#"{"word":"ab","times":3}"#);
    /// ```
    pub fn parser(&self) -> FormatParser {
        FormatParser::with_options(self.format, FormatOptions::for_tools(self.definitions))
    }

    /// The message that returns `response` of call `id` to tool `name`.
    ///
    /// ```
    /// use tool_core::parse::{FormatTools, ToolFormat};
    /// use tool_core::ToolResponse;
    /// let r = ToolResponse::success("21 C");
    /// let harmony = FormatTools::new(ToolFormat::Harmony, &[]);
    /// assert_eq!(harmony.result("call_0", "get_weather", &r), "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>21 C<|end|>");
    /// ```
    pub fn result(&self, id: &str, name: &str, response: &ToolResponse) -> String {
        self.format.spec().result(id, name, response)
    }

    /// The message returning a reply's results, in call order (one `<tool_results>` for
    /// `<use_tool>`, otherwise each result's message, one per line); `None` when there are
    /// none.
    ///
    /// ```
    /// use tool_core::parse::{FormatTools, ToolFormat, TextCallResult};
    /// use tool_core::ToolResponse;
    /// let results = [TextCallResult { index: 0, id: "call_0".into(), name: "f".into(), response: ToolResponse::success("ok") }];
    /// let hermes = FormatTools::new(ToolFormat::Hermes, &[]);
    /// assert_eq!(hermes.results(&results).unwrap(), "<tool_response>\nok\n</tool_response>");
    /// assert_eq!(hermes.results(&[]), None);
    /// ```
    pub fn results(&self, results: &[TextCallResult]) -> Option<String> {
        if results.is_empty() {
            return None;
        }
        let refs: Vec<ResultRef<'_>> = results
            .iter()
            .map(|r| (r.id.as_str(), r.name.as_str(), &r.response))
            .collect();
        Some(self.format.spec().results(&refs))
    }
}
