//! Assembling OpenAI Chat Completions tool calls from streamed deltas.

use serde_json::Value;

use crate::call::ToolCall;
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{Assembler, AssistantTurn, ProviderError};

use super::object_end::ObjectEnd;

#[derive(Debug, Default)]
struct Partial {
    id: String,
    name: String,
    arguments: String,
    /// Where the argument object stands, fragment by fragment.
    scan: ObjectEnd,
    /// The call is complete: its arguments are one whole JSON object, or the next call began.
    complete: bool,
}

/// Collects `chat.completion.chunk` deltas into an [`AssistantTurn`].
///
/// Tool-call deltas are keyed by `index`, not `id`: only the first delta of a call carries
/// its id and name, later ones carry argument fragments and the index alone (Chat
/// Completions streaming reference). Calls are handed out only by [`OpenAiChatStream::finish`],
/// after a `finish_reason`, so a partial call is never dispatched. Each chunk costs time
/// proportional to its own size.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::Assembler;
/// let mut stream = tool_core::provider::OpenAiChatStream::new();
/// stream.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}]}}]})).unwrap();
/// stream.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"x\":1}"}}]}}]})).unwrap();
/// assert!(stream.finish().is_err()); // no finish_reason yet: nothing is dispatched
/// ```
#[derive(Debug, Default)]
pub struct OpenAiChatStream {
    text: String,
    calls: Vec<Partial>,
    stop_reason: Option<String>,
    /// The completion's `id`, which every chunk repeats.
    response_id: Option<String>,
    /// How many calls [`OpenAiChatStream::take_ready`] handed out (their arguments are final).
    handed: usize,
}

impl OpenAiChatStream {
    /// An empty assembler.
    ///
    /// ```
    /// assert!(!tool_core::provider::OpenAiChatStream::new().is_finished());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one SSE `data:` payload as text; `[DONE]` is accepted and ignored.
    ///
    /// ```
    /// let mut s = tool_core::provider::OpenAiChatStream::new();
    /// assert!(s.push_data("[DONE]").is_ok());
    /// assert!(s.push_data("{not json").is_err());
    /// ```
    pub fn push_data(&mut self, data: &str) -> Result<(), ProviderError> {
        let data = data.trim();
        if data == "[DONE]" || data.is_empty() {
            return Ok(());
        }
        let chunk: Value = serde_json::from_str(data)
            .map_err(|e| ProviderError::new("data", format!("not JSON: {e}")).with_source(e))?;
        self.push(&chunk)
    }

    fn push_call(&mut self, call: &At<'_>) -> Result<(), ProviderError> {
        let index = call
            .get("index")?
            .value
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| {
                call.get("index")
                    .map_or_else(|e| e, |i| i.expected("a small non-negative integer"))
            })?;
        // Indexes arrive in order; a gap would mean a lost chunk.
        if index > self.calls.len() {
            return Err(ProviderError::new(
                call.path.clone(),
                format!("tool call index {index} skips {}", self.calls.len()),
            ));
        }
        if index == self.calls.len() {
            // The next call began: the one before it is complete.
            if let Some(previous) = self.calls.last_mut() {
                previous.complete = true;
            }
            self.calls.push(Partial::default());
        }
        let handed = index < self.handed;
        let Some(slot) = self.calls.get_mut(index) else {
            return Err(ProviderError::new(
                call.path.clone(),
                "tool call index out of range",
            ));
        };
        // The id and name come whole in a call's first delta; some compatible servers repeat
        // them in later deltas, so they are set once, never appended.
        if let Some(id) = call.opt("id") {
            if slot.id.is_empty() {
                slot.id = id.str()?.to_owned();
            }
        }
        if let Some(function) = call.opt("function") {
            if let Some(name) = function.opt("name") {
                if slot.name.is_empty() {
                    slot.name = name.str()?.to_owned();
                }
            }
            if let Some(arguments) = function.opt("arguments") {
                let fragment = arguments.str()?;
                if handed {
                    // The call was handed out with its arguments as they stood: whitespace
                    // after them changes nothing, anything else would change a call that may
                    // already be running.
                    if fragment.trim().is_empty() {
                        return Ok(());
                    }
                    return Err(ProviderError::new(
                        arguments.path.clone(),
                        format!(
                            "tool call {index} ({}) received more argument text after its \
                             arguments were one whole JSON object: {fragment:?}",
                            slot.name
                        ),
                    ));
                }
                slot.arguments.push_str(fragment);
                // Parsed once, when the outer object closes: each fragment costs its own
                // length, not the whole text's.
                if slot.scan.push(fragment)
                    && serde_json::from_str::<serde::de::IgnoredAny>(&slot.arguments).is_ok()
                {
                    slot.complete = true;
                }
            }
        }
        Ok(())
    }

    /// Whether a `finish_reason` has arrived.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::OpenAiChatStream::new();
    /// s.push(&serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})).unwrap();
    /// assert!(s.is_finished());
    /// ```
    pub fn is_finished(&self) -> bool {
        self.stop_reason.is_some()
    }

    // Read by the HTTP adapters only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// Hands out, in order, the calls below index `below` that are complete and not handed
    /// out yet: a call is complete once its arguments are one whole JSON object or the next
    /// call began (and it has its id and name). A handed-out call's arguments are final: more
    /// argument text for it (other than whitespace) is an error.
    pub(crate) fn take_ready(&mut self, below: usize, mut out: impl FnMut(usize, ToolCall)) {
        let end = below.min(self.calls.len());
        while let Some(call) = self.calls.get(self.handed).filter(|_| self.handed < end) {
            if !call.complete || call.id.is_empty() || call.name.is_empty() {
                break;
            }
            let ready = ToolCall::new(call.id.clone(), call.name.clone(), call.arguments.clone());
            out(self.handed, ready);
            self.handed += 1;
        }
    }

    // Read by the HTTP adapters only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// How many calls [`take_ready`](Self::take_ready) handed out.
    pub(crate) fn handed(&self) -> usize {
        self.handed
    }
}

