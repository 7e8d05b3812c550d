//! The round trip with a registry in any format: a parser that knows the registry's tools
//! and schemas, and the follow-up message carrying the results back.

use std::collections::HashMap;
use std::sync::Arc;

use super::{FormatOptions, FormatParser, ToolFormat};
use crate::parse::Event;
use crate::prompt::render_format_result;
use crate::registry::ToolRegistry;

impl ToolRegistry {
    /// A parser for `format` that knows this registry's tool names (a wrong name is
    /// `NOT_FOUND` with a did-you-mean) and input schemas (Qwen3-Coder values are converted
    /// with them).
    ///
    /// ```
    /// use tool_core::{tool, tools};
    /// use tool_core::parse::{EndReason, Event, ToolFormat};
    /// /// Repeats a word.
    /// #[tool]
    /// fn repeat(word: String, times: u32) -> String { word.repeat(times as usize) }
    /// let mut p = tools![repeat].format_parser(ToolFormat::QwenXml);
    /// let mut out = Vec::new();
    /// p.feed("<tool_call>\n<function=repeat>\n<parameter=word>\nab\n</parameter>\n<parameter=times>\n3\n</parameter>\n</function>\n</tool_call>", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// let call = out.iter().find_map(|e| match e { Event::CallComplete { call, .. } => Some(call), _ => None }).unwrap();
    /// assert_eq!(call.arguments, r#"{"word":"ab","times":3}"#);
    /// ```
    pub fn format_parser(&self, format: ToolFormat) -> FormatParser {
        let schemas: HashMap<String, Arc<serde_json::Value>> = self
            .definitions()
            .iter()
            .map(|d| (d.name.clone(), d.input_schema.clone()))
            .collect();
        FormatParser::with_options(
            format,
            FormatOptions {
                known_tools: Some(self.names().map(str::to_string).collect()),
                schemas: Some(Arc::new(schemas)),
                ..FormatOptions::default()
            },
        )
    }

    /// Runs every complete call in `events` and renders each result (and each call error) in
    /// `format`'s convention, one per line, in call order; `None` when the reply made no call.
    ///
    /// ```
    /// use tool_core::{block_on, tool, tools};
    /// use tool_core::parse::{EndReason, FormatParser, ToolFormat};
    /// /// Doubles.
    /// #[tool]
    /// fn double(x: i64) -> i64 { x * 2 }
    /// let events = FormatParser::parse_all(ToolFormat::Hermes, "<tool_call>{\"name\": \"double\", \"arguments\": {\"x\": 4}}</tool_call>", EndReason::Stop);
    /// let msg = block_on(tools![double].format_follow_up(ToolFormat::Hermes, &events)).unwrap();
    /// assert_eq!(msg, "<tool_response>\n8\n</tool_response>");
    /// ```
    pub async fn format_follow_up(&self, format: ToolFormat, events: &[Event]) -> Option<String> {
        if format == ToolFormat::UseTool {
            // One `<tool_results>` message holds every result.
            return self.xml_follow_up(events).await;
        }
        let results = self.run_xml_calls(events).await;
        if results.is_empty() {
            return None;
        }
        let rendered: Vec<String> = results
            .iter()
            .map(|r| render_format_result(format, &r.id, &r.name, &r.response))
            .collect();
        Some(rendered.join("\n"))
    }
}
