//! Assembling Anthropic Messages tool calls from streamed events.

use serde_json::Value;

use crate::call::{Caller, ToolCall};
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{Assembler, AssistantTurn, ProviderError};

/// One content block as it grows: the block of `content_block_start`, updated in place by
/// its deltas, and the `input_json_delta` fragments not yet parsed.
#[derive(Debug)]
struct Block {
    native: Value,
    json: String,
    open: bool,
}

impl Block {
    fn kind(&self) -> &str {
        self.native
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// Appends `delta` to the string field `key` of the block (created when absent).
    fn append(&mut self, key: &str, delta: &str) {
        if let Value::Object(map) = &mut self.native {
            match map.get_mut(key) {
                Some(Value::String(s)) => s.push_str(delta),
                _ => {
                    map.insert(key.into(), Value::String(delta.to_owned()));
                }
            }
        }
    }
}

/// Collects Messages streaming events into an [`AssistantTurn`].
///
/// A `tool_use` block opens with `content_block_start` (id, name, empty input), grows by
/// `input_json_delta` fragments, and is complete only at its `content_block_stop` (Messages
/// streaming reference); an `input` given whole at the start, with no fragments, is the
/// input. Every other block (text, thinking with its `signature_delta`, server-tool blocks)
/// is rebuilt from its start and deltas into [`AssistantTurn::native`], the same list a
/// whole response gives. [`AnthropicStream::take_completed`] hands out calls as their blocks
/// close, so a caller may start them early; an unclosed block is never handed out.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::Assembler;
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
    /// Closed calls with their block index, in the order they closed.
    calls: Vec<(usize, ToolCall)>,
    handed_out: usize,
    stop_reason: Option<String>,
    stopped: bool,
    /// The message `id` from `message_start`.
    response_id: Option<String>,
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
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// assert!(s.take_completed().is_empty());
    /// ```
    pub fn take_completed(&mut self) -> Vec<ToolCall> {
        let out = self
            .calls
            .get(self.handed_out..)
            .unwrap_or_default()
            .iter()
            .map(|(_, call)| call.clone())
            .collect();
        self.handed_out = self.calls.len();
        out
    }
}

