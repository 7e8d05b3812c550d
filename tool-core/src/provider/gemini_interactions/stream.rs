//! Reading the model's steps, whole (an `Interaction`) or streamed (`step.start`,
//! `step.delta`, `step.stop`, `interaction.completed`).

use serde_json::{Map, Value};

use crate::call::ToolCall;
use crate::provider::error::At;
use crate::provider::turn::id_at;
use crate::provider::{Assembler, AssistantTurn, ProviderError};

/// The step types that echo the request's input in a whole response; they are not the
/// model's.
const INPUT_STEPS: [&str; 2] = ["user_input", "function_result"];

/// What [`read_steps`] finds in the model's steps.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub text: String,
    pub calls: Vec<ToolCall>,
    /// The thought summaries' text, summaries apart by a blank line.
    pub reasoning: String,
}

/// Whether a step is the model's (not an echo of the input).
pub(crate) fn is_model_step(step: &Value) -> bool {
    let kind = step.get("type").and_then(Value::as_str).unwrap_or_default();
    !INPUT_STEPS.contains(&kind)
}

/// Reads the model's steps: `model_output` text, `function_call`s, thought summaries. Other
/// step types (built-in tools) are kept by the caller and not interpreted here.
pub(crate) fn read_steps<'a>(
    steps: impl Iterator<Item = At<'a>>,
    out: &mut Parsed,
) -> Result<(), ProviderError> {
    for step in steps {
        match step.get("type")?.str()? {
            "model_output" => {
                for content in step
                    .opt("content")
                    .map(|c| c.array())
                    .transpose()?
                    .into_iter()
                    .flatten()
                {
                    if content.opt("type").map(|t| t.str()).transpose()? == Some("text") {
                        out.text.push_str(content.get("text")?.str()?);
                    }
                }
            }
            "thought" => {
                let summary = step.opt("summary").map(|s| s.array()).transpose()?;
                for content in summary.into_iter().flatten() {
                    if let Some(text) = content.opt("text") {
                        if !out.reasoning.is_empty() {
                            out.reasoning.push_str("\n\n");
                        }
                        out.reasoning.push_str(text.str()?);
                    }
                }
                if let Some(signature) = step.opt("signature") {
                    signature.str()?;
                }
            }
            "function_call" => out.calls.push(read_call(&step)?),
            _ => {}
        }
    }
    Ok(())
}

/// One `function_call` step as a call: `id`, `name` and an object `arguments` (absent: `{}`).
fn read_call(step: &At<'_>) -> Result<ToolCall, ProviderError> {
    let id = step.get("id")?.str()?;
    let name = step.get("name")?.str()?;
    let arguments = match step.opt("arguments") {
        Some(args) if args.value.is_object() => args.value.to_string(),
        Some(args) => return Err(args.expected("an object")),
        None => "{}".to_string(),
    };
    Ok(ToolCall::new(id, name, arguments))
}

/// Reads a whole `Interaction`: its model steps (the echoed input left out), its `status` and
/// its `id`.
pub(crate) fn read_interaction(response: &Value) -> Result<AssistantTurn, ProviderError> {
    let root = At::root(response);
    let status = root.get("status")?.str()?.to_owned();
    let steps = match root.opt("steps") {
        Some(steps) => steps.array()?,
        None => Vec::new(),
    };
    let steps: Vec<At<'_>> = steps
        .into_iter()
        .filter(|s| is_model_step(s.value))
        .collect();
    let native: Vec<Value> = steps.iter().map(|s| s.value.clone()).collect();
    let mut parsed = Parsed::default();
    read_steps(steps.into_iter(), &mut parsed)?;
    Ok(AssistantTurn {
        text: parsed.text,
        calls: parsed.calls,
        stop_reason: Some(status),
        native,
        response_id: id_at(response, "id"),
        ..AssistantTurn::default()
    })
}

/// One streamed step: what `step.start` gave, with the deltas applied.
#[derive(Debug)]
struct Slot {
    index: u64,
    step: Value,
    /// The `arguments_delta` text of a call streamed in pieces.
    arguments: Option<String>,
    stopped: bool,
}

