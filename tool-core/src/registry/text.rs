//! The registry's entry point to text mode: its tools in any text format
//! ([`ToolRegistry::text_format`]), the cached `<use_tool>` TOOLS section, and running the
//! calls of a parsed reply.

use std::sync::Arc;

use super::ToolRegistry;
use crate::call::ToolCall;
use crate::parse::{Event, FormatTools, TextCallResult, ToolFormat};
use crate::prompt::{render_tools_section, DEFAULT_TOOLS_HEADER};

impl ToolRegistry {
    /// This registry's tools in `format`: the tool block for the prompt
    /// ([`FormatTools::prompt`]), a parser that knows the tools' names and schemas
    /// ([`FormatTools::parser`]) and the result messages.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolErrorCode};
    /// use tool_core::parse::{EndReason, Event, ToolFormat};
    /// /// Searches.
    /// #[tool]
    /// fn search(q: String) -> String { q }
    /// let registry = tools![search];
    /// let use_tool = registry.text_format(ToolFormat::UseTool);
    /// assert!(use_tool.prompt().contains("<name>search</name>"));
    /// let mut p = use_tool.parser();
    /// let mut out = Vec::new();
    /// p.feed("<use_tool><tool_name>serch</tool_name><arguments>{}</arguments></use_tool>", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// let err = out.iter().find_map(|e| match e { Event::CallError { response, .. } => Some(response), _ => None }).unwrap();
    /// assert_eq!(err.error_code(), Some(ToolErrorCode::NotFound));
    /// assert!(err.error_message().unwrap().contains("Did you mean 'search'?"));
    /// ```
    pub fn text_format(&self, format: ToolFormat) -> FormatTools<'_> {
        FormatTools::new(format, self.definitions())
    }

    /// The TOOLS section with [`DEFAULT_TOOLS_HEADER`], rendered once and cached: later calls
    /// are a pointer copy. Registering another tool clears the cache.
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let r = tools![hi];
    /// assert!(std::sync::Arc::ptr_eq(&r.tools_prompt(), &r.tools_prompt()));
    /// ```
    pub fn tools_prompt(&self) -> Arc<str> {
        self.prompt_cache
            .get_or_init(|| {
                Arc::from(render_tools_section(
                    DEFAULT_TOOLS_HEADER,
                    self.definitions(),
                ))
            })
            .clone()
    }

    /// The TOOLS section with the application's own header text (not cached).
    ///
    /// ```
    /// # use tool_core::{tool, tools};
    /// /// Says hi.
    /// #[tool]
    /// fn hi() -> &'static str { "hi" }
    /// let p = tools![hi].tools_prompt_with("Tools you may call:\n");
    /// assert!(p.starts_with("Tools you may call:\n<tool>\n<name>hi</name>"));
    /// ```
    pub fn tools_prompt_with(&self, header: &str) -> String {
        render_tools_section(header, self.definitions())
    }

    /// Runs every complete call in `events` concurrently and pairs each call error with its
    /// response, in call order. Incomplete calls are not run and not listed.
    ///
    /// ```
    /// use tool_core::{block_on, tool, tools};
    /// use tool_core::parse::{EndReason, UseToolParser};
    /// /// Doubles.
    /// #[tool]
    /// fn double(x: i64) -> i64 { x * 2 }
    /// let events = UseToolParser::parse_all("<use_tool><tool_name>double</tool_name><arguments>{\"x\":4}</arguments></use_tool>", EndReason::Stop);
    /// let results = block_on(tools![double].run_text_calls(&events));
    /// assert_eq!(results[0].response.model_text(), "8");
    /// ```
    pub async fn run_text_calls(&self, events: &[Event]) -> Vec<TextCallResult> {
        let calls: Vec<ToolCall> = events
            .iter()
            .filter_map(|e| match e {
                Event::CallComplete { call, .. } => Some(call.clone()),
                _ => None,
            })
            .collect();
        let mut responses = self.call_all(&calls).await.into_iter();
        let mut results = Vec::new();
        for event in events {
            match event {
                Event::CallComplete { index, call, .. } => {
                    if let Some(response) = responses.next() {
                        results.push(TextCallResult {
                            index: *index,
                            id: call.id.clone(),
                            name: call.name.clone(),
                            response,
                        });
                    }
                }
                Event::CallError {
                    index,
                    id,
                    name,
                    response,
                    ..
                } => results.push(TextCallResult {
                    index: *index,
                    id: id.clone(),
                    name: name.clone().unwrap_or_default(),
                    response: (**response).clone(),
                }),
                _ => {}
            }
        }
        results
    }

    /// Runs every complete call in `events` ([`run_text_calls`](Self::run_text_calls)) and
    /// renders the results in `format`'s convention ([`FormatTools::results`]); `None` when
    /// the reply made no call.
    ///
    /// ```
    /// use tool_core::{block_on, tool, tools};
    /// use tool_core::parse::{EndReason, FormatParser, ToolFormat};
    /// /// Doubles.
    /// #[tool]
    /// fn double(x: i64) -> i64 { x * 2 }
    /// let events = FormatParser::parse_all(ToolFormat::Hermes, "<tool_call>{\"name\": \"double\", \"arguments\": {\"x\": 4}}</tool_call>", EndReason::Stop);
    /// let msg = block_on(tools![double].text_follow_up(ToolFormat::Hermes, &events)).unwrap();
    /// assert_eq!(msg, "<tool_response>\n8\n</tool_response>");
    /// ```
    pub async fn text_follow_up(&self, format: ToolFormat, events: &[Event]) -> Option<String> {
        let results = self.run_text_calls(events).await;
        self.text_format(format).results(&results)
    }
}
