//! One model request as a [`ModelStream`]: send (with retries), then read SSE events through
//! eventsource-stream (or the whole JSON body) and hand them to the adapter's [`Decoder`].

use std::collections::VecDeque;
use std::pin::Pin;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::Value;

use crate::http::{error_chain, HttpError, Transport};
use crate::model::{ModelError, ModelErrorKind, ModelEvent, ModelStream, ModelTurn, StopReason};
use crate::provider::ProviderError;

/// What an adapter does with the provider's answer: events in, [`ModelEvent`]s out.
pub(crate) trait Decoder: Send {
    /// One SSE event (`event:` name, possibly empty, and its `data:`). Pushes the deltas it
    /// can report at once.
    fn event(
        &mut self,
        name: &str,
        data: &str,
        out: &mut VecDeque<ModelEvent>,
    ) -> Result<(), ModelError>;

    /// The stream ended: the finished turn, or why it is incomplete. Pushes any last
    /// events (calls that become ready only now).
    fn finish(&mut self, out: &mut VecDeque<ModelEvent>) -> Result<ModelTurn, ModelError>;

    /// A whole (non-streamed) response body.
    fn whole(&mut self, body: &Value) -> Result<ModelTurn, ModelError>;

    /// Whether the provider said the output limit stopped the reply (for an API whose
    /// assembler cannot finish such a turn: a call left open, arguments that do not parse).
    fn stopped_at_limit(&self) -> bool {
        false
    }
}

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

enum Phase {
    Send,
    Streaming(Events),
    Whole(reqwest::Response),
    Done,
}

struct State<'a, D> {
    transport: &'a Transport,
    url: String,
    body: Vec<u8>,
    decoder: D,
    pending: VecDeque<ModelEvent>,
    phase: Phase,
    /// The request's output limit (field and value), when it sets one.
    limit: Option<(&'static str, u64)>,
    /// What of the turn has been handed out, for the message of a turn cut at the limit.
    seen: Seen,
}

/// What of a turn the stream has handed out so far.
#[derive(Default)]
struct Seen {
    text_bytes: usize,
    /// The names of the calls begun, in order.
    started: Vec<String>,
}

impl Seen {
    fn note(&mut self, event: &ModelEvent) {
        match event {
            ModelEvent::TextDelta(text) => self.text_bytes += text.len(),
            ModelEvent::CallStarted { name, .. } => self.started.push(name.clone()),
            _ => {}
        }
    }
}

/// The output-limit fields of the APIs (Chat Completions has two), where a request body sets
/// them: at the top or in the generation config (`generationConfig`, Interactions'
/// `generation_config`).
const LIMIT_FIELDS: [&str; 4] = [
    "max_completion_tokens",
    "max_tokens",
    "max_output_tokens",
    "maxOutputTokens",
];

fn output_limit(body: &Value) -> Option<(&'static str, u64)> {
    let config = body
        .get("generationConfig")
        .or_else(|| body.get("generation_config"));
    LIMIT_FIELDS.iter().find_map(|field| {
        let value = body
            .get(*field)
            .or_else(|| config.and_then(|c| c.get(*field)))?;
        Some((*field, value.as_u64()?))
    })
}

/// A turn the output limit stopped while it had calls: the last call may be cut anywhere, so
/// nothing of the turn is handed out. Not retryable: the same request stops at the same
/// limit; the message says which limit, how far the reply got and which call was cut.
fn cut_at_limit(limit: Option<(&str, u64)>, text_bytes: usize, calls: &[String]) -> ModelError {
    let limit = match limit {
        Some((field, value)) => format!("{field} {value}"),
        None => "the provider's default; set it with Endpoint::with_field".to_string(),
    };
    let call = match calls.last() {
        Some(name) => format!("the call `{name}` was incomplete"),
        None => "a call had begun".to_string(),
    };
    let before = match calls.len().saturating_sub(1) {
        0 => String::new(),
        n => format!(" ({n} complete call(s) before it)"),
    };
    ModelError::new(
        ModelErrorKind::Incomplete,
        format!(
            "the reply was cut at the output limit ({limit}) after {text_bytes} bytes of text; \
             {call}{before}, so no call of the turn runs; raise the limit, or ask for less, \
             and send again"
        ),
    )
    .with_retryable(false)
}

