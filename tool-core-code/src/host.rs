//! The async side of one program: starts its thread, answers the calls it makes through the
//! registry's dispatch, and turns how it ended into the code tool's response.
//!
//! Every call a program makes is a [`ToolCall`] made by a program
//! ([`Caller::program`]): the registry checks the name (`NOT_FOUND` with a suggestion), who
//! may call the tool (a direct-only tool answers `PERMISSION_DENIED` and never runs), the
//! arguments (`INVALID_PARAM`), the registry's approval hook, breaker, time limit and output
//! cap, exactly as for a model's own call. Before that, [`Gate`] applies the run's approval
//! policy: a call the policy says needs approval runs only if the code mode's approver
//! approves it.

use std::future::poll_fn;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Poll;

use futures_core::Stream;
use tool_core::runner::ApprovalPolicy;
use tool_core::{
    AllowedCallers, Approval, ApprovalHook, CallContext, CallOptions, Caller, CancelFlag, ToolCall,
    ToolErrorCode, ToolRegistry, ToolResponse, ToolStatus,
};

use crate::engine::{self, Program};
use crate::join::{Boxed, JoinAll};
use crate::protocol::{Failure, Finish, InnerCall, Settle, ToHost};
use crate::result;

/// The caller type inner calls carry (`Caller::Program { kind, .. }`).
pub(crate) const CALLER_KIND: &str = "code_mode";

/// The approval step of inner calls: the run's policy and who answers for it.
#[derive(Clone)]
pub(crate) struct Gate {
    pub(crate) policy: ApprovalPolicy,
    pub(crate) approver: Option<Arc<dyn ApprovalHook>>,
}

impl Gate {
    /// The refusal for `call`, or `None` when it may go on to the registry. Calls the
    /// registry refuses anyway (unknown tool, a caller it does not allow) are left to it,
    /// so nobody is asked about a call that cannot run.
    fn review(
        &self,
        call: &ToolCall,
        registry: &ToolRegistry,
        caller: &Caller,
    ) -> Option<ToolResponse> {
        let definition = registry.definition(&call.name)?;
        if !definition.allowed_callers().allows(caller) || !self.policy.requires(definition) {
            return None;
        }
        let verdict = match &self.approver {
            // A panicking approver denies: failing closed is the only safe reading.
            Some(hook) => catch_unwind(AssertUnwindSafe(|| hook.review(call, definition)))
                .unwrap_or_else(|_| Approval::Denied("the approval step failed".into())),
            None => {
                let direct = if definition.allowed_callers() == AllowedCallers::Program {
                    String::new()
                } else {
                    format!(" If the run offers it, call '{}' directly (outside the program), where the user can approve it.", call.name)
                };
                return Some(ToolResponse::error(
                    ToolErrorCode::PermissionDenied,
                    format!(
                        "The call to '{}' was not approved: it needs a person's approval, which \
                         no one can give while a program runs. It did not run.{direct}",
                        call.name
                    ),
                ));
            }
        };
        match verdict {
            Approval::Approved => None,
            Approval::Denied(reason) => Some(ToolResponse::error(
                ToolErrorCode::PermissionDenied,
                format!(
                    "The call to '{}' was not approved: {reason}. It did not run. Do not repeat \
                     it unchanged; tell the user or choose another approach.",
                    call.name
                ),
            )),
        }
    }
}

/// Ends the program's thread when the call is dropped (the run was cancelled, or the
/// registry's own time limit ended the code tool).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// What a program's run needs from the code tool.
pub(crate) struct Setup<'a> {
    pub(crate) registry: &'a ToolRegistry,
    pub(crate) gate: &'a Gate,
    pub(crate) program: Program,
    pub(crate) program_id: String,
    pub(crate) cancel: Option<CancelFlag>,
}

