//! Assembling OpenAI Responses API function calls from streamed events.

use serde_json::Value;

use crate::call::{Caller, ToolCall};
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{Assembler, AssistantTurn, ProviderError};

#[derive(Debug)]
struct Partial {
    output_index: u64,
    call_id: String,
    name: String,
    arguments: String,
    /// The `namespace` of the item as it was added; a `done` item without one keeps it.
    namespace: Option<String>,
}

/// Collects Responses API streaming events into an [`AssistantTurn`].
///
/// A `function_call` item opens with `response.output_item.added` (call id and name), grows by
/// `response.function_call_arguments.delta`, and is complete at `response.output_item.done`
/// (Responses streaming reference). Calls are keyed by `output_index`; an item that never
/// reached `done` is never handed out. Every `done` item (messages, reasoning, calls) is kept
/// in `output_index` order in [`AssistantTurn::native`], the same list a whole response
/// gives.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::{Assembler, OpenAiResponsesStream};
/// let mut s = OpenAiResponsesStream::new();
/// s.push(&json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}})).unwrap();
/// s.push(&json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "{}"})).unwrap();
/// s.push(&json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}})).unwrap();
/// s.push(&json!({"type": "response.completed", "response": {"status": "completed"}})).unwrap();
/// assert_eq!(s.finish().unwrap().calls[0].id, "call_1");
/// ```
#[derive(Debug, Default)]
pub struct OpenAiResponsesStream {
    open: Vec<Partial>,
    /// Finished output items with their `output_index`, in the order they finished.
    done: Vec<(u64, Value)>,
    /// `response.output_text.delta` text, used when no message item finished.
    delta_text: String,
    stop_reason: Option<String>,
    completed: bool,
    /// `response.id`, from the first event that carries the response (`response.created`).
    response_id: Option<String>,
}

impl OpenAiResponsesStream {
    /// An empty assembler.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// assert!(tool_core::provider::OpenAiResponsesStream::new().finish().is_err());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }
}

impl Assembler for OpenAiResponsesStream {
    /// Feeds one event (the JSON of one `data:` line).
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::OpenAiResponsesStream::new();
    /// assert!(s.push(&serde_json::json!({"type": "response.output_text.delta", "output_index": 0, "delta": "Hi"})).is_ok());
    /// assert!(s.push(&serde_json::json!({"type": "response.function_call_arguments.delta", "output_index": 3, "delta": "x"})).is_err());
    /// ```
    fn push(&mut self, event: &Value) -> Result<(), ProviderError> {
        if self.response_id.is_none() {
            self.response_id = event.get("response").and_then(|r| id_at(r, "id"));
        }
        let event = At::root(event);
        match event.get("type")?.str()? {
            "response.output_text.delta" => self.delta_text.push_str(event.get("delta")?.str()?),
            "response.output_item.added" => {
                let item = event.get("item")?;
                if item.get("type")?.str()? == "function_call" {
                    self.open.push(Partial {
                        output_index: output_index(&event)?,
                        call_id: item.get("call_id")?.str()?.to_owned(),
                        name: item.get("name")?.str()?.to_owned(),
                        arguments: item
                            .opt("arguments")
                            .and_then(|a| a.value.as_str())
                            .unwrap_or("")
                            .to_owned(),
                        namespace: item
                            .opt("namespace")
                            .and_then(|n| n.value.as_str())
                            .map(str::to_owned),
                    });
                }
            }
            "response.function_call_arguments.delta" => {
                let index = output_index(&event)?;
                let delta = event.get("delta")?.str()?;
                match self.open.iter_mut().find(|p| p.output_index == index) {
                    Some(partial) => partial.arguments.push_str(delta),
                    None => {
                        return Err(ProviderError::new(
                            "output_index",
                            format!("arguments for unknown output item {index}"),
                        ))
                    }
                }
            }
            "response.output_item.done" => {
                let index = output_index(&event)?;
                let item = event.get("item")?;
                let mut native = item.value.clone();
                if item.get("type")?.str()? == "function_call" {
                    let Some(pos) = self.open.iter().position(|p| p.output_index == index) else {
                        return Err(ProviderError::new(
                            "output_index",
                            format!("done for unknown output item {index}"),
                        ));
                    };
                    let partial = self.open.remove(pos);
                    // The done item carries the full arguments and is kept as sent; what it
                    // lacks comes from the item as it was added and grown.
                    if let Value::Object(map) = &mut native {
                        for (key, value) in [
                            ("call_id", partial.call_id),
                            ("name", partial.name),
                            ("arguments", partial.arguments),
                        ] {
                            if !map.get(key).is_some_and(Value::is_string) {
                                map.insert(key.into(), Value::String(value));
                            }
                        }
                        // Without it the call would be read under its bare name: another
                        // tool, or none.
                        if let Some(namespace) = partial.namespace {
                            if !map.get("namespace").is_some_and(Value::is_string) {
                                map.insert("namespace".into(), Value::String(namespace));
                            }
                        }
                    }
                }
                self.done.push((index, native));
            }
            "response.completed" | "response.incomplete" => {
                self.completed = true;
                self.stop_reason = event
                    .opt("response")
                    .and_then(|r| r.opt("status"))
                    .and_then(|s| s.value.as_str().map(str::to_owned));
            }
            "error" | "response.failed" => {
                return Err(ProviderError::new(
                    "type",
                    "the response failed while streaming",
                ));
            }
            _ => {}
        }
        Ok(())
    }
    /// The assembled turn; fails when the stream ended before `response.completed` or with a
    /// function call still open.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// let mut s = tool_core::provider::OpenAiResponsesStream::new();
    /// s.push(&serde_json::json!({"type": "response.completed", "response": {"status": "completed"}})).unwrap();
    /// assert_eq!(s.finish().unwrap().stop_reason.as_deref(), Some("completed"));
    /// ```
    fn finish(mut self) -> Result<AssistantTurn, ProviderError> {
        if !self.open.is_empty() {
            return Err(ProviderError::new(
                "stream",
                format!(
                    "ended with {} function call(s) still open; not dispatched",
                    self.open.len()
                ),
            ));
        }
        if !self.completed {
            return Err(ProviderError::new(
                "stream",
                "ended before response.completed",
            ));
        }
        // Items in output order, as a whole response lists them, and read the same way.
        self.done.sort_by_key(|(index, _)| *index);
        let native: Vec<Value> = self.done.into_iter().map(|(_, item)| item).collect();
        let read = read_items(&native)?;
        Ok(AssistantTurn {
            text: if read.has_message {
                read.text
            } else {
                self.delta_text
            },
            calls: read.calls,
            stop_reason: self.stop_reason,
            item_ids: read.item_ids,
            native,
            response_id: self.response_id,
            ..AssistantTurn::default()
        })
    }
}

