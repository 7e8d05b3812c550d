//! The program's own thread: a fresh QuickJS runtime per program, with the memory, stack
//! and interrupt limits set, running the program's event loop. The engine is not `Send`, so
//! it lives and dies on this thread; the async side only exchanges plain data with it
//! ([`crate::protocol`]).
//!
//! The loop: run the engine's jobs until none is left; if the program's promise has
//! settled, it is done; otherwise hand the calls it queued to the async side and wait (up
//! to the deadline) for their answers, settle them, and go round again. Calls a program
//! makes without awaiting in between (`Promise.all`) go out together.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Instant;

use futures_channel::mpsc::UnboundedSender;
use rquickjs::{
    promise::PromiseState, Array, Context, Ctx, Function, Object, Promise, Runtime, Value,
};

use tool_core::CancelFlag;

use crate::limits::{CodeLimits, LimitHit};
use crate::native::{self, Shared};
use crate::protocol::{Failure, Finish, Returned, Settle, ToHost};

const BOOTSTRAP: &str = include_str!("bootstrap.js");

/// The most native stack the engine may be given, whatever the limits ask for.
const MAX_ENGINE_STACK: usize = 128 * 1024 * 1024;

/// The engine's stack limit, and the thread's stack: the engine checks its own use against
/// the limit, so the thread has room above it (twice the limit, plus 4 MiB for the host's
/// frames) and a deep recursion ends in the engine's error, never in a native overflow.
fn stacks(limits: &CodeLimits) -> (usize, usize) {
    let engine = limits.stack_bytes.min(MAX_ENGINE_STACK);
    (engine, engine * 2 + 4 * 1024 * 1024)
}

/// What one program needs.
pub(crate) struct Program {
    pub(crate) source: String,
    pub(crate) callable: Vec<String>,
    pub(crate) limits: CodeLimits,
    /// The run's cancellation: the program stops at the next interrupt check.
    pub(crate) cancel: Option<CancelFlag>,
}

/// Starts `program` on its own thread. Its messages arrive on `to_host`; answers to its
/// calls go to `answers`; `stop` ends it early (the async side dropped it).
pub(crate) fn spawn(
    program: Program,
    to_host: UnboundedSender<ToHost>,
    answers: Receiver<Vec<(u32, Settle)>>,
    stop: Arc<AtomicBool>,
) -> Result<(), String> {
    std::thread::Builder::new()
        .name("tool-core-code".into())
        .stack_size(stacks(&program.limits).1)
        .spawn(move || {
            let finish = catch_unwind(AssertUnwindSafe(|| {
                run(&program, &to_host, &answers, &stop)
            }))
            .unwrap_or_else(|_| Finish {
                logs: String::new(),
                outcome: Err(Failure::Engine("the engine failed".into())),
            });
            // The async side may be gone (the run was cancelled): nobody to tell.
            let _ = to_host.unbounded_send(ToHost::Done(finish));
        })
        .map(|_| ())
        .map_err(|e| format!("could not start the program's thread: {e}"))
}

fn run(
    program: &Program,
    to_host: &UnboundedSender<ToHost>,
    answers: &Receiver<Vec<(u32, Settle)>>,
    stop: &Arc<AtomicBool>,
) -> Finish {
    let limits = program.limits;
    let started = Instant::now();
    // A wall time too long to add is as good as none (about a day is the most asked for).
    let deadline = started
        .checked_add(limits.wall_time)
        .unwrap_or_else(|| started + std::time::Duration::from_secs(86_400));
    let flag = Arc::new(AtomicU8::new(0));
    let runtime = match Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => return engine_failure(format!("the engine did not start: {e}")),
    };
    runtime.set_memory_limit(limits.memory_bytes);
    runtime.set_max_stack_size(stacks(&limits).0);
    {
        let flag = flag.clone();
        let stop = stop.clone();
        let cancel = program.cancel.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || {
            if flag.load(Ordering::SeqCst) != 0
                || stop.load(Ordering::SeqCst)
                || cancel.as_ref().is_some_and(CancelFlag::is_cancelled)
            {
                return true;
            }
            if Instant::now() >= deadline {
                native::abort(&flag, LimitHit::WallTime);
                return true;
            }
            false
        })));
    }
    let context = match Context::full(&runtime) {
        Ok(context) => context,
        Err(e) => return engine_failure(format!("the engine did not start: {e}")),
    };
    let shared = Rc::new(RefCell::new(Shared::default()));
    let outcome = context.with(|ctx| {
        let looped = event_loop(&ctx, program, &shared, &flag, deadline, to_host, answers);
        // Whatever the loop left behind, the limit (or the cancellation) that stopped the
        // program is the reason.
        match LimitHit::from_u8(flag.load(Ordering::SeqCst)) {
            Some(hit) => Err(Failure::Limit(hit)),
            None if looped.is_err()
                && program
                    .cancel
                    .as_ref()
                    .is_some_and(CancelFlag::is_cancelled) =>
            {
                Err(Failure::Cancelled)
            }
            None => looped,
        }
    });
    let logs = std::mem::take(&mut shared.borrow_mut().logs);
    Finish { logs, outcome }
}

