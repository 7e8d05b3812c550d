//! The settings every text-format parser takes.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::definition::ToolDefinition;

/// Settings for a [`FormatParser`](super::FormatParser) (and an [`UseToolParser`](super::UseToolParser)).
///
/// The offered tools come in one way: [`for_tools`](Self::for_tools) (or
/// [`with_tools`](Self::with_tools)) with their [`ToolDefinition`]s, a registry's being
/// [`ToolRegistry::definitions`](crate::ToolRegistry::definitions). The parser then knows their
/// names (a call to another name is a `NOT_FOUND` error with a did-you-mean) and their input
/// schemas (formats that write untyped values, like Qwen3-Coder, GLM, MiniMax-M2 and DeepSeek's
/// DSML, convert them by the schema: `"5"` for an integer is `5`). Without tools, any name is
/// read and such values stay strings.
///
/// ```
/// use tool_core::parse::FormatOptions;
/// use tool_core::{ToolDefinition, ToolRegistry};
/// let registry = ToolRegistry::new();
/// let options = FormatOptions::for_tools(registry.definitions()).with_start_in_reasoning(true);
/// assert_eq!(options.id_prefix, None); // the format's own: "xml_call_" for <use_tool>, else "call_"
/// assert_eq!(options.known_tools().map(|names| names.len()), Some(0));
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FormatOptions {
    /// Run calls that appear inside a markdown code fence. Off by default: a model showing an
    /// example is not asking for a call. Either way it is reported.
    pub run_fenced_calls: bool,
    /// Call ids are this prefix followed by the call index (`"call_0"`); `None` is the
    /// format's own prefix (`"xml_call_"` for `<use_tool>`, `"call_"` for the others).
    pub id_prefix: Option<String>,
    /// The reply starts inside a `<think>` section that the chat template opened in the
    /// generation prompt (DeepSeek R1, and Qwen3, GLM and MiniMax-M2 templates with thinking
    /// on): everything up to `</think>` is [`Event::Reasoning`](crate::parse::Event::Reasoning).
    /// Off by default: then a reply of a thinking format that opens with `<think>` is split
    /// the same way, and one that does not is all answer.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
    /// let options = FormatOptions::default().with_start_in_reasoning(true);
    /// let mut parser = FormatParser::with_options(ToolFormat::Hermes, options);
    /// let mut out = Vec::new();
    /// parser.feed("The user wants Paris.</think>Sunny.", &mut out);
    /// parser.finish(EndReason::Stop, &mut out);
    /// assert_eq!(out[0], Event::Reasoning("The user wants Paris.".into()));
    /// assert_eq!(out[1], Event::Markup("</think>".into()));
    /// assert_eq!(out[2], Event::Text("Sunny.".into()));
    /// ```
    pub start_in_reasoning: bool,
    /// The offered tools' names, in order, and input schemas; `None` when none were given.
    tools: Option<Arc<OfferedTools>>,
}

/// The tools a parser was told about.
#[derive(Debug, Default)]
struct OfferedTools {
    names: Vec<String>,
    schemas: HashMap<String, Arc<Value>>,
}

impl FormatOptions {
    /// Options that know `definitions`: their names (a wrong name is `NOT_FOUND` with a
    /// did-you-mean) and their input schemas (untyped values are converted with them).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::ToolDefinition;
    /// use tool_core::parse::FormatOptions;
    /// let def = ToolDefinition::new("search", "Searches.", Arc::new(serde_json::json!({"type": "object"})));
    /// let options = FormatOptions::for_tools(&[def]);
    /// assert_eq!(options.known_tools(), Some(&["search".to_string()][..]));
    /// ```
    pub fn for_tools(definitions: &[ToolDefinition]) -> Self {
        FormatOptions::default().with_tools(definitions)
    }

    /// These options, knowing `definitions` instead of the tools they knew before.
    ///
    /// ```
    /// use tool_core::parse::FormatOptions;
    /// use tool_core::ToolRegistry;
    /// let options = FormatOptions::default().with_fenced_calls(true).with_tools(ToolRegistry::new().definitions());
    /// assert!(options.run_fenced_calls);
    /// assert_eq!(options.known_tools(), Some(&[][..]));
    /// ```
    pub fn with_tools(mut self, definitions: &[ToolDefinition]) -> Self {
        self.tools = Some(Arc::new(OfferedTools {
            names: definitions.iter().map(|d| d.name.clone()).collect(),
            schemas: definitions
                .iter()
                .map(|d| (d.name.clone(), d.input_schema.clone()))
                .collect(),
        }));
        self
    }

    /// Whether calls inside a markdown code fence run (see
    /// [`run_fenced_calls`](Self::run_fenced_calls)).
    ///
    /// ```
    /// use tool_core::parse::FormatOptions;
    /// assert!(FormatOptions::default().with_fenced_calls(true).run_fenced_calls);
    /// ```
    pub fn with_fenced_calls(mut self, run: bool) -> Self {
        self.run_fenced_calls = run;
        self
    }

    /// Call ids made of `prefix` and the call index (see [`id_prefix`](Self::id_prefix)).
    ///
    /// ```
    /// use tool_core::parse::FormatOptions;
    /// let options = FormatOptions::default().with_id_prefix("t");
    /// assert_eq!(options.id_prefix.as_deref(), Some("t"));
    /// ```
    pub fn with_id_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.id_prefix = Some(prefix.into());
        self
    }

    /// Whether the reply starts inside a `<think>` the template opened (see
    /// [`start_in_reasoning`](Self::start_in_reasoning)).
    ///
    /// ```
    /// use tool_core::parse::FormatOptions;
    /// assert!(FormatOptions::default().with_start_in_reasoning(true).start_in_reasoning);
    /// ```
    pub fn with_start_in_reasoning(mut self, start: bool) -> Self {
        self.start_in_reasoning = start;
        self
    }

    /// The offered tools' names, in the order given; `None` when no tools were given (then
    /// any name is read).
    ///
    /// ```
    /// use tool_core::parse::FormatOptions;
    /// assert_eq!(FormatOptions::default().known_tools(), None);
    /// ```
    pub fn known_tools(&self) -> Option<&[String]> {
        self.tools.as_ref().map(|t| t.names.as_slice())
    }

    pub(crate) fn schema(&self, tool: &str) -> Option<&Value> {
        self.tools.as_ref()?.schemas.get(tool).map(|s| &**s)
    }
}