/// Sends `body` to `url` and decodes the answer; the stream ends after
/// [`ModelEvent::Finished`] or the first error.
pub(crate) fn run<'a, D: Decoder + 'a>(
    transport: &'a Transport,
    url: String,
    body: &Value,
    decoder: D,
) -> ModelStream<'a> {
    let limit = output_limit(body);
    let body = match serde_json::to_vec(body) {
        Ok(body) => body,
        Err(e) => {
            return crate::model::from_events([Err(ModelError::new(
                ModelErrorKind::Other,
                format!("the request body could not be serialized: {e}"),
            )
            .with_source(e))])
        }
    };
    let state = State {
        transport,
        url,
        limit,
        body,
        decoder,
        pending: VecDeque::new(),
        phase: Phase::Send,
        seen: Seen::default(),
    };
    Box::pin(stream::unfold(state, |mut state| async move {
        let item = state.next().await?;
        Some((item, state))
    }))
}

impl<D: Decoder> State<'_, D> {
    async fn next(&mut self) -> Option<Result<ModelEvent, ModelError>> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                if matches!(event, ModelEvent::Finished(_)) {
                    self.phase = Phase::Done;
                }
                self.seen.note(&event);
                return Some(Ok(event));
            }
            let step = match &mut self.phase {
                Phase::Done => return None,
                Phase::Send => self.send().await,
                Phase::Streaming(events) => {
                    let idle = self.transport.endpoint.idle_timeout;
                    match tokio::time::timeout(idle, events.next()).await {
                        Err(_) => Err(ModelError::new(
                            ModelErrorKind::Timeout,
                            format!("no streamed event within {idle:?}; nothing of the turn is dispatched"),
                        )),
                        Ok(Some(Ok(event))) => {
                            self.decoder
                                .event(&event.event, &event.data, &mut self.pending)
                        }
                        Ok(Some(Err(error))) => Err(sse_error(error)),
                        Ok(None) => self.finish(),
                    }
                }
                Phase::Whole(_) => self.whole().await,
            };
            if let Err(error) = step {
                self.phase = Phase::Done;
                return Some(Err(error));
            }
        }
    }

    async fn send(&mut self) -> Result<(), ModelError> {
        // reqwest and the timeouts run on tokio; outside a tokio runtime they would panic.
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(ModelError::new(
                ModelErrorKind::Other,
                "the HTTP model adapters need a tokio runtime: poll the stream inside one \
                 (e.g. #[tokio::main], or tokio::runtime::Runtime::block_on)",
            ));
        }
        let body = std::mem::take(&mut self.body);
        let response = self
            .transport
            .send(&self.url, body)
            .await
            .map_err(model_error)?;
        self.phase = if self.transport.endpoint.stream {
            Phase::Streaming(Box::pin(response.bytes_stream().eventsource()))
        } else {
            Phase::Whole(response)
        };
        Ok(())
    }

    fn finish(&mut self) -> Result<(), ModelError> {
        let before = self.pending.len();
        let turn = match self.decoder.finish(&mut self.pending) {
            Ok(turn) => turn,
            Err(_) if self.decoder.stopped_at_limit() => {
                let seen = &self.seen;
                return Err(cut_at_limit(self.limit, seen.text_bytes, &seen.started));
            }
            Err(error) => return Err(error),
        };
        if turn.stop_reason == StopReason::MaxTokens && !turn.calls.is_empty() {
            // The calls that became ready only now are not handed out.
            self.pending.truncate(before);
            let mut names = self.seen.started.clone();
            if names.len() < turn.calls.len() {
                names = turn.calls.iter().map(|c| c.name.clone()).collect();
            }
            return Err(cut_at_limit(self.limit, self.seen.text_bytes, &names));
        }
        self.pending.push_back(ModelEvent::Finished(turn));
        Ok(())
    }

    async fn whole(&mut self) -> Result<(), ModelError> {
        let Phase::Whole(response) = std::mem::replace(&mut self.phase, Phase::Done) else {
            return Ok(());
        };
        let idle = self.transport.endpoint.idle_timeout;
        let bytes = tokio::time::timeout(idle, response.bytes())
            .await
            .map_err(|_| {
                ModelError::new(
                    ModelErrorKind::Timeout,
                    format!("the response body did not arrive within {idle:?}"),
                )
            })?
            .map_err(|e| {
                ModelError::new(ModelErrorKind::Incomplete, error_chain(&e)).with_source(e)
            })?;
        let body: Value = serde_json::from_slice(&bytes).map_err(|e| {
            ModelError::new(
                ModelErrorKind::Malformed,
                format!("the response body is not JSON: {e}"),
            )
            .with_source(e)
        })?;
        let turn = self.decoder.whole(&body)?;
        if turn.stop_reason == StopReason::MaxTokens && !turn.calls.is_empty() {
            let names: Vec<String> = turn.calls.iter().map(|c| c.name.clone()).collect();
            return Err(cut_at_limit(self.limit, turn.text.len(), &names));
        }
        if !turn.reasoning.is_empty() {
            self.pending
                .push_back(ModelEvent::ReasoningDelta(turn.reasoning.clone()));
        }
        if !turn.text.is_empty() {
            self.pending
                .push_back(ModelEvent::TextDelta(turn.text.clone()));
        }
        for (index, call) in turn.calls.iter().enumerate() {
            self.pending.push_back(ModelEvent::CallReady {
                index,
                call: call.clone(),
            });
        }
        self.pending.push_back(ModelEvent::Finished(turn));
        Ok(())
    }
}

