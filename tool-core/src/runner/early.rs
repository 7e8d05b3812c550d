//! Calls started while the model is still streaming its turn: polled next to the model's
//! stream, then handed to the turn's batch (running or done) so none runs twice.

use std::future::{poll_fn, ready, Future};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::call::ToolCall;
use crate::context::CallContext;
use crate::definition::ToolDefinition;
use crate::dispatch::CallOptions;
use crate::policy::Approval;
use crate::registry::ToolRegistry;
use crate::response::ToolResponse;

use super::event::RunEvent;
use super::join::join_bounded;
use super::run::ToolBatch;
use super::stream::EventSink;

/// A call's future, boxed so early and fresh calls share one type in the batch's join.
pub(crate) type CallFuture<'a> = Pin<Box<dyn Future<Output = ToolResponse> + Send + 'a>>;

enum State<'a> {
    Running(CallFuture<'a>),
    Done(ToolResponse),
    Taken,
}

struct Entry<'a> {
    /// Position in the turn.
    index: usize,
    call: ToolCall,
    state: State<'a>,
}

/// The calls of one turn that started early.
pub(crate) struct EarlyCalls<'a> {
    entries: Vec<Entry<'a>>,
    cap: Option<usize>,
}

/// What the batch gets for a call that started early.
pub(crate) enum Started<'a> {
    /// Still running: join it with the others.
    Running(CallFuture<'a>),
    /// Finished while the model streamed (its result event was sent then).
    Done(ToolResponse),
}

impl<'a> Started<'a> {
    pub(crate) fn into_future(self) -> CallFuture<'a> {
        match self {
            Started::Running(future) => future,
            Started::Done(response) => Box::pin(ready(response)),
        }
    }
}

impl<'a> EarlyCalls<'a> {
    /// None started yet; at most `cap` run at once (`None`: no cap).
    pub(crate) fn new(cap: Option<usize>) -> Self {
        EarlyCalls {
            entries: Vec::new(),
            cap: cap.map(|c| c.max(1)),
        }
    }

    fn running(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e.state, State::Running(_)))
            .count()
    }

    /// Whether another call may start now.
    pub(crate) fn has_room(&self) -> bool {
        self.cap.is_none_or(|cap| self.running() < cap)
    }

    /// Starts the call at `index` of the turn.
    pub(crate) fn start(&mut self, index: usize, call: ToolCall, future: CallFuture<'a>) {
        self.entries.push(Entry {
            index,
            call,
            state: State::Running(future),
        });
    }

    /// Whether any call started early.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Polls the running calls once; `on_done` sees each one that finishes.
    pub(crate) fn poll_calls(
        &mut self,
        cx: &mut Context<'_>,
        on_done: &mut impl FnMut(&ToolCall, &ToolResponse),
    ) {
        for entry in &mut self.entries {
            if let State::Running(future) = &mut entry.state {
                if let Poll::Ready(response) = future.as_mut().poll(cx) {
                    on_done(&entry.call, &response);
                    entry.state = State::Done(response);
                }
            }
        }
    }

    /// The early start of `call` (same id, name and arguments), if it had one.
    pub(crate) fn take(&mut self, call: &ToolCall) -> Option<Started<'a>> {
        let entry = self.entries.iter_mut().find(|e| {
            !matches!(e.state, State::Taken)
                && e.call.id == call.id
                && e.call.name == call.name
                && e.call.arguments == call.arguments
        })?;
        match std::mem::replace(&mut entry.state, State::Taken) {
            State::Running(future) => Some(Started::Running(future)),
            State::Done(response) => Some(Started::Done(response)),
            State::Taken => None,
        }
    }

    /// Runs every started call to its end: positions in the turn and responses (for a run
    /// that pauses for approval, which keeps them).
    pub(crate) async fn finish(
        &mut self,
        mut on_done: impl FnMut(&ToolCall, &ToolResponse),
    ) -> Vec<(usize, ToolResponse)> {
        poll_fn(|cx| {
            self.poll_calls(cx, &mut on_done);
            if self.running() == 0 {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
        self.entries
            .drain(..)
            .filter_map(|entry| match entry.state {
                State::Done(response) => Some((entry.index, response)),
                _ => None,
            })
            .collect()
    }
}

/// Hands a finished call's side-channel events and result to the stream's consumer.
pub(crate) fn push_result(sink: Option<&EventSink>, call: &ToolCall, response: &ToolResponse) {
    let Some(sink) = sink else {
        return;
    };
    for event in response.events.iter() {
        sink.push(RunEvent::ToolEvent {
            call_id: call.id.clone(),
            event: event.clone(),
        });
    }
    sink.push(RunEvent::ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        response: response.clone(),
    });
}

/// Runs a turn's batch: calls that started early are taken over (running first, so the cap
/// never stalls them behind calls not started yet), the others start here; responses come
/// back in call order.
pub(crate) async fn run_batch<'a, 'e: 'a>(
    registry: &'a ToolRegistry,
    batch: ToolBatch<'a>,
    context: &'a CallContext,
    early: &mut EarlyCalls<'e>,
    sink: Option<&EventSink>,
) -> Vec<ToolResponse> {
    let offered: Option<Vec<&str>> = batch
        .offered
        .map(|names| names.iter().map(String::as_str).collect());
    let mut options = CallOptions::new().context(context).model_calls();
    if let Some(offered) = &offered {
        options = options.offer(offered);
    }
    // A person approved these calls: the registry's own hook must not review them a second
    // time.
    let approve = |_: &ToolCall, _: &ToolDefinition| Approval::Approved;
    let approved_options = options.approval(&approve);
    let calls = batch.calls;
    let mut reported = vec![false; calls.len()];
    let mut running_first = Vec::new();
    let mut others = Vec::new();
    let mut slots: Vec<Option<CallFuture<'_>>> = Vec::with_capacity(calls.len());
    for (index, call) in calls.iter().enumerate() {
        let future: CallFuture<'_> = match early.take(call) {
            Some(Started::Running(future)) => {
                running_first.push(index);
                future
            }
            Some(done @ Started::Done(_)) => {
                // Its result was reported when it finished.
                if let Some(flag) = reported.get_mut(index) {
                    *flag = true;
                }
                others.push(index);
                done.into_future()
            }
            None => {
                others.push(index);
                let options = if batch.approved.contains(&call.id) {
                    &approved_options
                } else {
                    &options
                };
                Box::pin(registry.call_with(call, options))
            }
        };
        slots.push(Some(future));
    }
    // Early calls that are not in the batch (the finished turn differs from what streamed)
    // are dropped, which cancels them.
    *early = EarlyCalls::new(early.cap);
    let order: Vec<usize> = running_first.into_iter().chain(others).collect();
    let futures: Vec<CallFuture<'_>> = order
        .iter()
        .filter_map(|&index| slots.get_mut(index).and_then(Option::take))
        .collect();
    let mut responses = join_bounded(futures, batch.max_concurrency, |at, response| {
        let Some(&index) = order.get(at) else { return };
        if reported.get(index).copied().unwrap_or(true) {
            return;
        }
        if let Some(call) = calls.get(index) {
            push_result(sink, call, response);
        }
    })
    .await
    .into_iter()
    .zip(order.iter().copied())
    .map(|(response, index)| (index, response))
    .collect::<Vec<_>>();
    responses.sort_by_key(|(index, _)| *index);
    responses
        .into_iter()
        .map(|(_, response)| response)
        .collect()
}
