//! The `Model` seam: one request in, a stream of deltas and one finished turn out.
//!
//! The runner speaks to every model through [`Model`]. An adapter receives the whole neutral
//! conversation ([`Message`]s), the tools offered this turn, `tool_choice` and the parallel
//! flag in a [`ModelRequest`], turns them into its own wire format, and streams back
//! [`ModelEvent`]s: text deltas as they arrive, calls taking shape, and finally the
//! [`ModelTurn`] (text, complete calls, stop reason, usage, and the provider's verbatim
//! content to replay in later requests). Failures are [`ModelError`]s with a kind, the HTTP
//! status, the provider's message and a retryable flag.
//!
//! The trait is object-safe: hold a `Box<dyn Model>` or an `Arc<dyn Model>` and pick the
//! provider at run time. Only [`futures_core::Stream`] is involved, so any executor drives it.
//!
//! ```
//! use tool_core::model::{self, Model, ModelError, ModelEvent, ModelRequest, ModelStream, ModelTurn, Message, OfferedTools};
//!
//! /// Answers every request with the last user message, shouting.
//! struct Shout;
//!
//! impl Model for Shout {
//!     fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
//!         let last = request.messages.iter().rev().find_map(|m| match m {
//!             Message::User { content } => Some(content.to_uppercase()),
//!             _ => None,
//!         });
//!         let text = last.unwrap_or_default();
//!         model::from_events([
//!             Ok(ModelEvent::TextDelta(text.clone())),
//!             Ok(ModelEvent::Finished(ModelTurn::text(text))),
//!         ])
//!     }
//! }
//!
//! let model: Box<dyn Model> = Box::new(Shout);
//! let messages = [Message::user("hello")];
//! let turn = tool_core::block_on(model::collect_turn(model.stream(ModelRequest::new(&messages, OfferedTools::none())))).unwrap();
//! assert_eq!(turn.text, "HELLO");
//! ```

#[cfg(feature = "http")]
mod anthropic;
mod error;
mod event;
#[cfg(feature = "http")]
mod from_env;
#[cfg(feature = "http")]
mod gemini;
#[cfg(feature = "http")]
mod gemini_interactions;
#[cfg(feature = "http")]
mod http;
mod message;
#[cfg(feature = "http")]
mod openai_chat;
#[cfg(feature = "http")]
mod openai_responses;
mod output;
mod queue;
mod reasoning;
mod request;
mod scripted;
pub mod text;

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

pub use futures_core::Stream;

pub use error::{ModelError, ModelErrorKind};
pub use event::ModelEvent;
pub use message::{Message, ModelTurn, NativeContent, NativeSource, StopReason, ToolResult, Usage};
pub use output::JsonOutput;
pub use reasoning::{Reasoning, ReasoningEffort};
pub use request::{ModelRequest, OfferedTools};
pub use scripted::{ScriptedModel, SeenRequest};
pub use text::TextMode;
#[cfg(feature = "http")]
pub use {
    anthropic::Anthropic,
    from_env::{from_env, from_vars, EnvModel},
    gemini::Gemini,
    gemini_interactions::GeminiInteractions,
    openai_chat::OpenAiChat,
    openai_responses::OpenAiResponses,
};

/// The stream a [`Model`] returns: events of one turn, ending with
/// [`ModelEvent::Finished`] or an error. Boxed so `Model` stays object-safe; `Send` so a run
/// can move between threads (axum handlers, spawned tasks).
///
/// ```
/// use tool_core::model::{self, Model, ModelEvent, ModelRequest, ModelStream, ModelTurn, Message, OfferedTools, ScriptedModel};
/// let model = ScriptedModel::new([ModelTurn::text("Hi!")]);
/// let messages = [Message::user("Hello")];
/// let stream: ModelStream<'_> = model.stream(ModelRequest::new(&messages, OfferedTools::none()));
/// let turn = tool_core::block_on(model::collect_turn(stream)).unwrap();
/// assert_eq!(turn.text, "Hi!");
/// ```
pub type ModelStream<'a> = Pin<Box<dyn Stream<Item = Result<ModelEvent, ModelError>> + Send + 'a>>;

/// A language model that can be asked for one assistant turn.
///
/// Contract for implementors:
/// - Yield [`ModelEvent::TextDelta`]s (and [`ModelEvent::ReasoningDelta`]s) as they arrive, never held back behind a call, then
///   optional call events, then exactly one [`ModelEvent::Finished`] as the last item.
/// - Put only complete calls in the finished turn; a stream cut inside a call is a
///   [`ModelErrorKind::Incomplete`] error, never a partial call.
/// - Retry retryable failures (if at all) only before the first event is yielded.
/// - Fill [`ModelTurn::native`] with what the provider sent when its API needs it back
///   verbatim, and replay it for messages tagged with your provider.
/// - Dropping the stream cancels the request.
///
/// `Box<M>`, `Arc<M>` and `&M` are models when `M` is, including `dyn Model`.
///
/// ```
/// use std::sync::Arc;
/// use tool_core::model::{Model, ModelTurn, ScriptedModel};
/// use tool_core::runner::Runner;
/// // Pick the model at run time: any `Model` fits behind `Arc<dyn Model>`.
/// let model: Arc<dyn Model> = Arc::new(ScriptedModel::new([ModelTurn::text("Hi!")]));
/// let runner = Runner::new(model, tool_core::ToolRegistry::new());
/// assert_eq!(tool_core::block_on(runner.run("Hello")).unwrap().text(), Some("Hi!"));
/// ```
pub trait Model: Send + Sync {
    /// Starts one request and returns its event stream. Work starts when the stream is first
    /// polled; the request's borrows live as long as the stream.
    fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a>;

