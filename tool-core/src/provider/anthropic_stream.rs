//! Assembling Anthropic Messages tool calls from streamed events.

use serde_json::Value;

use super::error::At;
use super::{AssistantTurn, ProviderError};
use crate::call::ToolCall;

#[derive(Debug)]
enum Block {
    Text,
    ToolUse {
        id: String,
        name: String,
        json: String,
    },
    Done,
    Other,
}

/// Collects Messages streaming events into an [`AssistantTurn`].
///
/// A `tool_use` block opens with `content_block_start` (id, name, empty input), grows by
/// `input_json_delta` fragments, and is complete only at its `content_block_stop` (Messages
/// streaming reference). [`AnthropicStream::take_completed`] hands out calls as their blocks
/// close, so a caller may start them early; an unclosed block is never handed out.
///
/// ```
/// use serde_json::json;
/// let mut s = tool_core::provider::AnthropicStream::new();
/// s.push(&json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}})).unwrap();
/// s.push(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"x\":"}})).unwrap();
/// assert!(s.take_completed().is_empty());
/// s.push(&json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "1}"}})).unwrap();
/// s.push(&json!({"type": "content_block_stop", "index": 0})).unwrap();
/// assert_eq!(s.take_completed()[0].arguments, r#"{"x":1}"#);
/// ```
#[derive(Debug, Default)]
pub struct AnthropicStream {
    blocks: Vec<Block>,
    text: String,
    calls: Vec<ToolCall>,
    handed_out: usize,
    stop_reason: Option<String>,
    stopped: bool,
}

impl AnthropicStream {
    /// An empty assembler.
    ///
    /// ```
    /// assert!(tool_core::provider::AnthropicStream::new().take_completed().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one event (the JSON of one `data:` line).
    ///
    /// ```
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// assert!(s.push(&serde_json::json!({"type": "ping"})).is_ok());
    /// assert!(s.push(&serde_json::json!({"type": "content_block_stop", "index": 4})).is_err());
    /// ```
    pub fn push(&mut self, event: &Value) -> Result<(), ProviderError> {
        let event = At::root(event);
        match event.get("type")?.str()? {
            "content_block_start" => {
                let index = self.index(&event)?;
                let block = event.get("content_block")?;
                let new = match block.get("type")?.str()? {
                    "text" => {
                        if let Some(text) = block.opt("text") {
                            self.text.push_str(text.str()?);
                        }
                        Block::Text
                    }
                    "tool_use" => Block::ToolUse {
                        id: block.get("id")?.str()?.to_owned(),
                        name: block.get("name")?.str()?.to_owned(),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                if index != self.blocks.len() {
                    return Err(ProviderError::new(
                        event.path.clone(),
                        format!("content block {index} started out of order"),
                    ));
                }
                self.blocks.push(new);
            }
            "content_block_delta" => {
                let index = self.index(&event)?;
                let delta = event.get("delta")?;
                let kind = delta.get("type")?.str()?;
                match (self.blocks.get_mut(index), kind) {
                    (Some(Block::Text), "text_delta") => {
                        self.text.push_str(delta.get("text")?.str()?)
                    }
                    (Some(Block::ToolUse { json, .. }), "input_json_delta") => {
                        json.push_str(delta.get("partial_json")?.str()?)
                    }
                    (Some(_), _) => {}
                    (None, _) => {
                        return Err(ProviderError::new(
                            "index",
                            format!("delta for unknown content block {index}"),
                        ))
                    }
                }
            }
            "content_block_stop" => {
                let index = self.index(&event)?;
                let Some(block) = self.blocks.get_mut(index) else {
                    return Err(ProviderError::new(
                        "index",
                        format!("stop for unknown content block {index}"),
                    ));
                };
                if let Block::ToolUse { id, name, json } = std::mem::replace(block, Block::Done) {
                    // An empty input streams no fragments at all: it means `{}`.
                    let arguments = if json.trim().is_empty() {
                        "{}".to_string()
                    } else {
                        json
                    };
                    // Anthropic guarantees `input` is an object, so fragments that do not add up
                    // to one mean some were lost: never hand out a partial call (found by
                    // fuzzing).
                    let complete =
                        serde_json::from_str::<Value>(&arguments).is_ok_and(|v| v.is_object());
                    if !complete {
                        return Err(ProviderError::new(
                            "delta.partial_json",
                            format!(
                                "the streamed input of tool_use block {index} ('{name}') is not a complete JSON object; \
                                 the stream lost fragments, so the call is not run"
                            ),
                        ));
                    }
                    self.calls.push(ToolCall {
                        id,
                        name,
                        arguments,
                    });
                }
            }
            "message_delta" => {
                if let Some(reason) = event.get("delta")?.opt("stop_reason") {
                    self.stop_reason = Some(reason.str()?.to_owned());
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                let message = event
                    .opt("error")
                    .and_then(|e| e.opt("message"))
                    .and_then(|m| m.value.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "stream error".into());
                return Err(ProviderError::new("error", message));
            }
            // message_start, ping and future event types carry nothing we assemble.
            _ => {}
        }
        Ok(())
    }

    fn index(&self, event: &At<'_>) -> Result<usize, ProviderError> {
        let index = event.get("index")?;
        index
            .value
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .ok_or_else(|| index.expected("a non-negative integer"))
    }

    /// Calls whose blocks have closed since the last call of this method.
    ///
    /// ```
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// assert!(s.take_completed().is_empty());
    /// ```
    pub fn take_completed(&mut self) -> Vec<ToolCall> {
        let out = self
            .calls
            .get(self.handed_out..)
            .map(<[ToolCall]>::to_vec)
            .unwrap_or_default();
        self.handed_out = self.calls.len();
        out
    }

    /// The assembled turn (every closed call, including ones already taken). Fails when the
    /// stream ended before `message_stop` with a `tool_use` block still open.
    ///
    /// ```
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// s.push(&serde_json::json!({"type": "message_stop"})).unwrap();
    /// assert!(s.finish().unwrap().calls.is_empty());
    /// ```
    pub fn finish(self) -> Result<AssistantTurn, ProviderError> {
        let open = self
            .blocks
            .iter()
            .filter(|b| matches!(b, Block::ToolUse { .. }))
            .count();
        if open > 0 {
            return Err(ProviderError::new(
                "stream",
                format!("ended with {open} tool_use block(s) still open; not dispatched"),
            ));
        }
        if !self.stopped && self.stop_reason.is_none() {
            return Err(ProviderError::new("stream", "ended before message_stop"));
        }
        Ok(AssistantTurn {
            text: self.text,
            calls: self.calls,
            stop_reason: self.stop_reason,
            ..AssistantTurn::default()
        })
    }
}