fn sse_error(error: EventStreamError<reqwest::Error>) -> ModelError {
    match error {
        // The connection broke mid-body: what arrived so far is not a turn.
        EventStreamError::Transport(e) => ModelError::new(
            ModelErrorKind::Incomplete,
            format!(
                "the stream broke off: {}; nothing of the turn is dispatched",
                error_chain(&e)
            ),
        )
        .with_source(e),
        EventStreamError::Utf8(e) => ModelError::new(
            ModelErrorKind::Malformed,
            format!("the event stream is not UTF-8: {e}"),
        )
        .with_source(e),
        EventStreamError::Parser(e) => ModelError::new(
            ModelErrorKind::Malformed,
            format!("the event stream is not valid SSE: {e:?}"),
        ),
    }
}

/// An event's `data:` as JSON; anything else is a malformed stream.
pub(crate) fn parse_data(name: &str, data: &str) -> Result<Value, ModelError> {
    serde_json::from_str(data).map_err(|e| {
        let shown: String = data.chars().take(80).collect();
        ModelError::new(
            ModelErrorKind::Malformed,
            format!("streamed event '{name}' has data that is not JSON ({e}): {shown:?}"),
        )
        .with_source(e)
    })
}

/// A provider reader's complaint while events arrive: the stream is malformed.
pub(crate) fn malformed(error: ProviderError) -> ModelError {
    ModelError::new(
        ModelErrorKind::Malformed,
        format!("{error}; nothing of the turn is dispatched"),
    )
    .with_source(error)
}

/// A provider assembler's complaint at the end: the stream stopped before the turn was
/// complete (cut inside a call, no finish marker).
pub(crate) fn incomplete(error: ProviderError) -> ModelError {
    ModelError::new(ModelErrorKind::Incomplete, error.to_string()).with_source(error)
}

/// The transport's failure as a model error: a status keeps its code, the provider's message
/// and its wait; the rest keep their message under the matching kind.
pub(crate) fn model_error(error: HttpError) -> ModelError {
    match error {
        HttpError::Status {
            status,
            message,
            retry_after,
        } => {
            let error = ModelError::from_status(status, message);
            match retry_after {
                Some(wait) => error.with_retry_after(wait),
                None => error,
            }
        }
        HttpError::Transport {
            timeout,
            message,
            source,
        } => {
            let kind = if timeout {
                ModelErrorKind::Timeout
            } else {
                ModelErrorKind::Transport
            };
            with_cause(ModelError::new(kind, message), source)
        }
        HttpError::BadHeader(message) => ModelError::new(ModelErrorKind::InvalidRequest, message),
        HttpError::Client(message, source) => {
            with_cause(ModelError::new(ModelErrorKind::Other, message), source)
        }
    }
}

/// Keeps the client's own error as the model error's `source()`.
fn with_cause(error: ModelError, cause: Option<reqwest::Error>) -> ModelError {
    match cause {
        Some(cause) => error.with_source(cause),
        None => error,
    }
}
