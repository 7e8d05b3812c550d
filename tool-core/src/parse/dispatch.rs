//! The XML round trip with a registry: parse events -> calls -> dispatch -> follow-up message.

use super::{Event, ParserOptions, XmlParser};
use crate::call::ToolCall;
use crate::prompt::{render_tool_results, ToolResultItem};
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

/// The outcome of one call from a reply: run by the registry, or rejected by the parser.
///
/// ```
/// let r = tool_core::parse::XmlCallResult { index: 0, id: "xml_call_0".into(), name: "t".into(), response: tool_core::ToolResponse::success("ok") };
/// assert!(r.response.is_success());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct XmlCallResult {
    /// Call index within the reply.
    pub index: usize,
    /// The synthesized call id.
    pub id: String,
    /// The tool name the model wrote (empty when it gave none).
    pub name: String,
    /// The tool's response, or the parser's error for a malformed call.
    pub response: ToolResponse,
}

impl ToolRegistry {
    /// A parser that knows this registry's tool names, so a wrong name is reported as a
    /// `NOT_FOUND` call error with a did-you-mean while the reply streams.
    ///
    /// ```
    /// use tool_core::{tool, tools, ToolErrorCode};
    /// use tool_core::parse::{EndReason, Event};
    /// /// Searches.
    /// #[tool]
    /// fn search(q: String) -> String { q }
    /// let registry = tools![search];
    /// let mut p = registry.xml_parser();
    /// let mut out = Vec::new();
    /// p.feed("<use_tool><tool_name>serch</tool_name><arguments>{}</arguments></use_tool>", &mut out);
    /// p.finish(EndReason::Stop, &mut out);
    /// let err = out.iter().find_map(|e| match e { Event::CallError { response, .. } => Some(response), _ => None }).unwrap();
    /// assert_eq!(err.error_code(), Some(ToolErrorCode::NotFound));
    /// assert!(err.error_message().unwrap().contains("Did you mean 'search'?"));
    /// ```
    pub fn xml_parser(&self) -> XmlParser {
        XmlParser::with_options(ParserOptions {
            known_tools: Some(self.names().map(str::to_string).collect()),
            ..ParserOptions::default()
        })
    }

    /// Runs every complete call in `events` concurrently and pairs each call error with its
    /// response, in call order. Incomplete calls are not run and not listed.
    ///
    /// ```
    /// use tool_core::{block_on, tool, tools};
    /// use tool_core::parse::{EndReason, XmlParser};
    /// /// Doubles.
    /// #[tool]
    /// fn double(x: i64) -> i64 { x * 2 }
    /// let events = XmlParser::parse_all("<use_tool><tool_name>double</tool_name><arguments>{\"x\":4}</arguments></use_tool>", EndReason::Stop);
    /// let results = block_on(tools![double].run_xml_calls(&events));
    /// assert_eq!(results[0].response.model_text(), "8");
    /// ```
    pub async fn run_xml_calls(&self, events: &[Event]) -> Vec<XmlCallResult> {
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
                        results.push(XmlCallResult {
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
                } => results.push(XmlCallResult {
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

    /// [`ToolRegistry::run_xml_calls`] rendered as the follow-up user message
    /// ([`render_tool_results`]); `None` when the reply made no call.
    ///
    /// ```
    /// use tool_core::{block_on, tool, tools};
    /// use tool_core::parse::{EndReason, XmlParser};
    /// /// Echoes.
    /// #[tool]
    /// fn echo(s: String) -> String { s }
    /// let events = XmlParser::parse_all("<use_tool><tool_name>echo</tool_name><arguments>{\"s\":\"<use_tool>\"}</arguments></use_tool>", EndReason::Stop);
    /// let msg = block_on(tools![echo].xml_follow_up(&events)).unwrap();
    /// assert!(msg.contains("<output>&lt;use_tool&gt;</output>"));
    /// ```
    pub async fn xml_follow_up(&self, events: &[Event]) -> Option<String> {
        let results = self.run_xml_calls(events).await;
        if results.is_empty() {
            return None;
        }
        let items: Vec<ToolResultItem<'_>> = results
            .iter()
            .map(|r| ToolResultItem {
                name: &r.name,
                response: &r.response,
            })
            .collect();
        Some(render_tool_results(&items))
    }
}
