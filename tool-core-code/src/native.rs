//! The two host functions a program's bootstrap receives: `hostCall` (queue a tool call) and
//! `hostLog` (one line of `console.log`), and the state they share with the event loop.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use rquickjs::function::Opt;
use rquickjs::{Ctx, Exception, Function, Value};

use crate::limits::{CodeLimits, LimitHit};
use crate::protocol::InnerCall;

/// What the host functions collect while the program runs. Holds no engine values, so it
/// makes no reference cycle with the functions that hold it.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) queue: Vec<InnerCall>,
    pub(crate) calls_made: u32,
    pub(crate) logs: String,
}

/// Ends the program at the next interrupt check with `hit`, unless another limit already did.
pub(crate) fn abort(flag: &AtomicU8, hit: LimitHit) {
    let _ = flag.compare_exchange(0, hit.as_u8(), Ordering::SeqCst, Ordering::SeqCst);
}

/// `hostCall(name, args)`: checks the arguments are one object, counts the call against
/// the limit and queues it; returns the call's id.
pub(crate) fn host_call<'js>(
    ctx: &Ctx<'js>,
    shared: Rc<RefCell<Shared>>,
    flag: Arc<AtomicU8>,
    limits: CodeLimits,
) -> rquickjs::Result<Function<'js>> {
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, name: String, args: Opt<Value<'js>>| -> rquickjs::Result<u32> {
            let arguments = match args.0 {
                None => "{}".to_string(),
                Some(value) if value.is_undefined() => "{}".to_string(),
                Some(value) if value.is_object() && !value.is_array() && !value.is_function() => {
                    // Serialized before the state is borrowed: a `toJSON` of the program's
                    // may call a tool itself.
                    match ctx.json_stringify(value)? {
                        Some(text) => text.to_string()?,
                        None => "{}".to_string(),
                    }
                }
                Some(_) => {
                    return Err(Exception::throw_type(
                        &ctx,
                        &format!(
                            "tools.{name} takes one object of arguments, e.g. \
                             tools.{name}({{ ... }})"
                        ),
                    ));
                }
            };
            let Ok(mut shared) = shared.try_borrow_mut() else {
                return Err(Exception::throw_internal(
                    &ctx,
                    "a tool call is already being made",
                ));
            };
            if shared.calls_made >= limits.max_calls {
                abort(&flag, LimitHit::Calls);
                return Err(Exception::throw_range(
                    &ctx,
                    &LimitHit::Calls.message(&limits),
                ));
            }
            shared.calls_made += 1;
            let id = shared.calls_made;
            shared.queue.push(InnerCall {
                id,
                name,
                arguments,
            });
            Ok(id)
        },
    )
}

/// `hostLog(line)`: appends one line of output, within the result size limit.
pub(crate) fn host_log<'js>(
    ctx: &Ctx<'js>,
    shared: Rc<RefCell<Shared>>,
    flag: Arc<AtomicU8>,
    limits: CodeLimits,
) -> rquickjs::Result<Function<'js>> {
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, line: String| -> rquickjs::Result<()> {
            let Ok(mut shared) = shared.try_borrow_mut() else {
                return Err(Exception::throw_internal(
                    &ctx,
                    "console.log is already running",
                ));
            };
            if shared.logs.len() + line.len() + 1 > limits.max_result_bytes {
                abort(&flag, LimitHit::Result);
                return Err(Exception::throw_range(
                    &ctx,
                    &LimitHit::Result.message(&limits),
                ));
            }
            shared.logs.push_str(&line);
            shared.logs.push('\n');
            Ok(())
        },
    )
}