/// Collects a streamed interaction. A step opens with `step.start` (a call may come whole
/// there), grows by `step.delta` (text, thought summary, thought signature, or
/// `arguments_delta` JSON text for a call) and is complete at `step.stop`; the turn is
/// complete at `interaction.completed`. A `[DONE]` line is not JSON and never reaches the
/// assembler. [`AssistantTurn::native`] gets the model's steps as a whole response would
/// hold them.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::{Assembler, GeminiInteractionsStream};
/// let mut s = GeminiInteractionsStream::new();
/// for event in [
///     json!({"event_type": "interaction.created", "interaction": {"id": "v1_int_1", "status": "in_progress"}}),
///     json!({"event_type": "step.start", "index": 0, "step": {"type": "function_call", "id": "call_1", "name": "f", "arguments": {}}}),
///     json!({"event_type": "step.delta", "index": 0, "delta": {"type": "arguments_delta", "arguments": "{\"a\":"}}),
///     json!({"event_type": "step.delta", "index": 0, "delta": {"type": "arguments_delta", "arguments": "1}"}}),
///     json!({"event_type": "step.stop", "index": 0}),
///     json!({"event_type": "interaction.completed", "interaction": {"id": "v1_int_1", "status": "requires_action"}}),
/// ] {
///     s.push(&event).unwrap();
/// }
/// let turn = s.finish().unwrap();
/// assert_eq!(turn.calls[0].arguments, r#"{"a":1}"#);
/// assert_eq!(turn.native[0]["arguments"], json!({"a": 1}));
/// ```
#[derive(Debug, Default)]
pub struct GeminiInteractionsStream {
    slots: Vec<Slot>,
    status: Option<String>,
    interaction_id: Option<String>,
    /// How many calls [`GeminiInteractionsStream::take_ready`] handed out (read by the HTTP
    /// adapter only, feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    handed: usize,
}

impl GeminiInteractionsStream {
    /// An empty assembler.
    ///
    /// ```
    /// use tool_core::provider::Assembler;
    /// assert!(tool_core::provider::GeminiInteractionsStream::new().finish().is_err());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    fn slot(&mut self, event: &At<'_>) -> Result<&mut Slot, ProviderError> {
        let index = event.get("index")?;
        let at = index
            .value
            .as_u64()
            .ok_or_else(|| index.expected("an index"))?;
        self.slots
            .iter_mut()
            .find(|slot| slot.index == at)
            .ok_or_else(|| ProviderError::new("index", format!("no step.start for step {at}")))
    }

    // Read by the HTTP adapter only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// Hands out, in order, the calls whose steps have stopped since the last time; a call is
    /// handed out only after every call before it.
    pub(crate) fn take_ready(
        &mut self,
        mut out: impl FnMut(usize, ToolCall),
    ) -> Result<(), ProviderError> {
        let calls = self
            .slots
            .iter()
            .filter(|slot| slot.step.get("type").and_then(Value::as_str) == Some("function_call"));
        for (n, slot) in calls.enumerate().skip(self.handed) {
            if !slot.stopped {
                break;
            }
            let call = read_call(&At {
                value: &slot.step,
                path: format!("steps[{}]", slot.index),
            })?;
            out(n, call);
            self.handed = n + 1;
        }
        Ok(())
    }

    // Read by the HTTP adapter only (feature `http`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    /// How many calls [`take_ready`](Self::take_ready) handed out.
    pub(crate) fn handed(&self) -> usize {
        self.handed
    }
}

/// Appends `text` to the last text item of `list` (a step's `content` or `summary`), or adds
/// `item` when the last one is not text.
fn append_text(step: &mut Value, list: &str, text: &str, item: &Value) {
    let Some(map) = step.as_object_mut() else {
        return;
    };
    let entry = map.entry(list).or_insert_with(|| Value::Array(Vec::new()));
    if !entry.is_array() {
        *entry = Value::Array(Vec::new());
    }
    let Value::Array(items) = entry else {
        return;
    };
    if let Some(Value::Object(last)) = items.last_mut() {
        if last.get("type").and_then(Value::as_str) == Some("text")
            && item.get("type").and_then(Value::as_str) == Some("text")
        {
            if let Some(Value::String(existing)) = last.get_mut("text") {
                existing.push_str(text);
                return;
            }
        }
    }
    items.push(item.clone());
}