fn engine_failure(message: String) -> Finish {
    Finish {
        logs: String::new(),
        outcome: Err(Failure::Engine(message)),
    }
}

fn event_loop<'js>(
    ctx: &Ctx<'js>,
    program: &Program,
    shared: &Rc<RefCell<Shared>>,
    flag: &Arc<AtomicU8>,
    deadline: Instant,
    to_host: &UnboundedSender<ToHost>,
    answers: &Receiver<Vec<(u32, Settle)>>,
) -> Result<Option<Returned>, Failure> {
    let limits = program.limits;
    let started = (|| -> rquickjs::Result<Array<'js>> {
        let boot: Function = ctx.eval(BOOTSTRAP)?;
        let call = native::host_call(ctx, shared.clone(), flag.clone(), limits)?;
        let log = native::host_log(ctx, shared.clone(), flag.clone(), limits)?;
        boot.call((call, log, program.callable.clone(), program.source.as_str()))
    })();
    let started = started.map_err(|e| thrown(ctx, e))?;
    let settle: Function = started.get(1).map_err(|e| thrown(ctx, e))?;
    let syntax: Value = started.get(2).map_err(|e| thrown(ctx, e))?;
    if !syntax.is_undefined() {
        return Err(Failure::Syntax(describe(ctx, syntax)));
    }
    let promise: Promise = started.get(0).map_err(|e| thrown(ctx, e))?;
    loop {
        while ctx.execute_pending_job() {}
        if flag.load(Ordering::SeqCst) != 0 {
            return Err(Failure::Engine("stopped".into()));
        }
        match promise.state() {
            PromiseState::Resolved => {
                return match promise.result::<Value>() {
                    Some(Ok(value)) => returned(ctx, value, limits, shared),
                    Some(Err(e)) => Err(thrown(ctx, e)),
                    None => Err(Failure::Stalled),
                };
            }
            PromiseState::Rejected => {
                return Err(match promise.result::<Value>() {
                    Some(Err(e)) => thrown(ctx, e),
                    _ => Failure::Threw("the program's promise was rejected".into()),
                });
            }
            PromiseState::Pending => {}
        }
        let calls = std::mem::take(&mut shared.borrow_mut().queue);
        if calls.is_empty() {
            return Err(Failure::Stalled);
        }
        if to_host.unbounded_send(ToHost::Calls(calls)).is_err() {
            return Err(Failure::Engine(
                "the run stopped waiting for the program".into(),
            ));
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        let results = match answers.recv_timeout(remaining) {
            Ok(results) => results,
            Err(RecvTimeoutError::Timeout) => return Err(Failure::Limit(LimitHit::WallTime)),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Failure::Engine(
                    "the run stopped waiting for the program".into(),
                ));
            }
        };
        for (id, answer) in results {
            let settled = match answer {
                Settle::Value { text, json } => settle.call::<_, ()>((id, true, text, json, "")),
                Settle::Error { code, message } => {
                    settle.call::<_, ()>((id, false, message, false, code))
                }
            };
            if let Err(e) = settled {
                // Settling runs no program code (handlers run as jobs), so only the engine's
                // own limits fail it; the next round reports them.
                let _ = thrown(ctx, e);
            }
        }
    }
}

