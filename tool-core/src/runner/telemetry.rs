//! The runner's spans, in OpenTelemetry's GenAI semantic conventions (feature `tracing`): an
//! `invoke_agent` span per run, a `chat {model}` span per model request, inside it the
//! dispatcher's `execute_tool {name}` span per call. `otel.name` carries the conventions' span
//! name (tracing-opentelemetry uses it), `otel.kind` the span kind (a model request is a
//! `client` span; the run and the tools, in process, stay `internal`) and `otel.status_code`
//! an error status; the attributes are fields with their dotted names. Counts are recorded as
//! `i64`, which tracing-opentelemetry exports as integer attributes (a `u64` field would
//! arrive as text). A tracing field cannot hold an array, so the conventions' `string[]`
//! `gen_ai.response.finish_reasons` is recorded as its JSON text (`["stop"]`).
//! Without the feature these are empty types and nothing is recorded.
//!
//! With the feature, [`agent_span`] and [`ChatSpan`] are public, so a driver of its own (a
//! durable workflow, a job queue) emits the very spans the runner does.

#[cfg(feature = "tracing")]
pub use on::{agent_span, ChatSpan};

#[cfg(feature = "tracing")]
pub(crate) use on::{in_agent_span, ChatSpan as Chat};

#[cfg(not(feature = "tracing"))]
pub(crate) use off::{in_agent_span, Chat};

#[cfg(feature = "tracing")]
mod on {
    use std::future::Future;

    use serde_json::{json, Value};
    use tracing::field::Empty;
    use tracing::Instrument;

    use crate::model::{Message, Model, ModelError, ModelRequest, ModelTurn, StopReason};

    /// Runs `run` inside the run's `invoke_agent` span.
    pub(crate) async fn in_agent_span<M: Model + ?Sized, F: Future>(
        model: &M,
        run: F,
    ) -> F::Output {
        run.instrument(agent_span(model)).await
    }

    /// Opens the `invoke_agent` span of one run of `model`, as the runner does around each
    /// run (feature `tracing`): `gen_ai.operation.name` `invoke_agent`,
    /// `gen_ai.provider.name`, `gen_ai.request.model`. Its parent is the current span. A
    /// driver of its own keeps it for the run's life and opens each model request's
    /// [`ChatSpan`], and runs each tool call, inside it (`span.in_scope`, `Instrument`), so
    /// they are its children as in a local run; the span ends when it is dropped.
    ///
    /// ```
    /// use tool_core::model::ScriptedModel;
    /// let model = ScriptedModel::new([]);
    /// let span = tool_core::runner::agent_span(&model);
    /// span.in_scope(|| { /* model requests and tool calls of the run */ });
    /// drop(span); // the run ended
    /// ```
    pub fn agent_span<M: Model + ?Sized>(model: &M) -> tracing::Span {
        tracing::info_span!(
            "invoke_agent",
            otel.name = "invoke_agent",
            gen_ai.operation.name = "invoke_agent",
            gen_ai.provider.name = non_empty(model.provider_name()),
            gen_ai.request.model = non_empty(model.model_name()),
        )
    }

    /// Shows an empty name as no value.
    fn non_empty(name: &str) -> Option<&str> {
        (!name.is_empty()).then_some(name)
    }

    /// The `chat {model}` span of one model request, as the runner records it (feature
    /// `tracing`): kind client, the provider and model, then the response id, finish reasons
    /// and token counts of the finished turn, or `error.type` and an error status. Its parent
    /// is the current span (the run's [`agent_span`], when the driver opened it there).
    ///
    /// ```
    /// use tool_core::model::{Message, Model, ModelRequest, ModelTurn, OfferedTools, ScriptedModel};
    /// use tool_core::runner::ChatSpan;
    ///
    /// let model = ScriptedModel::new([ModelTurn::text("Hi!")]);
    /// let messages = [Message::user("Hello")];
    /// let request = ModelRequest::new(&messages, OfferedTools::none());
    /// let chat = ChatSpan::start(&model, &request, false);
    /// let stream = chat.in_scope(|| model.stream(request)); // poll it inside the span too
    /// # drop(stream);
    /// chat.finish(&ModelTurn::text("Hi!"), false); // or chat.fail(&error)
    /// ```
    #[derive(Debug)]
    pub struct ChatSpan {
        span: tracing::Span,
    }

    impl ChatSpan {
        /// Opens the span; with `content`, the request's messages are recorded as
        /// `gen_ai.input.messages` (and the answer as `gen_ai.output.messages`), as
        /// `Runner::with_trace_content` does.
        ///
        /// ```
        /// use tool_core::model::{Message, ModelRequest, OfferedTools, ScriptedModel};
        /// let messages = [Message::user("Hello")];
        /// let request = ModelRequest::new(&messages, OfferedTools::none());
        /// let chat = tool_core::runner::ChatSpan::start(&ScriptedModel::new([]), &request, false);
        /// # drop(chat);
        /// ```
        pub fn start<M: Model + ?Sized>(
            model: &M,
            request: &ModelRequest<'_>,
            content: bool,
        ) -> Self {
            let model_name = model.model_name();
            let name = if model_name.is_empty() {
                "chat".to_string()
            } else {
                format!("chat {model_name}")
            };
            let span = tracing::info_span!(
                "chat",
                otel.name = %name,
                otel.kind = "client",
                otel.status_code = Empty,
                gen_ai.operation.name = "chat",
                gen_ai.provider.name = non_empty(model.provider_name()),
                gen_ai.request.model = non_empty(model_name),
                gen_ai.response.id = Empty,
                gen_ai.response.finish_reasons = Empty,
                gen_ai.usage.input_tokens = Empty,
                gen_ai.usage.output_tokens = Empty,
                gen_ai.input.messages = Empty,
                gen_ai.output.messages = Empty,
                error.type = Empty,
            );
            if content {
                let mut messages: Vec<Value> = Vec::new();
                if let Some(instructions) = request.instructions {
                    messages.push(text_message("system", instructions));
                }
                messages.extend(request.messages.iter().map(message));
                span.record(
                    "gen_ai.input.messages",
                    Value::Array(messages).to_string().as_str(),
                );
            }
            ChatSpan { span }
        }

