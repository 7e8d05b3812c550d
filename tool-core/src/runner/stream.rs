//! [`RunStream`]: a run's events as a `Stream`, without an executor or a channel crate.

use std::collections::VecDeque;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use serde::de::DeserializeOwned;

use crate::model::{next_item, Stream};
use crate::response::{ToolErrorCode, ToolResponse};

use super::error::RunError;
use super::event::RunEvent;
use super::result::decode_output;
use super::run::{Run, RunOutcome};

/// Where the driver puts events for the stream to hand out. The driver runs inside the
/// stream's `poll_next`, so the queue is only ever touched by one thread at a time; the mutex
/// is uncontended and keeps the stream `Send`.
#[derive(Clone, Default)]
pub(crate) struct EventSink(Arc<Mutex<VecDeque<RunEvent>>>);

impl EventSink {
    pub(crate) fn push(&self, event: RunEvent) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(event);
    }

    fn pop(&self) -> Option<RunEvent> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
    }

    fn is_empty(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }

    /// Yields once if events are waiting, so the stream hands them out before the driver
    /// does anything else (the stream polls the driver only when the queue is empty).
    pub(crate) async fn flush(&self) {
        let mut yielded = false;
        poll_fn(|cx| {
            if yielded || self.is_empty() {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await
    }
}

type Driver<'a> = Pin<Box<dyn Future<Output = (Run, Result<RunOutcome, RunError>)> + Send + 'a>>;

/// The events of one run, ending with [`RunEvent::RunFinished`] or [`RunEvent::RunFailed`].
/// Polling the stream drives the run; dropping it stops the run where it is (a running tool
/// future is dropped). After the last event, [`RunStream::take_run`] gives the run back (to
/// store a run paused for approval, or to continue the conversation).
///
/// ```
/// use tool_core::model::{ModelTurn, ScriptedModel};
/// use tool_core::runner::{RunEvent, Runner};
/// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
/// let events = tool_core::block_on(runner.run_streamed("Hello").collect_events());
/// assert!(matches!(events.first(), Some(RunEvent::TurnStarted { turn: 1 })));
/// assert!(matches!(events.last(), Some(RunEvent::RunFinished { .. })));
/// ```
pub struct RunStream<'a> {
    sink: EventSink,
    driver: Option<Driver<'a>>,
    run: Option<Run>,
    /// How the run ended, once it has.
    ended: Option<Result<RunOutcome, RunError>>,
}

impl std::fmt::Debug for RunStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunStream")
            .field("running", &self.driver.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> RunStream<'a> {
    pub(crate) fn new<F, Fut>(start: F) -> Self
    where
        F: FnOnce(EventSink) -> Fut,
        Fut: Future<Output = (Run, Result<RunOutcome, RunError>)> + Send + 'a,
    {
        let sink = EventSink::default();
        RunStream {
            driver: Some(Box::pin(start(sink.clone()))),
            sink,
            run: None,
            ended: None,
        }
    }

    /// The final answer, once the stream has ended with one: `None` while it runs, and for a
    /// run that failed, paused for approval or stopped otherwise (see
    /// [`RunStream::outcome`]).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut stream = runner.run_streamed("Hello");
    /// tool_core::block_on(async { while let Some(_event) = stream.next_event().await { /* show it */ } });
    /// assert_eq!(stream.text(), Some("Hi!"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        match &self.ended {
            Some(Ok(RunOutcome::Finished { text })) => Some(text),
            _ => None,
        }
    }

    /// The typed answer of a run with [`RunOptions::output`](super::RunOptions::output) (or
    /// the arguments of the [`RunOptions::stop_at_tool`](super::RunOptions::stop_at_tool)
    /// call), decoded into `T`, once the stream has ended: what
    /// [`RunResult::output`](super::RunResult::output) answers for a run that was not
    /// streamed. The error is a `ToolResponse` saying why there is none: the stream has not
    /// ended, the run failed or ended otherwise, or the answer does not decode into `T`.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOptions, Runner};
    ///
    /// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    /// struct City { name: String }
    ///
    /// let model = ScriptedModel::new([ModelTurn::text(r#"{"name":"Paris"}"#)]).with_native_output();
    /// let runner = Runner::new(model, tool_core::ToolRegistry::new())
    ///     .with_options(RunOptions::new().output::<City>());
    /// let mut stream = runner.run_streamed("Capital of France?");
    /// assert!(stream.output::<City>().is_err()); // not ended yet
    /// tool_core::block_on(async { while stream.next_event().await.is_some() {} });
    /// assert_eq!(stream.output::<City>().unwrap(), City { name: "Paris".into() });
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn output<T: DeserializeOwned>(&self) -> Result<T, ToolResponse> {
        match &self.ended {
            Some(Ok(outcome)) => decode_output(outcome),
            Some(Err(error)) => Err(ToolResponse::error(
                ToolErrorCode::NotFound,
                format!("the run has no typed answer: it failed ({error})"),
            )),
            None => Err(ToolResponse::error(
                ToolErrorCode::NotFound,
                "the run has no typed answer yet: read the stream to its last event first",
            )),
        }
    }

    /// How the run ended, once the stream has: its outcome or its error.
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunOutcome, Runner};
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut stream = runner.run_streamed("Hello");
    /// assert!(stream.outcome().is_none());
    /// tool_core::block_on(async { while stream.next_event().await.is_some() {} });
    /// assert!(matches!(stream.outcome(), Some(Ok(RunOutcome::Finished { .. }))));
    /// ```
    pub fn outcome(&self) -> Option<Result<&RunOutcome, &RunError>> {
        self.ended.as_ref().map(Result::as_ref)
    }

    /// The run, once the stream has ended (`None` before, or if already taken).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::Runner;
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let mut stream = runner.run_streamed("Hello");
    /// assert!(stream.take_run().is_none()); // not ended yet
    /// tool_core::block_on(async { while stream.next_event().await.is_some() {} });
    /// assert_eq!(stream.take_run().unwrap().turns(), 1);
    /// ```
    pub fn take_run(&mut self) -> Option<Run> {
        self.run.take()
    }

    /// The next event, or `None` after the last (what `StreamExt::next` does, without
    /// futures-util).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi")]), tool_core::ToolRegistry::new());
    /// let mut stream = runner.run_streamed("Hello");
    /// tool_core::block_on(async {
    ///     while let Some(event) = stream.next_event().await {
    ///         if let RunEvent::TextDelta { text } = event { print!("{text}"); }
    ///     }
    /// });
    /// assert!(stream.take_run().is_some());
    /// ```
    pub async fn next_event(&mut self) -> Option<RunEvent> {
        next_item(Pin::new(self)).await
    }

    /// Collects every event (for tests and simple callers).
    ///
    /// ```
    /// use tool_core::model::{ModelTurn, ScriptedModel};
    /// use tool_core::runner::{RunEvent, Runner};
    /// let runner = Runner::new(ScriptedModel::new([ModelTurn::text("Hi!")]), tool_core::ToolRegistry::new());
    /// let events = tool_core::block_on(runner.run_streamed("Hello").collect_events());
    /// assert!(events.contains(&RunEvent::TextDelta { text: "Hi!".into() }));
    /// ```
    pub async fn collect_events(mut self) -> Vec<RunEvent> {
        let mut events = Vec::new();
        while let Some(event) = self.next_event().await {
            events.push(event);
        }
        events
    }
}

impl Stream for RunStream<'_> {
    type Item = RunEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<RunEvent>> {
        if let Some(event) = self.sink.pop() {
            return Poll::Ready(Some(event));
        }
        let Some(driver) = self.driver.as_mut() else {
            return Poll::Ready(None);
        };
        let poll = driver.as_mut().poll(cx);
        if let Poll::Ready((run, result)) = poll {
            self.driver = None;
            let last = match result.clone() {
                Ok(outcome) => RunEvent::RunFinished {
                    outcome,
                    usage: run.usage(),
                    turns: run.turns(),
                },
                Err(error) => RunEvent::RunFailed {
                    error,
                    usage: run.usage(),
                },
            };
            self.ended = Some(result);
            self.sink.push(last);
            self.run = Some(run);
        }
        match self.sink.pop() {
            Some(event) => Poll::Ready(Some(event)),
            None if self.driver.is_none() => Poll::Ready(None),
            None => Poll::Pending,
        }
    }
}