/// The program's return value: a string as it is, anything else as JSON, within the result
/// size limit (counted with the output).
fn returned<'js>(
    ctx: &Ctx<'js>,
    value: Value<'js>,
    limits: CodeLimits,
    shared: &Rc<RefCell<Shared>>,
) -> Result<Option<Returned>, Failure> {
    if value.is_undefined() {
        return Ok(None);
    }
    let returned = if let Some(text) = value.as_string() {
        Returned::Text(text.to_string().map_err(|e| thrown(ctx, e))?)
    } else {
        match ctx.json_stringify(value) {
            Ok(Some(text)) => Returned::Json(text.to_string().map_err(|e| thrown(ctx, e))?),
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(match thrown(ctx, e) {
                    Failure::Threw(why) => Failure::Unreturnable(why),
                    other => other,
                });
            }
        }
    };
    let size = match &returned {
        Returned::Text(text) | Returned::Json(text) => text.len(),
    };
    if size + shared.borrow().logs.len() > limits.max_result_bytes {
        return Err(Failure::Limit(LimitHit::Result));
    }
    Ok(Some(returned))
}

/// The failure an engine error stands for: the exception it left, described, or the limit
/// the engine's own words name.
fn thrown(ctx: &Ctx<'_>, error: rquickjs::Error) -> Failure {
    match error {
        rquickjs::Error::Exception => {
            let value = ctx.catch();
            if let Some(hit) = engine_limit(&value) {
                return Failure::Limit(hit);
            }
            Failure::Threw(describe(ctx, value))
        }
        rquickjs::Error::Allocation => Failure::Limit(LimitHit::Memory),
        other => Failure::Engine(other.to_string()),
    }
}

/// The limits the engine reports as exceptions of its own: out of memory, stack overflow.
fn engine_limit(value: &Value<'_>) -> Option<LimitHit> {
    let object = value.as_object()?;
    let name: String = object.get("name").ok()?;
    let message: String = object.get("message").ok()?;
    match (name.as_str(), message.as_str()) {
        ("InternalError", "out of memory") => Some(LimitHit::Memory),
        ("InternalError", "stack overflow")
        | ("RangeError", "Maximum call stack size exceeded") => Some(LimitHit::Stack),
        _ => None,
    }
}

/// A thrown value as the model reads it: `Name: message` and the stack for an error, the
/// value as text otherwise.
fn describe<'js>(ctx: &Ctx<'js>, value: Value<'js>) -> String {
    let object: Option<&Object> = value.as_object();
    if let Some(object) = object {
        let name: Option<String> = object.get("name").ok();
        let message: Option<String> = object.get("message").ok();
        if let (Some(name), Some(message)) = (name, message) {
            let stack: Option<String> = object.get("stack").ok();
            let mut text = format!("{name}: {message}");
            for line in stack
                .as_deref()
                .unwrap_or_default()
                .lines()
                .filter_map(program_frame)
            {
                text.push_str("\n    ");
                text.push_str(&line);
            }
            return text;
        }
    }
    if let Some(text) = value.as_string().and_then(|s| s.to_string().ok()) {
        return text;
    }
    match ctx.json_stringify(value) {
        Ok(Some(text)) => text.to_string().unwrap_or_default(),
        _ => {
            let _ = ctx.catch();
            "a value that cannot be shown".into()
        }
    }
}

/// The first line of the model's code as the engine numbers it: the async function's
/// header takes two lines.
const HEADER_LINES: u32 = 2;

/// A stack frame in the model's code, with its line as the model wrote it (`at f (line 3,
/// column 5)`); `None` for frames of the engine's own code, which mean nothing to the model.
fn program_frame(frame: &str) -> Option<String> {
    let frame = frame.trim();
    let start = frame.find("(<input>:")?;
    let (head, place) = frame.split_at(start);
    let place = place.strip_prefix("(<input>:")?.strip_suffix(')')?;
    let (line, column) = place.split_once(':')?;
    let line: u32 = line.parse().ok()?;
    Some(format!(
        "{}(line {}, column {column})",
        head.replace("anonymous ", "program "),
        line.saturating_sub(HEADER_LINES)
    ))
}
