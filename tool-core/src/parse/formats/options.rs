//! The settings every text-format parser takes.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::definition::ToolDefinition;

/// Settings for a [`FormatParser`](super::FormatParser) (and an [`UseToolParser`](super::UseToolParser)).
///
/// ```
/// use tool_core::parse::FormatOptions;
/// let options = FormatOptions { known_tools: Some(vec!["search".into()]), ..FormatOptions::default() };
/// assert_eq!(options.id_prefix, None); // the format's own: "xml_call_" for <use_tool>, else "call_"
/// ```
#[derive(Debug, Clone, Default)]
pub struct FormatOptions {
    /// Run calls that appear inside a markdown code fence. Off by default: a model showing an
    /// example is not asking for a call. Either way it is reported.
    pub run_fenced_calls: bool,
    /// Call ids are this prefix followed by the call index (`"call_0"`); `None` is the
    /// format's own prefix (`"xml_call_"` for `<use_tool>`, `"call_"` for the others).
    pub id_prefix: Option<String>,
    /// Known tool names: a call to any other name is a `NOT_FOUND` error with a suggestion.
    pub known_tools: Option<Vec<String>>,
    /// Each tool's input schema, by name: Qwen3-Coder's untyped parameter values are
    /// converted with it (`"5"` for an integer is `5`). Without one, values stay strings.
    pub schemas: Option<Arc<HashMap<String, Arc<Value>>>>,
    /// The reply starts inside a `<think>` section that the chat template opened in the
    /// generation prompt (DeepSeek R1, and Qwen3, GLM and MiniMax-M2 templates with thinking
    /// on): everything up to `</think>` is [`Event::Reasoning`](crate::parse::Event::Reasoning).
    /// Off by default: then a reply of a thinking format that opens with `<think>` is split
    /// the same way, and one that does not is all answer.
    ///
    /// ```
    /// use tool_core::parse::{EndReason, Event, FormatOptions, FormatParser, ToolFormat};
    /// let options = FormatOptions { start_in_reasoning: true, ..FormatOptions::default() };
    /// let mut parser = FormatParser::with_options(ToolFormat::Hermes, options);
    /// let mut out = Vec::new();
    /// parser.feed("The user wants Paris.</think>Sunny.", &mut out);
    /// parser.finish(EndReason::Stop, &mut out);
    /// assert_eq!(out[0], Event::Reasoning("The user wants Paris.".into()));
    /// assert_eq!(out[1], Event::Markup("</think>".into()));
    /// assert_eq!(out[2], Event::Text("Sunny.".into()));
    /// ```
    pub start_in_reasoning: bool,
}

impl FormatOptions {
    /// Options that know `definitions`: their names (a wrong name is `NOT_FOUND` with a
    /// did-you-mean) and their input schemas (Qwen3-Coder values are converted with them).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::ToolDefinition;
    /// use tool_core::parse::FormatOptions;
    /// let def = ToolDefinition::new("search", "Searches.", Arc::new(serde_json::json!({"type": "object"})));
    /// let options = FormatOptions::for_tools(&[def]);
    /// assert_eq!(options.known_tools, Some(vec!["search".to_string()]));
    /// ```
    pub fn for_tools(definitions: &[ToolDefinition]) -> Self {
        let schemas: HashMap<String, Arc<Value>> = definitions
            .iter()
            .map(|d| (d.name.clone(), d.input_schema.clone()))
            .collect();
        FormatOptions {
            known_tools: Some(definitions.iter().map(|d| d.name.clone()).collect()),
            schemas: Some(Arc::new(schemas)),
            ..FormatOptions::default()
        }
    }

    pub(crate) fn schema(&self, tool: &str) -> Option<&Value> {
        self.schemas.as_ref()?.get(tool).map(|s| &**s)
    }
}
