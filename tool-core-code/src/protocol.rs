//! What the program's thread and the async side say to each other.

use crate::limits::LimitHit;

/// One tool call a program made: its id within the program, the name it called, and the
/// arguments as JSON text.
#[derive(Debug)]
pub(crate) struct InnerCall {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) arguments: String,
}

/// The answer to one [`InnerCall`].
#[derive(Debug)]
pub(crate) enum Settle {
    /// The call succeeded: its result text, and whether that text is JSON (then the program
    /// gets it parsed).
    Value { text: String, json: bool },
    /// The call failed: the error code and the model-facing message.
    Error { code: String, message: String },
}

/// From the program's thread to the async side.
#[derive(Debug)]
pub(crate) enum ToHost {
    /// The program waits on these calls; answer them all.
    Calls(Vec<InnerCall>),
    /// The program ended.
    Done(Finish),
}

/// How a program ended, with its `console.log` output so far.
#[derive(Debug)]
pub(crate) struct Finish {
    pub(crate) logs: String,
    pub(crate) outcome: Result<Option<Returned>, Failure>,
}

/// The program's return value.
#[derive(Debug)]
pub(crate) enum Returned {
    /// A string, as it is.
    Text(String),
    /// Any other value, as JSON.
    Json(String),
}

/// Why a program failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The source is not valid JavaScript.
    Syntax(String),
    /// The program threw (or its promise rejected) with this description.
    Threw(String),
    /// A limit ended it.
    Limit(LimitHit),
    /// It waits on a promise that no tool call will settle.
    Stalled,
    /// The return value cannot be turned into JSON.
    Unreturnable(String),
    /// The run was cancelled while it ran.
    Cancelled,
    /// The engine could not run it at all.
    Engine(String),
}