impl Assembler for GeminiInteractionsStream {
    /// Feeds one event (the JSON of one `data:` line; its `event_type` says which).
    ///
    /// ```
    /// use tool_core::provider::{Assembler, GeminiInteractionsStream};
    /// let mut s = GeminiInteractionsStream::new();
    /// assert!(s.push(&serde_json::json!({"event_type": "step.delta", "index": 3, "delta": {"type": "text", "text": "x"}})).is_err());
    /// ```
    fn push(&mut self, event: &Value) -> Result<(), ProviderError> {
        let root = At::root(event);
        match root.get("event_type")?.str()? {
            "interaction.created" | "interaction.completed" => {
                let interaction = root.get("interaction")?;
                if let Some(id) = id_at(interaction.value, "id") {
                    self.interaction_id = Some(id);
                }
                if root.get("event_type")?.str()? == "interaction.completed" {
                    self.status = Some(interaction.get("status")?.str()?.to_owned());
                }
            }
            "interaction.status_update" if self.interaction_id.is_none() => {
                self.interaction_id = id_at(event, "interaction_id");
            }
            "step.start" => {
                let index = root.get("index")?;
                let at = index
                    .value
                    .as_u64()
                    .ok_or_else(|| index.expected("an index"))?;
                let step = root.get("step")?;
                step.get("type")?.str()?;
                if !step.value.is_object() {
                    return Err(step.expected("an object"));
                }
                self.slots.retain(|slot| slot.index != at);
                self.slots.push(Slot {
                    index: at,
                    step: step.value.clone(),
                    arguments: None,
                    stopped: false,
                });
            }
            "step.delta" => {
                let delta = root.get("delta")?;
                let kind = delta.get("type")?.str()?;
                let slot = self.slot(&root)?;
                match kind {
                    "text" => {
                        let text = delta.get("text")?.str()?;
                        append_text(&mut slot.step, "content", text, delta.value);
                    }
                    "thought_summary" => {
                        if let Some(content) = delta.opt("content") {
                            let text = content.opt("text").map(|t| t.str()).transpose()?;
                            append_text(
                                &mut slot.step,
                                "summary",
                                text.unwrap_or_default(),
                                content.value,
                            );
                        }
                    }
                    "thought_signature" => {
                        let signature = delta.get("signature")?.str()?;
                        if let Some(step) = slot.step.as_object_mut() {
                            step.insert("signature".into(), Value::String(signature.to_owned()));
                        }
                    }
                    "arguments_delta" => {
                        let piece = delta.opt("arguments").map(|a| a.str()).transpose()?;
                        slot.arguments
                            .get_or_insert_with(String::new)
                            .push_str(piece.unwrap_or_default());
                    }
                    _ => {}
                }
            }
            "step.stop" => {
                let slot = self.slot(&root)?;
                if let Some(text) = slot.arguments.take() {
                    let path = format!("steps[{}].arguments", slot.index);
                    let arguments: Value = serde_json::from_str(&text).map_err(|e| {
                        ProviderError::new(
                            path.clone(),
                            format!("the streamed arguments are not JSON: {e}"),
                        )
                        .with_source(e)
                    })?;
                    if !arguments.is_object() {
                        return Err(ProviderError::new(path, "expected an object"));
                    }
                    if let Some(step) = slot.step.as_object_mut() {
                        step.insert("arguments".into(), arguments);
                    }
                }
                if slot.step.get("type").and_then(Value::as_str) == Some("function_call") {
                    read_call(&At {
                        value: &slot.step,
                        path: format!("steps[{}]", slot.index),
                    })?;
                }
                slot.stopped = true;
            }
            "error" => {
                let message = event
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("the stream reported an error");
                return Err(ProviderError::new("error", message));
            }
            _ => {}
        }
        Ok(())
    }

    /// The assembled turn; fails when no `interaction.completed` arrived or a call's step
    /// never stopped.
    ///
    /// ```
    /// use tool_core::provider::{Assembler, GeminiInteractionsStream};
    /// let mut s = GeminiInteractionsStream::new();
    /// s.push(&serde_json::json!({"event_type": "interaction.completed", "interaction": {"id": "v1_int_1", "status": "completed"}})).unwrap();
    /// assert_eq!(s.finish().unwrap().stop_reason.as_deref(), Some("completed"));
    /// ```
    fn finish(self) -> Result<AssistantTurn, ProviderError> {
        let calls = |slots: &[Slot]| {
            slots
                .iter()
                .filter(|s| s.step.get("type").and_then(Value::as_str) == Some("function_call"))
                .count()
        };
        let Some(status) = self.status else {
            return Err(ProviderError::new(
                "interaction.completed",
                format!(
                    "missing: the stream ended before the interaction completed; {} call(s) not dispatched",
                    calls(&self.slots)
                ),
            ));
        };
        if let Some(open) = self
            .slots
            .iter()
            .find(|s| !s.stopped && s.arguments.is_some())
        {
            return Err(ProviderError::new(
                format!("steps[{}]", open.index),
                "the call's step never stopped: its arguments are incomplete",
            ));
        }
        let native: Vec<Value> = self
            .slots
            .into_iter()
            .map(|slot| slot.step)
            .filter(is_model_step)
            .collect();
        let mut parsed = Parsed::default();
        let steps = native.iter().enumerate().map(|(i, value)| At {
            value,
            path: format!("steps[{i}]"),
        });
        read_steps(steps, &mut parsed)?;
        Ok(AssistantTurn {
            text: parsed.text,
            calls: parsed.calls,
            stop_reason: Some(status),
            native,
            response_id: self.interaction_id,
            ..AssistantTurn::default()
        })
    }
}

/// The text items of a step's `content` list, for a step built by hand.
pub(crate) fn text_content(text: &str) -> Value {
    let mut item = Map::new();
    item.insert("type".into(), Value::String("text".into()));
    item.insert("text".into(), Value::String(text.to_owned()));
    Value::Array(vec![Value::Object(item)])
}

/// The thought summaries' text of the model's steps, summaries apart by a blank line.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn reasoning_of(steps: &[Value]) -> String {
    let mut parsed = Parsed::default();
    let steps = steps.iter().enumerate().map(|(i, value)| At {
        value,
        path: format!("steps[{i}]"),
    });
    // A step that does not read has no reasoning to give.
    let _ = read_steps(steps, &mut parsed);
    parsed.reasoning
}