/// Runs one program to its end and gives the code tool's response.
pub(crate) async fn execute(setup: Setup<'_>) -> ToolResponse {
    let limits = setup.program.limits;
    let (to_host, mut from_program) = futures_channel::mpsc::unbounded();
    let (answer, answers) = std::sync::mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let _stop = StopOnDrop(stop.clone());
    if let Err(why) = engine::spawn(setup.program, to_host, answers, stop) {
        return result::response(
            Finish {
                logs: String::new(),
                outcome: Err(Failure::Engine(why)),
            },
            &limits,
        );
    }
    let mut context = CallContext::new();
    if let Some(flag) = setup.cancel {
        context = context.with_cancel(flag);
    }
    let options = CallOptions::new().context(&context);
    let caller = Caller::program(CALLER_KIND, setup.program_id.clone());
    let mut in_flight: Option<JoinAll<'_, Answered>> = None;
    // What the program called, in order, for the application (the response's context).
    let mut trace: Vec<serde_json::Value> = Vec::new();
    loop {
        let event = poll_fn(|cx| {
            if let Some(batch) = in_flight.as_mut() {
                if let Poll::Ready(results) = Pin::new(batch).poll(cx) {
                    return Poll::Ready(Event::Answered(results));
                }
            }
            match Pin::new(&mut from_program).poll_next(cx) {
                Poll::Ready(Some(message)) => Poll::Ready(Event::Message(message)),
                Poll::Ready(None) => Poll::Ready(Event::Gone),
                Poll::Pending => Poll::Pending,
            }
        })
        .await;
        match event {
            Event::Answered(answered) => {
                in_flight = None;
                let mut results = Vec::with_capacity(answered.len());
                for Answered { id, settle, record } in answered {
                    trace.push(record);
                    results.push((id, settle));
                }
                // A program that already ended (its deadline passed) says so next.
                let _ = answer.send(results);
            }
            Event::Message(ToHost::Calls(calls)) => {
                let batch = calls
                    .into_iter()
                    .map(|call| -> Boxed<'_, Answered> {
                        Box::pin(one_call(
                            setup.registry,
                            setup.gate,
                            &options,
                            &caller,
                            &setup.program_id,
                            call,
                        ))
                    })
                    .collect();
                in_flight = Some(JoinAll::new(batch));
            }
            Event::Message(ToHost::Done(finish)) => {
                return result::response(finish, &limits).with_context("calls", trace);
            }
            Event::Gone => {
                return result::response(
                    Finish {
                        logs: String::new(),
                        outcome: Err(Failure::Engine("the program's thread ended".into())),
                    },
                    &limits,
                );
            }
        }
    }
}

enum Event {
    Answered(Vec<Answered>),
    Message(ToHost),
    Gone,
}

use std::future::Future;

/// One inner call's answer, and its line in the trace.
struct Answered {
    id: u32,
    settle: Settle,
    record: serde_json::Value,
}

async fn one_call(
    registry: &ToolRegistry,
    gate: &Gate,
    options: &CallOptions<'_>,
    caller: &Caller,
    program_id: &str,
    inner: InnerCall,
) -> Answered {
    let call = ToolCall::new(
        format!("{program_id}#{}", inner.id),
        inner.name,
        inner.arguments,
    )
    .with_caller(caller.clone());
    let response = match gate.review(&call, registry, caller) {
        Some(refusal) => refusal,
        None => registry.call_with(&call, options).await,
    };
    let mut record = serde_json::json!({"tool": call.name, "status": response.status.to_string()});
    if let Some(code) = response.error_code() {
        record["code"] = code.to_string().into();
    }
    Answered {
        id: inner.id,
        settle: settle(response),
        record,
    }
}

/// What the program gets for a response: the result (parsed when JSON), or an error with
/// its code and model-facing message.
fn settle(response: ToolResponse) -> Settle {
    if response.status == ToolStatus::Error {
        let code = response
            .error_code()
            .unwrap_or(ToolErrorCode::Unknown)
            .to_string();
        let message = response
            .error_message()
            .map(str::to_owned)
            .unwrap_or_else(|| response.model_text().into_owned());
        return Settle::Error { code, message };
    }
    // The structured result is what a tool's output schema (and so its declared result
    // type) describes.
    if response.status == ToolStatus::Success {
        if let Some(data) = &response.data {
            return Settle::Value {
                text: data.get().to_owned(),
                json: true,
            };
        }
    }
    let text = response.into_model_text();
    let json = serde_json::from_str::<&serde_json::value::RawValue>(&text).is_ok();
    Settle::Value { text, json }
}