        /// Runs `poll` inside the span: poll the model's stream there, so the transport's
        /// spans are children.
        ///
        /// ```
        /// use tool_core::model::{Message, ModelRequest, OfferedTools, ScriptedModel};
        /// let messages = [Message::user("Hello")];
        /// let request = ModelRequest::new(&messages, OfferedTools::none());
        /// let chat = tool_core::runner::ChatSpan::start(&ScriptedModel::new([]), &request, false);
        /// assert_eq!(chat.in_scope(|| 2 + 2), 4);
        /// ```
        pub fn in_scope<T>(&self, poll: impl FnOnce() -> T) -> T {
            self.span.in_scope(poll)
        }

        /// Records the finished turn and ends the span (before the turn's calls are run).
        ///
        /// ```
        /// use tool_core::model::{Message, ModelRequest, ModelTurn, OfferedTools, ScriptedModel};
        /// let messages = [Message::user("Hello")];
        /// let request = ModelRequest::new(&messages, OfferedTools::none());
        /// let chat = tool_core::runner::ChatSpan::start(&ScriptedModel::new([]), &request, false);
        /// chat.finish(&ModelTurn::text("Hi!"), false);
        /// ```
        pub fn finish(self, turn: &ModelTurn, content: bool) {
            let reason = match &turn.stop_reason {
                StopReason::EndTurn => "stop",
                StopReason::ToolUse => "tool_calls",
                StopReason::MaxTokens => "length",
                StopReason::Refusal => "content_filter",
                StopReason::Other(other) => other.as_str(),
            };
            if let Some(id) = &turn.response_id {
                self.span.record("gen_ai.response.id", id.as_str());
            }
            self.span.record(
                "gen_ai.response.finish_reasons",
                json!([reason]).to_string().as_str(),
            );
            if let Some(usage) = turn.usage {
                self.span
                    .record("gen_ai.usage.input_tokens", int(usage.input_tokens));
                self.span
                    .record("gen_ai.usage.output_tokens", int(usage.output_tokens));
            }
            if content {
                let output = json!([assistant(turn)]);
                self.span
                    .record("gen_ai.output.messages", output.to_string().as_str());
            }
        }

        /// Records a failed request (`error.type`, an error status); the span ends when it
        /// is dropped.
        ///
        /// ```
        /// use tool_core::model::{Message, ModelError, ModelRequest, OfferedTools, ScriptedModel};
        /// let messages = [Message::user("Hello")];
        /// let request = ModelRequest::new(&messages, OfferedTools::none());
        /// let chat = tool_core::runner::ChatSpan::start(&ScriptedModel::new([]), &request, false);
        /// chat.fail(&ModelError::from_status(400, "bad request"));
        /// ```
        pub fn fail(&self, error: &ModelError) {
            self.span.record("error.type", error.kind().as_str());
            self.span.record("otel.status_code", "error");
        }
    }

    /// A count as the integer OpenTelemetry attributes hold (`i64`); a count past it, which
    /// no provider reports, shows as the largest.
    fn int(count: u64) -> i64 {
        i64::try_from(count).unwrap_or(i64::MAX)
    }

    fn text_message(role: &str, text: &str) -> Value {
        json!({"role": role, "parts": [{"type": "text", "content": text}]})
    }

    fn assistant(turn: &ModelTurn) -> Value {
        let mut parts = Vec::new();
        if !turn.text.is_empty() {
            parts.push(json!({"type": "text", "content": turn.text}));
        }
        for call in &turn.calls {
            let arguments = serde_json::from_str::<Value>(&call.arguments)
                .unwrap_or_else(|_| Value::String(call.arguments.clone()));
            parts.push(json!({"type": "tool_call", "id": call.id, "name": call.name, "arguments": arguments}));
        }
        json!({"role": "assistant", "parts": parts})
    }

    /// A message in the conventions' shape (`role`, `parts`).
    fn message(message: &Message) -> Value {
        match message {
            Message::User { content } => text_message("user", content),
            Message::Assistant(turn) => assistant(turn),
            Message::Tool { results } => {
                let parts: Vec<Value> = results
                    .iter()
                    .map(|r| {
                        json!({"type": "tool_call_response", "id": r.call_id,
                               "response": r.response.model_text()})
                    })
                    .collect();
                json!({"role": "tool", "parts": parts})
            }
        }
    }
}

#[cfg(not(feature = "tracing"))]
mod off {
    use std::future::Future;

    use crate::model::{Model, ModelError, ModelRequest, ModelTurn};

    pub(crate) async fn in_agent_span<M: Model + ?Sized, F: Future>(
        _model: &M,
        run: F,
    ) -> F::Output {
        run.await
    }

    pub(crate) struct Chat;

    impl Chat {
        pub(crate) fn start<M: Model + ?Sized>(
            _model: &M,
            _request: &ModelRequest<'_>,
            _content: bool,
        ) -> Self {
            Chat
        }

        pub(crate) fn in_scope<T>(&self, poll: impl FnOnce() -> T) -> T {
            poll()
        }

        pub(crate) fn finish(self, _turn: &ModelTurn, _content: bool) {}

        pub(crate) fn fail(&self, _error: &ModelError) {}
    }
}