impl Assembler for AnthropicStream {
    /// Feeds one event (the JSON of one `data:` line).
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// assert!(s.push(&serde_json::json!({"type": "ping"})).is_ok());
    /// assert!(s.push(&serde_json::json!({"type": "content_block_stop", "index": 4})).is_err());
    /// ```
    fn push(&mut self, event: &Value) -> Result<(), ProviderError> {
        let event = At::root(event);
        match event.get("type")?.str()? {
            "content_block_start" => {
                let index = self.index(&event)?;
                let block = event.get("content_block")?;
                block.get("type")?.str()?;
                if index != self.blocks.len() {
                    return Err(ProviderError::new(
                        event.path.clone(),
                        format!("content block {index} started out of order"),
                    ));
                }
                self.blocks.push(Block {
                    native: block.value.clone(),
                    json: String::new(),
                    open: true,
                });
            }
            "content_block_delta" => {
                let index = self.index(&event)?;
                let delta = event.get("delta")?;
                let kind = delta.get("type")?.str()?;
                let Some(block) = self.blocks.get_mut(index).filter(|b| b.open) else {
                    return Err(ProviderError::new(
                        "index",
                        format!("delta for unknown or closed content block {index}"),
                    ));
                };
                match kind {
                    "text_delta" => block.append("text", delta.get("text")?.str()?),
                    "input_json_delta" => block.json.push_str(delta.get("partial_json")?.str()?),
                    "thinking_delta" => block.append("thinking", delta.get("thinking")?.str()?),
                    "signature_delta" => block.append("signature", delta.get("signature")?.str()?),
                    "citations_delta" => {
                        let citation = delta.get("citation")?.value.clone();
                        if let Value::Object(map) = &mut block.native {
                            match map.get_mut("citations") {
                                Some(Value::Array(list)) => list.push(citation),
                                _ => {
                                    map.insert("citations".into(), Value::Array(vec![citation]));
                                }
                            }
                        }
                    }
                    // Future delta types carry nothing we assemble.
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = self.index(&event)?;
                let Some(block) = self.blocks.get_mut(index).filter(|b| b.open) else {
                    return Err(ProviderError::new(
                        "index",
                        format!("stop for unknown or closed content block {index}"),
                    ));
                };
                block.open = false;
                close_input(index, block)?;
                if block.kind() == "tool_use" {
                    let call = At::root(&block.native);
                    // The parsed input, written as a whole response's is: a streamed call and
                    // the same call read whole have the same argument text.
                    let arguments = call.get("input")?.value.to_string();
                    let mut read = ToolCall::new(
                        call.get("id")?.str()?.to_owned(),
                        call.get("name")?.str()?.to_owned(),
                        arguments,
                    );
                    read.caller = caller_of(&block.native);
                    self.calls.push((index, read));
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
            "message_start" => {
                self.response_id = event.opt("message").and_then(|m| id_at(m.value, "id"));
                // A message may start with its content already in it: the calls a program
                // makes through programmatic tool calling come that way, complete (vercel/ai's
                // recorded `anthropic-programmatic-tool-calling` stream).
                if let Some(content) = event.opt("message").and_then(|m| m.opt("content")) {
                    for block in content.array()? {
                        block.get("type")?.str()?;
                        let index = self.blocks.len();
                        let mut block = Block {
                            native: block.value.clone(),
                            json: String::new(),
                            open: false,
                        };
                        close_input(index, &mut block)?;
                        if block.kind() == "tool_use" {
                            let call = At::root(&block.native);
                            let mut read = ToolCall::new(
                                call.get("id")?.str()?.to_owned(),
                                call.get("name")?.str()?.to_owned(),
                                call.get("input")?.value.to_string(),
                            );
                            read.caller = caller_of(&block.native);
                            self.calls.push((index, read));
                        }
                        self.blocks.push(block);
                    }
                }
            }
            // ping and future event types carry nothing we assemble.
            _ => {}
        }
        Ok(())
    }
    /// The assembled turn (every closed call, including ones already taken). Fails when the
    /// stream ended before `message_stop` with a `tool_use` block still open.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::AnthropicStream::new();
    /// s.push(&serde_json::json!({"type": "message_stop"})).unwrap();
    /// assert!(s.finish().unwrap().calls.is_empty());
    /// ```
    fn finish(mut self) -> Result<AssistantTurn, ProviderError> {
        let open = self
            .blocks
            .iter()
            .filter(|b| b.open && (b.kind() == "tool_use" || !b.json.is_empty()))
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
        let native: Vec<Value> = self.blocks.into_iter().map(|b| b.native).collect();
        // Text in block order, read exactly as a whole response's blocks are.
        let (text, _) = read_blocks(&native)?;
        // Calls in block order, as in the whole response, whatever order their blocks closed.
        self.calls.sort_by_key(|(index, _)| *index);
        Ok(AssistantTurn {
            text,
            calls: self.calls.into_iter().map(|(_, call)| call).collect(),
            stop_reason: self.stop_reason,
            native,
            response_id: self.response_id,
            ..AssistantTurn::default()
        })
    }
}

/// Puts the parsed `input_json_delta` fragments of a closed block into its `input`. Without
/// fragments the block keeps the `input` it started with (Anthropic sends `{}` there and
/// streams the real input, but an input given whole at the start is the input). Anthropic
/// guarantees `input` is an object, so fragments that do not add up to one mean some were
/// lost: never hand out a partial call (found by fuzzing).
fn close_input(index: usize, block: &mut Block) -> Result<(), ProviderError> {
    if block.json.trim().is_empty() {
        if block.kind() == "tool_use" {
            match block.native.get("input") {
                Some(input) if input.is_object() => {}
                Some(_) => {
                    return Err(ProviderError::new(
                        "content_block.input",
                        format!("tool_use block {index}: expected an object"),
                    ))
                }
                None => {
                    if let Value::Object(map) = &mut block.native {
                        map.insert("input".into(), Value::Object(Default::default()));
                    }
                }
            }
        }
        return Ok(());
    }
    let input = serde_json::from_str::<Value>(&std::mem::take(&mut block.json))
        .ok()
        .filter(Value::is_object);
    let Some(input) = input else {
        let name = block
            .native
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("");
        return Err(ProviderError::new(
            "delta.partial_json",
            format!(
                "the streamed input of {} block {index} ('{name}') is not a complete JSON object; \
                 the stream lost fragments, so the call is not run",
                block.kind()
            ),
        ));
    };
    // With `preserve_order`, replacing a key keeps its place, so the block's field order
    // stays the provider's.
    if let Value::Object(map) = &mut block.native {
        map.insert("input".into(), input);
    }
    Ok(())
}

/// The text and the calls of a list of content blocks (shared by the reader, the stream
/// assembler and the history writer's agreement check).
pub(crate) fn read_blocks(blocks: &[Value]) -> Result<(String, Vec<ToolCall>), ProviderError> {
    let mut text = String::new();
    let mut calls = Vec::new();
    for (i, value) in blocks.iter().enumerate() {
        let block = At {
            value,
            path: format!("content[{i}]"),
        };
        match block.get("type")?.str()? {
            "text" => text.push_str(block.get("text")?.str()?),
            "tool_use" => {
                let input = block.get("input")?;
                if !input.value.is_object() {
                    return Err(input.expected("an object"));
                }
                let mut call = ToolCall::new(
                    block.get("id")?.str()?.to_owned(),
                    block.get("name")?.str()?.to_owned(),
                    input.value.to_string(),
                );
                call.caller = caller_of(value);
                calls.push(call);
            }
            _ => {}
        }
    }
    Ok((text, calls))
}

/// The `caller` of a `tool_use` block: `{"type": "direct"}`, or a code-execution tool's
/// `{"type": "code_execution_20250825", "tool_id"}` (anthropic-sdk-python's `ToolUseCaller`).
/// A caller of another type counts as a program, so a tool that allows only direct calls
/// is not run on it.
pub(crate) fn caller_of(block: &Value) -> Option<Caller> {
    let caller = block.get("caller")?;
    let kind = caller.get("type").and_then(Value::as_str).unwrap_or("");
    if kind == "direct" {
        return Some(Caller::Direct);
    }
    let id = caller.get("tool_id").and_then(Value::as_str).unwrap_or("");
    Some(Caller::program(kind, id))
}
