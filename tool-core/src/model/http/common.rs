//! What the HTTP adapters share: the neutral <-> provider turn conversions and the
//! builder methods for their [`Endpoint`].

use serde_json::Value;

use crate::call::ToolCall;
use crate::provider::{Api, AssistantTurn};
use crate::response::ToolResponse;

use crate::model::{ModelTurn, NativeContent, StopReason, ToolResult, Usage};

/// The finished neutral turn of an assembled provider turn. `native` is the provider's own
/// history entry for the turn (written by the `provider::*` history writer), replayed
/// unchanged on the next request.
pub(crate) fn finished_turn(
    turn: AssistantTurn,
    usage: Option<Usage>,
    native: NativeContent,
) -> ModelTurn {
    let mut stop_reason = turn
        .stop_reason
        .as_deref()
        .map(StopReason::from_provider)
        .unwrap_or_default();
    // Gemini says STOP, and the Responses API `completed`, even when the turn has calls.
    if stop_reason == StopReason::EndTurn && !turn.calls.is_empty() {
        stop_reason = StopReason::ToolUse;
    }
    ModelTurn {
        text: turn.text,
        reasoning: String::new(),
        calls: turn.calls,
        stop_reason,
        usage,
        native: Some(native),
        response_id: turn.response_id,
    }
}

/// A provider turn rebuilt from the neutral text and calls, for a turn another adapter (or
/// the scripted model) produced.
pub(crate) fn neutral_turn(turn: &ModelTurn) -> AssistantTurn {
    AssistantTurn {
        text: turn.text.clone(),
        calls: turn.calls.clone(),
        ..AssistantTurn::default()
    }
}

/// The provider's own content of `turn` when `provider` wrote it.
pub(crate) fn native_of(turn: &ModelTurn, api: Api) -> Option<&Value> {
    turn.native
        .as_ref()
        .filter(|n| n.provider == api)
        .map(|n| &n.content)
}

/// Appends an assistant turn to an input list of items (the Responses and Interactions
/// APIs): the provider's own items when it wrote the turn, else the items `written` (the
/// provider's `history_entry`) makes of its neutral text and calls.
pub(crate) fn push_turn_items(
    input: &mut Vec<Value>,
    turn: &ModelTurn,
    api: Api,
    written: impl FnOnce(&AssistantTurn) -> Value,
) {
    match native_of(turn, api) {
        Some(Value::Array(items)) => input.extend(items.iter().cloned()),
        Some(item) => input.push(item.clone()),
        None => match written(&neutral_turn(turn)) {
            Value::Array(items) => input.extend(items),
            item => input.push(item),
        },
    }
}

/// Calls and responses of a results message, as the `provider::*` writers take them.
pub(crate) fn calls_and_responses(results: &[ToolResult]) -> (Vec<ToolCall>, Vec<ToolResponse>) {
    results
        .iter()
        .map(|r| {
            (
                ToolCall::new(r.call_id.clone(), r.name.clone(), ""),
                r.response.clone(),
            )
        })
        .unzip()
}

/// A token count from a usage object (absent or not a number: 0).
pub(crate) fn count(usage: &Value, path: &[&str]) -> u64 {
    path.iter()
        .try_fold(usage, |v, key| v.get(key))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// The builder methods every HTTP adapter has: its [`Endpoint`] and a way to change it.
macro_rules! endpoint_methods {
    ($adapter:ident, $example:literal) => {
        /// The endpoint this adapter sends to (base URL, headers, timeouts, retries).
        ///
        /// ```
        #[doc = concat!("let model = tool_core::model::", stringify!($adapter), "::new(", $example, ");")]
        /// assert!(model.endpoint().stream);
        /// ```
        pub fn endpoint(&self) -> &crate::http::Endpoint {
            &self.transport.endpoint
        }

        /// Changes the endpoint: base URL (a compatible server or a proxy), headers, extra
        /// body fields, timeouts, retries, streaming.
        ///
        /// ```
        #[doc = concat!("let model = tool_core::model::", stringify!($adapter), "::new(", $example, ")")]
        ///     .with_endpoint(|e| e.with_base_url("http://127.0.0.1:9/v1").with_stream(false));
        /// assert_eq!(model.endpoint().base_url, "http://127.0.0.1:9/v1");
        /// ```
        pub fn with_endpoint(
            self,
            change: impl FnOnce(crate::http::Endpoint) -> crate::http::Endpoint,
        ) -> Self {
            let endpoint = change(self.transport.endpoint);
            Self {
                transport: crate::http::Transport::new(endpoint),
                ..self
            }
        }
    };
}

pub(crate) use endpoint_methods;

/// The reasoning methods every HTTP adapter has (the adapter has a `reasoning:
/// Option<Reasoning>` field).
macro_rules! reasoning_methods {
    ($adapter:ident, $example:literal) => {
        /// Asks for reasoning in every request (a run's
        /// [`RunOptions::reasoning`](crate::runner::RunOptions::reasoning) wins over it); see
        /// [`Reasoning`](crate::model::Reasoning) for the fields it becomes.
        ///
        /// ```
        /// use tool_core::model::{Reasoning, ReasoningEffort};
        #[doc = concat!("let model = tool_core::model::", stringify!($adapter), "::new(", $example, ")")]
        ///     .with_reasoning(Reasoning::effort(ReasoningEffort::High));
        /// assert_eq!(model.reasoning(), Some(&Reasoning::effort(ReasoningEffort::High)));
        /// ```
        pub fn with_reasoning(mut self, reasoning: crate::model::Reasoning) -> Self {
            self.reasoning = Some(reasoning);
            self
        }

        /// The reasoning asked for in every request, if any.
        ///
        /// ```
        #[doc = concat!("assert!(tool_core::model::", stringify!($adapter), "::new(", $example, ").reasoning().is_none());")]
        /// ```
        pub fn reasoning(&self) -> Option<&crate::model::Reasoning> {
            self.reasoning.as_ref()
        }
    };
}

pub(crate) use reasoning_methods;

/// Adds a reasoning piece to a turn's reasoning and queues its event.
pub(crate) fn push_reasoning(
    reasoning: &mut String,
    piece: &str,
    out: &mut std::collections::VecDeque<crate::model::ModelEvent>,
) {
    if !piece.is_empty() {
        reasoning.push_str(piece);
        out.push_back(crate::model::ModelEvent::ReasoningDelta(piece.to_owned()));
    }
}

/// Reports, once per adapter, that the model's name does not say whether it has the
/// provider's tool search, so deferred tools go through the run's own `search_tools` (a
/// `tracing` warning with the `tracing` feature). `setter` is the call that decides.
pub(crate) fn unknown_tool_search(
    warned: &std::sync::atomic::AtomicBool,
    provider: &str,
    model: &str,
    setter: &str,
) {
    if warned.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    #[cfg(feature = "tracing")]
    tracing::warn!(
        provider,
        model,
        "cannot tell from the model name whether {provider}'s own tool search is available; \
         deferred tools go through the run's search_tools tool instead. Call {setter} to \
         choose."
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (provider, model, setter);
}
