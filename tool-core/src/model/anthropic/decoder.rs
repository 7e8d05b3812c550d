//! Reading a Messages response, streamed or whole, into a [`ModelTurn`].

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use super::super::http::{self, count, finished_turn, push_reasoning, Decoder};
use super::super::{ModelError, ModelErrorKind, ModelEvent, ModelTurn, NativeContent, Usage};
use super::container::CONTAINER_KEY;
use super::PROVIDER;
use crate::http::provider_message;
use crate::provider::anthropic::container_of;
use crate::provider::{Anthropic as Wire, AnthropicStream, Assembler, AssistantTurn, ChatApi};

/// Reads Messages stream events: text deltas at once, each call when its block closes.
#[derive(Default)]
pub(super) struct MessagesDecoder {
    assembler: AnthropicStream,
    /// Content block index -> call index, for the blocks that are calls.
    call_of_block: HashMap<u64, usize>,
    started: usize,
    ready: usize,
    usage: Usage,
    reasoning: String,
    /// The content block index of the last thinking piece, to separate blocks.
    thinking_block: Option<u64>,
    /// A call block whose input did not parse when it closed: an error at the end, unless
    /// the output limit cut the reply (known only from the `message_delta` after it).
    held: Option<ModelError>,
    /// The `message_delta` said `stop_reason: max_tokens`.
    at_limit: bool,
    /// The code execution container the response names (`message_start`'s message or
    /// `message_delta`'s delta), kept with the turn so later requests name it.
    container: Option<Value>,
}

impl Decoder for MessagesDecoder {
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError> {
        let event = http::parse_data(name, data)?;
        let kind = event.get("type").and_then(Value::as_str).unwrap_or(name);
        if kind == "error" {
            return Err(stream_error(&event));
        }
        if let Err(error) = self.assembler.push(&event) {
            let block = event.get("index").and_then(Value::as_u64);
            let closes_call = kind == "content_block_stop"
                && block.is_some_and(|b| self.call_of_block.contains_key(&b));
            if closes_call && self.held.is_none() {
                self.held = Some(http::malformed(error));
                return Ok(());
            }
            return Err(http::malformed(error));
        }
        match kind {
            "message_start" => {
                if let Some(usage) = event.pointer("/message/usage") {
                    self.usage = read_usage(usage);
                }
                if let Some(container) = event.get("message").and_then(container_of) {
                    self.container = Some(container.clone());
                }
            }
            "content_block_start" => {
                let block = event.get("content_block");
                if block.and_then(|b| b.get("type")).and_then(Value::as_str) == Some("tool_use") {
                    let text = |key: &str| {
                        block
                            .and_then(|b| b.get(key))
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    let index = self.started;
                    self.started += 1;
                    if let Some(block_index) = event.get("index").and_then(Value::as_u64) {
                        self.call_of_block.insert(block_index, index);
                    }
                    out.push_back(ModelEvent::CallStarted {
                        index,
                        id: text("id"),
                        name: text("name"),
                    });
                }
            }
            "content_block_delta" => {
                let delta = event.get("delta");
                let field = |key: &str| {
                    delta
                        .and_then(|d| d.get(key))
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                };
                if let Some(text) = field("text") {
                    out.push_back(ModelEvent::TextDelta(text.to_owned()));
                } else if let Some(thinking) = field("thinking") {
                    let block = event.get("index").and_then(Value::as_u64);
                    if self.thinking_block.is_some() && self.thinking_block != block {
                        push_reasoning(&mut self.reasoning, "\n\n", out);
                    }
                    self.thinking_block = block;
                    push_reasoning(&mut self.reasoning, thinking, out);
                } else if let Some(fragment) = field("partial_json") {
                    let call = event
                        .get("index")
                        .and_then(Value::as_u64)
                        .and_then(|b| self.call_of_block.get(&b));
                    if let Some(&index) = call {
                        out.push_back(ModelEvent::ArgumentsDelta {
                            index,
                            delta: fragment.to_owned(),
                        });
                    }
                }
            }
            "message_delta" => {
                if let Some(container) = event.get("delta").and_then(container_of) {
                    self.container = Some(container.clone());
                }
                if event.pointer("/delta/stop_reason").and_then(Value::as_str) == Some("max_tokens")
                {
                    self.at_limit = true;
                }
                if let Some(output) = event
                    .pointer("/usage/output_tokens")
                    .and_then(Value::as_u64)
                {
                    self.usage.output_tokens = output;
                }
                // Newer models report their thinking share of the output.
                let thinking = event.pointer("/usage/output_tokens_details/thinking_tokens");
                if let Some(thinking) = thinking.and_then(Value::as_u64) {
                    self.usage.reasoning_tokens = thinking;
                }
            }
            _ => {}
        }
        for call in self.assembler.take_completed() {
            out.push_back(ModelEvent::CallReady {
                index: self.ready,
                call,
            });
            self.ready += 1;
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError> {
        if let Some(error) = self.held.take() {
            return Err(error);
        }
        let turn = std::mem::take(&mut self.assembler)
            .finish()
            .map_err(http::incomplete)?;
        let native = native(&turn, self.container.take());
        let mut turn = finished_turn(turn, Some(self.usage), native);
        turn.reasoning = std::mem::take(&mut self.reasoning);
        Ok(turn)
    }

    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError> {
        let turn = Wire::read_response(body).map_err(ModelError::from)?;
        let usage = body.get("usage").map(read_usage);
        let native = native(&turn, container_of(body).cloned());
        let mut turn = finished_turn(turn, usage, native);
        let blocks = body.get("content").and_then(Value::as_array);
        let thinking: Vec<&str> = blocks
            .into_iter()
            .flatten()
            .filter_map(|block| block.get("thinking").and_then(Value::as_str))
            .collect();
        turn.reasoning = thinking.join("\n\n");
        Ok(turn)
    }

    fn stopped_at_limit(&self) -> bool {
        self.at_limit
    }
}

/// The turn's history entry, and the container it ran code in beside it (taken off again
/// when the entry is sent back; see `super::container`).
fn native(turn: &AssistantTurn, container: Option<Value>) -> NativeContent {
    let mut entry = Wire::history_entry(turn);
    if let (Some(container), Value::Object(map)) = (container, &mut entry) {
        map.insert(CONTAINER_KEY.into(), container);
    }
    NativeContent::new(PROVIDER, entry)
}

/// Usage as Messages reports it (a whole response's `usage`, a stream's `message_start`):
/// input counts cache writes and cache reads too, as the other APIs' input counts do.
fn read_usage(usage: &Value) -> Usage {
    let cached = count(usage, &["cache_read_input_tokens"]);
    Usage {
        input_tokens: count(usage, &["input_tokens"])
            + count(usage, &["cache_creation_input_tokens"])
            + cached,
        output_tokens: count(usage, &["output_tokens"]),
        cached_input_tokens: cached,
        reasoning_tokens: 0,
    }
}

/// A streamed `error` event: `{"type": "error", "error": {"type": "overloaded_error", "message"}}`.
fn stream_error(event: &Value) -> ModelError {
    let kind = event
        .pointer("/error/type")
        .and_then(Value::as_str)
        .unwrap_or("api_error");
    let message = provider_message(event).unwrap_or_else(|| kind.to_owned());
    let kind = match kind {
        "rate_limit_error" => ModelErrorKind::RateLimited,
        "invalid_request_error" => ModelErrorKind::InvalidRequest,
        "authentication_error" | "permission_error" => ModelErrorKind::Auth,
        _ => ModelErrorKind::Server,
    };
    ModelError::new(kind, format!("{message} (streamed error event)"))
}