impl Assembler for OpenAiChatStream {
    /// Feeds one chunk (the JSON of one `data:` line).
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::OpenAiChatStream::new();
    /// s.push(&serde_json::json!({"choices": [{"index": 0, "delta": {"content": "Hi"}}]})).unwrap();
    /// assert!(s.push(&serde_json::json!({"choices": 1})).is_err());
    /// ```
    fn push(&mut self, chunk: &Value) -> Result<(), ProviderError> {
        if self.response_id.is_none() {
            self.response_id = id_at(chunk, "id");
        }
        let root = At::root(chunk);
        let Some(choices) = root.opt("choices") else {
            // Usage-only chunks have no choices.
            return Ok(());
        };
        for choice in choices.array()? {
            if let Some(reason) = choice.opt("finish_reason") {
                self.stop_reason = Some(reason.str()?.to_owned());
            }
            let Some(delta) = choice.opt("delta") else {
                continue;
            };
            if let Some(content) = delta.opt("content") {
                self.text.push_str(content.str()?);
            }
            if let Some(tool_calls) = delta.opt("tool_calls") {
                for call in tool_calls.array()? {
                    self.push_call(&call)?;
                }
            }
        }
        Ok(())
    }
    /// The assembled turn. Fails when the stream ended before a `finish_reason`, or when a
    /// call is missing its id or name: such calls are never handed out.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::OpenAiChatStream::new();
    /// s.push(&serde_json::json!({"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]})).unwrap();
    /// assert_eq!(s.finish().unwrap().text, "Hi");
    /// ```
    fn finish(self) -> Result<AssistantTurn, ProviderError> {
        if self.stop_reason.is_none() {
            return Err(ProviderError::new(
                "stream",
                format!(
                    "ended before a finish_reason; {} partial tool call(s) not dispatched",
                    self.calls.len()
                ),
            ));
        }
        let mut calls = Vec::with_capacity(self.calls.len());
        for (i, call) in self.calls.into_iter().enumerate() {
            if call.id.is_empty() || call.name.is_empty() {
                return Err(ProviderError::new(
                    format!("tool_calls[{i}]"),
                    "a streamed tool call never received its id or name",
                ));
            }
            calls.push(ToolCall::new(call.id, call.name, call.arguments));
        }
        Ok(AssistantTurn {
            text: self.text,
            calls,
            stop_reason: self.stop_reason,
            response_id: self.response_id,
            ..AssistantTurn::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::OpenAiChatStream;
    use crate::provider::Assembler;

    fn call_delta(index: u64, id: Option<&str>, arguments: &str) -> serde_json::Value {
        let mut call = json!({"index": index, "function": {"arguments": arguments}});
        if let Some(id) = id {
            call["id"] = json!(id);
            call["function"]["name"] = json!("f");
        }
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
    }

    fn ready(stream: &mut OpenAiChatStream) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        stream.take_ready(usize::MAX, |i, call| out.push((i, call.arguments)));
        out
    }

    #[test]
    fn a_call_is_ready_when_its_object_closes_or_the_next_call_begins() {
        let mut s = OpenAiChatStream::new();
        s.push(&call_delta(0, Some("a"), "{\"x\":")).unwrap();
        assert!(ready(&mut s).is_empty());
        s.push(&call_delta(0, None, "\"}\"}")).unwrap();
        assert_eq!(ready(&mut s), [(0, "{\"x\":\"}\"}".to_string())]);
        // Whitespace after a handed-out call is not part of it; more text is an error.
        s.push(&call_delta(0, None, " \n")).unwrap();
        let error = s.push(&call_delta(0, None, ",")).unwrap_err();
        assert!(error.to_string().contains("more argument text"), "{error}");
        // Not an object: ready only when the next call begins.
        s.push(&call_delta(1, Some("b"), "")).unwrap();
        assert!(ready(&mut s).is_empty());
        s.push(&call_delta(2, Some("c"), "[1]")).unwrap();
        assert_eq!(ready(&mut s), [(1, String::new())]);
        s.push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
            .unwrap();
        let turn = s.finish().unwrap();
        assert_eq!(turn.calls[0].arguments, "{\"x\":\"}\"}");
        assert_eq!(turn.calls[2].arguments, "[1]");
    }

    #[test]
    fn a_call_without_its_id_is_not_handed_out_early() {
        let mut s = OpenAiChatStream::new();
        s.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"name": "f", "arguments": "{}"}}]}}]}))
            .unwrap();
        assert!(ready(&mut s).is_empty());
        assert_eq!(s.handed(), 0);
    }
}