fn output_index(event: &At<'_>) -> Result<u64, ProviderError> {
    let index = event.get("output_index")?;
    index
        .value
        .as_u64()
        .ok_or_else(|| index.expected("a non-negative integer"))
}

/// What [`read_items`] finds in a list of output items.
#[derive(Default)]
pub(crate) struct Items {
    pub text: String,
    pub calls: Vec<ToolCall>,
    pub item_ids: Vec<Option<String>>,
    pub has_message: bool,
}

/// The text, calls and call item ids of a list of output items (shared by the reader, the
/// stream assembler and the history writer's agreement check).
pub(crate) fn read_items(items: &[Value]) -> Result<Items, ProviderError> {
    let mut out = Items::default();
    for (i, value) in items.iter().enumerate() {
        let item = At {
            value,
            path: format!("output[{i}]"),
        };
        match item.get("type")?.str()? {
            "message" => {
                out.has_message = true;
                for part in item.get("content")?.array()? {
                    if part.opt("type").and_then(|t| t.value.as_str()) == Some("output_text") {
                        out.text.push_str(part.get("text")?.str()?);
                    }
                }
            }
            "function_call" => {
                let caller = caller_of(value);
                // A program's call waits, `in_progress`, for its result (openai-python's
                // `ResponseFunctionToolCall` with a `program` caller); it is complete.
                let waits = |status: &str| {
                    status == "in_progress" && caller.as_ref().is_some_and(|c| !c.is_direct())
                };
                if let Some(status) = item.opt("status") {
                    let status = status.str()?;
                    if status != "completed" && !waits(status) {
                        return Err(ProviderError::new(
                            item.path.clone(),
                            format!("function call is '{status}', not completed; not dispatched"),
                        ));
                    }
                }
                let mut call = ToolCall::new(
                    item.get("call_id")?.str()?.to_owned(),
                    item.get("name")?.str()?.to_owned(),
                    item.get("arguments")?.str()?.to_owned(),
                );
                call.caller = caller;
                out.calls.push(super::namespace::read_call(value, call));
                out.item_ids.push(
                    item.opt("id")
                        .and_then(|i| i.value.as_str().map(str::to_owned)),
                );
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The `caller` of a `function_call` item: `{"type": "direct"}` or a program's
/// `{"type": "program", "caller_id"}` (openai-python's `ResponseFunctionToolCall.caller`). A
/// caller of another type counts as a program, so a tool that allows only direct calls is
/// not run on it.
pub(crate) fn caller_of(item: &Value) -> Option<Caller> {
    let caller = item.get("caller").filter(|c| !c.is_null())?;
    let kind = caller.get("type").and_then(Value::as_str).unwrap_or("");
    if kind == "direct" {
        return Some(Caller::Direct);
    }
    let id = caller
        .get("caller_id")
        .and_then(Value::as_str)
        .unwrap_or("");
    Some(Caller::program(kind, id))
}