    /// Whether this model answers a request's [`ModelRequest::output`] with the provider's
    /// native structured output (`with_tools`: when tools are offered in the same request).
    /// The runner asks a model that says no for its answer through a final-answer tool
    /// instead. Default: no.
    ///
    /// ```
    /// use tool_core::model::{Model, ScriptedModel};
    /// assert!(!ScriptedModel::new([]).native_output(false));
    /// assert!(ScriptedModel::new([]).with_native_output().native_output(true));
    /// ```
    fn native_output(&self, with_tools: bool) -> bool {
        let _ = with_tools;
        false
    }

    /// Whether this model finds deferred tools with the provider's own tool search (Anthropic's
    /// tool search tool, OpenAI Responses' `tool_search`). The runner then offers every tool,
    /// the deferred ones marked as such, and leaves the search to the provider; a model that
    /// says no gets a `search_tools` tool run by the runner instead. Default: no.
    ///
    /// ```
    /// use tool_core::model::{Model, ScriptedModel};
    /// assert!(!ScriptedModel::new([]).native_tool_search());
    /// ```
    fn native_tool_search(&self) -> bool {
        false
    }

    /// The provider as OpenTelemetry's GenAI conventions name it (`gen_ai.provider.name`:
    /// `"openai"`, `"anthropic"`, `"gcp.gemini"`), shown on the runner's spans. Default: empty
    /// (not reported).
    ///
    /// ```
    /// use tool_core::model::{Model, ScriptedModel};
    /// assert_eq!(ScriptedModel::new([]).provider_name(), "scripted");
    /// ```
    fn provider_name(&self) -> &str {
        ""
    }

    /// The model's name as sent in requests (`gen_ai.request.model` on the runner's spans).
    /// Default: empty (not reported).
    ///
    /// ```
    /// use tool_core::model::{Model, ScriptedModel};
    /// assert_eq!(ScriptedModel::new([]).model_name(), "scripted");
    /// ```
    fn model_name(&self) -> &str {
        ""
    }
}

/// A reference or a smart pointer to a model is that model: every method forwards, so a
/// method added to [`Model`] is added here once.
macro_rules! forward_model {
    ($($pointer:ty),*) => {$(
        impl<M: Model + ?Sized> Model for $pointer {
            fn stream<'a>(&'a self, request: ModelRequest<'a>) -> ModelStream<'a> {
                (**self).stream(request)
            }

            fn native_output(&self, with_tools: bool) -> bool {
                (**self).native_output(with_tools)
            }

            fn native_tool_search(&self) -> bool {
                (**self).native_tool_search()
            }

            fn provider_name(&self) -> &str {
                (**self).provider_name()
            }

            fn model_name(&self) -> &str {
                (**self).model_name()
            }
        }
    )*};
}

forward_model!(&M, Box<M>, Arc<M>);

/// A stream of events that are all ready: for models that compute the whole turn at once
/// (non-streaming APIs, tests).
///
/// ```
/// use tool_core::model::{self, ModelEvent, ModelTurn};
/// let stream = model::from_events([Ok(ModelEvent::Finished(ModelTurn::text("hi")))]);
/// assert_eq!(tool_core::block_on(model::collect_turn(stream)).unwrap().text, "hi");
/// ```
pub fn from_events<I>(events: I) -> ModelStream<'static>
where
    I: IntoIterator<Item = Result<ModelEvent, ModelError>>,
    I::IntoIter: Send + 'static,
{
    Box::pin(ReadyEvents(events.into_iter()))
}

struct ReadyEvents<I>(I);

// The iterator is never pinned in place (it is only advanced through `&mut`), so the wrapper
// may move whatever the iterator is.
impl<I> Unpin for ReadyEvents<I> {}

impl<I: Iterator> Stream for ReadyEvents<I> {
    type Item = I::Item;
    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<I::Item>> {
        Poll::Ready(self.0.next())
    }
}

/// The next item of a stream (what `StreamExt::next` does, without futures-util).
pub(crate) async fn next_item<S: Stream + ?Sized>(stream: Pin<&mut S>) -> Option<S::Item> {
    let mut stream = stream;
    poll_fn(move |cx| stream.as_mut().poll_next(cx)).await
}

/// Drains a stream into its finished turn, ignoring the deltas: for callers that want the
/// whole answer at once. A stream that ends without [`ModelEvent::Finished`] is an
/// [`ModelErrorKind::Incomplete`] error.
///
/// ```
/// use tool_core::model::{self, ModelErrorKind, ModelEvent};
/// let cut = model::from_events([Ok(ModelEvent::TextDelta("Hel".into()))]);
/// let err = tool_core::block_on(model::collect_turn(cut)).unwrap_err();
/// assert_eq!(err.kind(), ModelErrorKind::Incomplete);
/// ```
pub async fn collect_turn(mut stream: ModelStream<'_>) -> Result<ModelTurn, ModelError> {
    while let Some(item) = next_item(stream.as_mut()).await {
        if let ModelEvent::Finished(turn) = item? {
            return Ok(turn);
        }
    }
    Err(ModelError::new(
        ModelErrorKind::Incomplete,
        "the model's stream ended before the turn was finished",
    ))
}
